import Foundation
import Synchronization

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
    /// Sent with every webhook request: `fetch.userAgent` with gvingest's version (`FetchSettings.requestUserAgent`).
    public var userAgent = FetchSettings().requestUserAgent
    /// The site's "what changed" page, which the email digest links to (`site.baseUrl`); none when nil.
    public var changesPage: URL?

    public init(settings: AnnounceSettings, catalog: CatalogConfig, store: SnapshotStore, now: Date) {
        self.settings = settings
        self.catalog = catalog
        self.store = store
        self.now = now
    }

    /// The messages a channel gets for these announcements.
    public func messages(_ channel: AnnounceChannel, _ announcements: [Announcement]) -> [ChannelMessage] {
        guard !announcements.isEmpty else { return [] }
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
        return await withTaskGroup(of: ChannelReport.self) { group in
            for channel in channels ?? settings.channels {
                group.addTask {
                    var report = ChannelReport(channel: channel.name)
                    do throws(CatalogError) {
                        let send = try sender(channel)
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

    /// Sends a message once, giving up at `deadline` (`ProcessInfo.systemUptime`).
    typealias Sender = @Sendable (ChannelMessage, _ deadline: Double) async -> Attempt

    /// Sends one message until it is confirmed, refused, or the deadline is near.
    private func deliver(_ message: ChannelMessage, deadline: Double, _ send: Sender) async throws(CatalogError) {
        var attempt = 0
        var last: String?
        while true {
            attempt += 1
            let now = ProcessInfo.processInfo.systemUptime
            guard now < deadline, !Task.isCancelled else {
                throw CatalogError((last.map { "\($0): " } ?? "") + "the announce deadline of \(settings.deadlineSeconds) s was reached", .temporary)
            }
            switch await send(message, min(now + Self.attemptSeconds, deadline)) {
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

    /// The longest one attempt may take, within the channel's deadline.
    static let attemptSeconds = 60.0

    /// How a channel's messages are sent, its secrets read from the environment first.
    private func sender(_ channel: AnnounceChannel) throws(CatalogError) -> Sender {
        guard let email = channel.email else {
            var url = try channel.webhookURL(environment)
            let token = try channel.secret(channel.tokenEnv, environment, holding: "bearer token")
            // Discord confirms the message only when asked to wait for it.
            if channel.kind == .discord {
                url = URL(string: url.absoluteString + (url.query == nil ? "?" : "&") + "wait=true") ?? url
            }
            return { [url, userAgent] message, deadline in
                await Self.post(message.body, to: url, token: token, userAgent: userAgent, deadline: deadline)
            }
        }
        if let caFile = email.caFile {
            // libcurl opens it and waits: a FIFO with no writer held a delivery past its deadline.
            var info = stat()
            guard stat(caFile, &info) == 0 else {
                throw CatalogError("channel \(channel.name): caFile \(caFile): \(String(cString: strerror(errno)))", .missingInput)
            }
            guard info.st_mode & S_IFMT == S_IFREG else {
                throw CatalogError("channel \(channel.name): caFile \(caFile): not a regular file (a FIFO, a device, a folder); refused", .missingInput)
            }
        }
        let user = try channel.secret(email.userEnv, environment, holding: "SMTP user name")
        let password = try channel.secret(email.passwordEnv, environment, holding: "SMTP password")
        return { message, deadline in await SMTP.send(message.body, email, user: user, password: password, deadline: deadline) }
    }

    /// POSTs JSON to a webhook, through libcurl. Only the host is ever named: the path of a webhook's URL is its
    /// secret. A 2xx status line is the service's word that it took the message, even when the body after it is cut.
    static func post(_ body: Data, to url: URL, token: String?, userAgent: String, deadline: Double) async -> Attempt {
        let headers = ["Content-Type: application/json", "User-Agent: \(userAgent)"] + (token.map { ["Authorization: Bearer \($0)"] } ?? [])
        let began = ProcessInfo.processInfo.systemUptime
        let raw = await Curl.http("POST", url, headers: headers, body: body, deadline: deadline, maximumBodyBytes: 1 << 20)
        let host = url.host ?? "?"
        let status = raw.status
        if (200..<300).contains(status) { return .delivered }
        switch raw.failure {
        case .deadline?: return .retry("no answer from \(host) within \(Int((deadline - began).rounded())) s", after: nil)
        case let .malformed(detail)?: return .refused(CatalogError("\(host): \(detail)", .invalidData))
        case let failure? where status == 0: return .retry("connection error with \(host): \(failure.message)", after: nil)
        default: break
        }
        // Discord says how long to wait in its JSON (seconds, with a fraction); others in Retry-After.
        let json = try? JSONFile.decode(JSONValue.self, from: raw.body)
        let after: Double? = switch json?["retry_after"] {
        case let .double(seconds)?: seconds
        case let .int(seconds)?: Double(seconds)
        default: raw.headers["retry-after"].flatMap { RetryAfter.seconds(from: $0) }
        }
        if status == 429 || status == 408 || status >= 500 { return .retry("HTTP \(status) from \(host)", after: after) }
        return .refused(CatalogError("HTTP \(status) from \(host)", status == 401 || status == 403 || status == 404 ? .noCredentials : .unavailable))
    }
}

/// Mail through libcurl's SMTP client (`Curl.smtp`).
enum SMTP {
    /// A permanent reply (5xx) or a setting libcurl refuses is refused at once: only a passing trouble (4xx, no
    /// connection, no reply in time) is worth another connection.
    static func send(_ message: Data, _ settings: EmailSettings, user: String?, password: String?, deadline: Double) async -> Announcer.Attempt {
        let sent = await Curl.smtp(settings.smtpURL, message: message, from: settings.from, to: settings.to, user: user,
                                   password: password, caFile: settings.caFile, starttls: settings.starttls, deadline: deadline)
        guard let failure = sent.failure else { return .delivered }
        let reply = sent.status
        let described = "SMTP with \(settings.smtpURL.host ?? "?"):\(settings.smtpURL.port.map(String.init) ?? "default port"): "
            + (failure == .deadline ? "no reply before the announce deadline" : failure.message) + (reply > 0 ? " (reply \(reply))" : "")
        switch failure {
        case .loginDenied: return .refused(CatalogError(described, .noCredentials))
        case .malformed: return .refused(CatalogError(described, .invalidData))
        case _ where (500..<600).contains(reply): return .refused(CatalogError(described, .unavailable))
        case .deadline, .connection, .overLimit: return .retry(described, after: nil)
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
