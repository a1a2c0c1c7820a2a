import CLibCurl
import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What one channel got in one delivery, and what it still lacks.
public struct ChannelReport: Sendable, Codable, Equatable {
    public var channel: String
    /// News items confirmed delivered, and in how many messages.
    public var delivered = 0
    public var messages = 0
    /// The news ids still pending for it.
    public var pending: [String] = []
    /// Why it stopped short, when it did (the secret never in it: a webhook is named by its host).
    public var problem: String?
}

/// Delivers a catalog's pending announcements to its channels, all at once, within one deadline; the outbox is
/// written after each message a service confirmed. Rate limits are obeyed: Discord's `retry_after`, any `Retry-After`,
/// and 408 and 5xx answers or no answer at all are retried with backoff, until the deadline.
public struct Announcer: Sendable {
    public var settings: AnnounceSettings
    public var catalog: CatalogConfig
    public var store: SnapshotStore
    public var environment = ProcessInfo.processInfo.environment
    /// The email's Date.
    public var now: Date
    /// The subjects' names and the site's address, for messages (`forPeople`).
    public var subjectNames: [String: String] = [:]
    public var site = SiteSettings()
    /// Sent with every webhook request: `fetch.userAgent` with gvingest's version (`FetchSettings.requestUserAgent`).
    public var userAgent = FetchSettings().requestUserAgent
    /// The site's "what changed" page, which the email digest links to; none without `site.baseUrl`.
    var changesPage: URL? { site.url("changes.html").flatMap { URL(string: $0) } }

    public init(settings: AnnounceSettings, catalog: CatalogConfig, store: SnapshotStore, now: Date) {
        self.settings = settings
        self.catalog = catalog
        self.store = store
        self.now = now
    }

    /// The messages a channel gets for these announcements.
    public func messages(_ channel: AnnounceChannel, _ announcements: [Announcement]) -> [ChannelMessage] {
        guard !announcements.isEmpty else { return [] }
        let announcements = forPeople(announcements)
        switch channel.kind {
        case .discord: return ChannelMessages.discord(announcements, catalog: catalog.name)
        case .slack: return ChannelMessages.slack(announcements, catalog: catalog.name)
        case .webhook: return ChannelMessages.webhook(announcements, catalogID: catalog.id, catalog: catalog.name)
        case .email:
            guard let email = channel.email else { return [] }
            return [ChannelMessages.email(announcements, catalog: catalog.name, from: email.from, to: email.to, date: now, changesPage: changesPage)]
        }
    }

    /// Delivers what `outbox` holds for `channels` (every channel when nil), saving it after each confirmed message
    /// (unless `keep` is false: a test message).
    public func deliver(_ outbox: Outbox, only channels: [AnnounceChannel]? = nil, keep: Bool = true) async -> [ChannelReport] {
        final class Kept: Sendable {
            let outbox: Mutex<Outbox>
            init(_ outbox: Outbox) { self.outbox = Mutex(outbox) }
        }
        let kept = Kept(outbox)
        let deadline = ProcessInfo.processInfo.systemUptime + Double(settings.deadlineSeconds)
        let (session, delegate) = SessionDelegate.session(maximumRedirects: 0, timeoutSeconds: 30, connectionsPerHost: 2, userAgent: userAgent)
        defer { session.finishTasksAndInvalidate() }
        return await withTaskGroup(of: ChannelReport.self) { group in
            for channel in channels ?? settings.channels {
                group.addTask {
                    var report = ChannelReport(channel: channel.name)
                    do throws(CatalogError) {
                        let send = try sender(channel, session: session, delegate: delegate)
                        for message in messages(channel, outbox.pending[channel.name] ?? []) {
                            try await deliver(message, deadline: deadline, send)
                            try kept.outbox.withLock { (outbox: inout Outbox) throws(CatalogError) in
                                outbox.pending[channel.name]?.removeAll { message.ids.contains($0.item.id) }
                                if keep { try outbox.save(store) }
                            }
                            report.delivered += message.ids.count
                            report.messages += 1
                        }
                    } catch {
                        report.problem = error.message
                    }
                    report.pending = kept.outbox.withLock { $0.pending[channel.name] ?? [] }.map(\.item.id)
                    return report
                }
            }
            return await group.reduce(into: []) { $0.append($1) }.sorted { $0.channel < $1.channel }
        }
    }

    /// One attempt's outcome.
    enum Attempt: Sendable {
        case delivered
        /// Worth trying again, after at least `after` seconds when the service said so.
        case retry(String, after: Double?)
        case refused(CatalogError)
    }

    typealias Sender = @Sendable (ChannelMessage, _ seconds: Int) async -> Attempt

    /// Sends one message until it is confirmed, refused, or the deadline is near.
    private func deliver(_ message: ChannelMessage, deadline: Double, _ send: Sender) async throws(CatalogError) {
        var attempt = 0
        var last: String?
        while true {
            attempt += 1
            let left = Int((deadline - ProcessInfo.processInfo.systemUptime).rounded(.down))
            guard left > 0, !Task.isCancelled else {
                throw CatalogError((last.map { "\($0): " } ?? "") + "the announce deadline of \(settings.deadlineSeconds) s was reached", .temporary)
            }
            switch await send(message, min(60, left)) {
            case .delivered: return
            case let .refused(error): throw error
            case let .retry(reason, after):
                last = reason
                let wait = RetryAfter.backoff(attempt: attempt, base: 0.5, maximum: 30, retryAfter: after, retryAfterMaximum: 600)
                guard ProcessInfo.processInfo.systemUptime + wait < deadline else {
                    throw CatalogError("\(reason) (gave up after \(attempt) attempt(s), at the announce deadline)", .temporary)
                }
                try? await Task.sleep(nanoseconds: RetryAfter.nanoseconds(wait))
            }
        }
    }

    /// How a channel's messages are sent, its secrets read from the environment first.
    private func sender(_ channel: AnnounceChannel, session: URLSession, delegate: SessionDelegate) throws(CatalogError) -> Sender {
        guard let email = channel.email else {
            var url = try channel.webhookURL(environment)
            let token = try channel.secret(channel.tokenEnv, environment, holding: "bearer token")
            // Discord confirms the message only when asked to wait for it.
            if channel.kind == .discord {
                url = URL(string: url.absoluteString + (url.query == nil ? "?" : "&") + "wait=true") ?? url
            }
            return { [url] message, seconds in
                await Self.post(message.body, to: url, token: token, seconds: seconds, session: session, delegate: delegate)
            }
        }
        let user = try channel.secret(email.userEnv, environment, holding: "SMTP user name")
        let password = try channel.secret(email.passwordEnv, environment, holding: "SMTP password")
        return { message, seconds in
            await withCheckedContinuation { continuation in
                // libcurl blocks: on a thread of its own, not one of Swift's cooperative pool.
                Thread.detachNewThread {
                    continuation.resume(returning: SMTP.send(message.body, email, user: user, password: password, seconds: seconds))
                }
            }
        }
    }

    /// POSTs JSON to a webhook. Only the host is ever named: the path of a webhook's URL is its secret.
    static func post(_ body: Data, to url: URL, token: String?, seconds: Int, session: URLSession, delegate: SessionDelegate) async -> Attempt {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: TimeInterval(seconds))
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let raw = await delegate.run(request, in: session, limits: (1 << 20, .now() + .seconds(seconds), { _ in false }))
        let host = url.host ?? "?"
        if raw.timedOut { return .retry("no answer from \(host) within \(seconds) s", after: nil) }
        if let error = raw.error {
            return .retry(ConnectionFailure.describe(error, url: URL(string: "\(url.scheme ?? "https")://\(host)\(url.port.map { ":\($0)" } ?? "")") ?? url,
                                                     timeoutSeconds: seconds), after: nil)
        }
        guard let response = raw.response else { return .retry("no answer from \(host)", after: nil) }
        let status = response.statusCode
        if (200..<300).contains(status) { return .delivered }
        // Discord says how long to wait in its JSON (seconds, with a fraction); others in Retry-After.
        let json = try? JSONFile.decode(JSONValue.self, from: raw.body)
        let after: Double? = switch json?["retry_after"] {
        case let .double(seconds)?: seconds
        case let .int(seconds)?: Double(seconds)
        default: response.value(forHTTPHeaderField: "Retry-After").flatMap { RetryAfter.seconds(from: $0) }
        }
        if status == 429 || status == 408 || status >= 500 { return .retry("HTTP \(status) from \(host)", after: after) }
        return .refused(CatalogError("HTTP \(status) from \(host)", status == 401 || status == 403 || status == 404 ? .noCredentials : .unavailable))
    }
}

/// Mail through libcurl's SMTP client: TLS from the start (smtps) or STARTTLS, AUTH, and the server's certificate
/// verified (against `caFile` when set).
enum SMTP {
    static func send(_ message: Data, _ settings: EmailSettings, user: String?, password: String?, seconds: Int) -> Announcer.Attempt {
        guard let curl = curl_easy_init() else { return .retry("libcurl could not start", after: nil) }
        defer { curl_easy_cleanup(curl) }
        var recipients: UnsafeMutablePointer<curl_slist>?
        for address in settings.to { recipients = curl_slist_append(recipients, "<\(address)>") }
        defer { curl_slist_free_all(recipients) }
        var errors = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        var bytes = [UInt8](message)
        let code = bytes.withUnsafeMutableBytes { buffer in
            errors.withUnsafeMutableBufferPointer { errorBuffer in
                let file = fmemopen(buffer.baseAddress, buffer.count, "r")
                defer { if let file { fclose(file) } }
                func set(_ option: CURLoption, _ text: String?) {
                    if let text { _ = text.withCString { gvingest_curl_setopt_pointer(curl, option, $0) } }
                }
                set(CURLOPT_URL, settings.smtpURL.absoluteString)
                set(CURLOPT_MAIL_FROM, "<\(settings.from)>")
                set(CURLOPT_USERNAME, user)
                set(CURLOPT_PASSWORD, password)
                set(CURLOPT_CAINFO, settings.caFile)
                set(CURLOPT_PROTOCOLS_STR, "smtp,smtps")
                _ = gvingest_curl_setopt_pointer(curl, CURLOPT_MAIL_RCPT, recipients)
                _ = gvingest_curl_setopt_pointer(curl, CURLOPT_READDATA, file)
                _ = gvingest_curl_setopt_pointer(curl, CURLOPT_ERRORBUFFER, errorBuffer.baseAddress)
                _ = gvingest_curl_setopt_long(curl, CURLOPT_UPLOAD, 1)
                _ = gvingest_curl_setopt_long(curl, CURLOPT_NOSIGNAL, 1)
                _ = gvingest_curl_setopt_long(curl, CURLOPT_TIMEOUT, seconds)
                _ = gvingest_curl_setopt_long(curl, CURLOPT_USE_SSL, Int(settings.starttls ? CURLUSESSL_ALL.rawValue : CURLUSESSL_NONE.rawValue))
                return file == nil ? CURLE_OUT_OF_MEMORY : curl_easy_perform(curl)
            }
        }
        if code == CURLE_OK { return .delivered }
        let reply = gvingest_curl_response_code(curl)
        let written = String(decoding: errors.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let detail = written.isEmpty ? String(cString: curl_easy_strerror(code)) : written
        let described = "SMTP with \(settings.smtpURL.host ?? "?"):\(settings.smtpURL.port.map(String.init) ?? "default port"): \(detail)"
            + (reply > 0 ? " (reply \(reply))" : "")
        switch code {
        case CURLE_LOGIN_DENIED: return .refused(CatalogError(described, .noCredentials))
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_OPERATION_TIMEDOUT, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING:
            return .retry(described, after: nil)
        default:
            return (400..<500).contains(reply) ? .retry(described, after: nil) : .refused(CatalogError(described, .unavailable))
        }
    }
}

extension Announcer {
    /// The outbox with every news item of the catalog's outputs not yet queued (see `Outbox.queue`); the courses'
    /// facts come from `snapshot`, else from the newest snapshot when there is news to queue.
    public func outbox(news: [NewsItem], snapshot: Snapshot? = nil) throws(CatalogError) -> Outbox {
        var (outbox, _) = try Outbox.load(store, news: news)
        let fresh = news.contains { $0.id.hasPrefix("\(catalog.id):") && !outbox.queued.contains($0.id) }
        let newest = try Result { () throws(SnapshotError) in fresh && snapshot == nil ? try store.latest()?.snapshot : snapshot }
            .mapError { CatalogError("\($0)", .invalidData) }.get()
        outbox.queue(news, catalogID: catalog.id, snapshot: newest, channels: settings.channels.map(\.name))
        return outbox
    }

    /// What `gvingest announce --test` sends: one announcement that says where it comes from.
    public var test: Announcement {
        var announcement = Announcement(NewsItem(id: "\(catalog.id):test", title: "Test message from gvingest",
                                                 description: "\(catalog.name) will announce its new courses here.", content: "",
                                                 featured: false, createdAt: Timestamp.string(now), kind: .changed, courseId: "test", link: nil),
                                        course: nil)
        announcement.subject = "gvingest"
        return announcement
    }
}
