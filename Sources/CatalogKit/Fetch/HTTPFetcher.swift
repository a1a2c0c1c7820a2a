import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fetches pages over HTTP politely (bounded, paced, to allowed origins) and persistently (retries, a response cache).
public final class HTTPFetcher: PageSource {
    public let settings: FetchSettings
    private let session: URLSession
    private let delegate: SessionDelegate
    private let gate: ConcurrencyGate
    private let cache: ResponseCache?
    private let allowedOrigins: Set<Origin>
    public var retries: Int { retryCount.withLock { $0 } }
    private let retryCount = Mutex(0)
    private let redirectVetter = Mutex<(@Sendable (URL) async -> String?)?>(nil)

    /// - Parameter startURLs: their origins are allowed besides those `settings.allowedHosts` names.
    /// - Parameter gate: one shared with the fetchers of other catalogs on the same hosts, so the delay holds between
    ///   their requests too (`ShardRun`); by default the fetcher's own.
    public convenience init(settings: FetchSettings, startURLs: [URL] = []) {
        self.init(settings: settings, startURLs: startURLs, gate: ConcurrencyGate(settings: settings))
    }

    init(settings: FetchSettings, startURLs: [URL], gate: ConcurrencyGate) {
        self.settings = settings
        (session, delegate) = SessionDelegate.session(maximumRedirects: settings.maximumRedirects,
                                                      timeoutSeconds: settings.requestTimeoutSeconds,
                                                      connectionsPerHost: settings.perHostConcurrency,
                                                      userAgent: settings.requestUserAgent)
        allowedOrigins = Set(startURLs.compactMap(Origin.init) + settings.allowedHosts.flatMap { Origin.allowed(by: $0) ?? [] })
        self.gate = gate
        cache = settings.cacheDirectory.map(ResponseCache.init(directory:))
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Whether an origin may be fetched: among the allowed origins when any are set.
    func allows(_ origin: Origin) -> Bool {
        allowedOrigins.isEmpty || allowedOrigins.contains(origin)
    }

    public func vetRedirects(with vetter: @escaping @Sendable (URL) async -> String?) {
        redirectVetter.withLock { $0 = vetter }
    }

    public func setMinimumDelay(_ seconds: Double, for host: String) async {
        await gate.setDelay(seconds, for: host.lowercased())
    }

    /// RFC 9110 asks that URLs of 8,000 octets be supported; libcurl fails a much longer one as "out of memory",
    /// which read as an outage on every run.
    static let maximumURLBytes = 8 << 10

    public func refusal(for url: URL) -> String? {
        let length = url.absoluteString.utf8.count
        guard length <= Self.maximumURLBytes else { return "a URL of \(length) bytes, longer than \(Self.maximumURLBytes); not requested" }
        guard let origin = Origin(url) else { return "\(url.absoluteString) is not an http or https URL (\(Origin.rule))" }
        return allows(origin) ? nil : "origin \(origin) is not among the allowed origins"
    }

    public func fetch(_ url: URL) async -> Result<FetchedPage, FetchFailure> {
        await fetch(url, redirectsLeft: settings.maximumRedirects)
    }

    private func fetch(_ url: URL, redirectsLeft: Int) async -> Result<FetchedPage, FetchFailure> {
        let host = url.host?.lowercased() ?? ""
        if let refusal = refusal(for: url) { return .failure(FetchFailure(url: url, reason: refusal)) }
        let strikes = FlightLog.current?.strikes(for: url) ?? 0
        if strikes >= 2 {
            let reason = "the connection ended after the status line, twice, and FoundationNetworking stopped gvingest each time "
                + "(swift-corelibs-foundation issue 5285); not fetched again this run"
            return .failure(FetchFailure(url: url, reason: reason, temporary: true))
        }
        let cached = cache?.load(url)
        var attempt = 0
        while true {
            attempt += 1
            if attempt > 1 { retryCount.withLock { $0 += 1 } }
            if Task.isCancelled { return .failure(Self.cancelled(url)) }
            // A URL in flight at a crash goes alone, so that a second crash is its own.
            await gate.acquire(host: host, alone: strikes > 0)
            await gate.waitForTurn(host: host)
            // The crawl's deadline may have passed while this request waited for its turn.
            let outcome = Task.isCancelled ? .fail(Self.cancelled(url)) : await flight(url) { await perform(url, cached: cached) }
            await gate.release(host: host, alone: strikes > 0)
            switch outcome {
            case let .redirect(target, status):
                return await follow(url, to: target, status: status, redirectsLeft: redirectsLeft)
            case var .page(page):
                if page.notModified, let cached {
                    page.body = cached.body
                    page.contentType = page.contentType ?? cached.contentType
                    page.status = cached.status
                } else if let cache, (200..<300).contains(page.status), page.etag != nil || page.lastModified != nil {
                    try? cache.store(page)
                }
                return .success(page)
            case .retry(var failure, let retryAfter):
                guard attempt < settings.maximumAttempts else {
                    failure.reason += " (gave up after \(attempt) attempt\(attempt == 1 ? "" : "s"))"
                    return .failure(failure)
                }
                // Cancelled at the crawl's deadline, this sleep ends at once, however long the server asked for.
                let wait = backoff(attempt: attempt, retryAfter: retryAfter)
                try? await Task.sleep(nanoseconds: RetryAfter.nanoseconds(wait))
            case let .fail(failure):
                return .failure(failure)
            }
        }
    }

    private func flight(_ url: URL, _ request: () async -> Outcome) async -> Outcome {
        guard let log = FlightLog.current else { return await request() }
        return await log.flight(url, request)
    }

    func backoff(attempt: Int, retryAfter: Double?) -> Double {
        RetryAfter.backoff(attempt: attempt, base: Double(settings.backoffBaseMilliseconds) / 1000,
                           maximum: Double(settings.backoffMaximumMilliseconds) / 1000,
                           retryAfter: retryAfter, retryAfterMaximum: Double(settings.retryAfterMaximumSeconds))
    }

    /// A redirect to another allowed origin: asks the vetter, then fetches it with one redirect fewer left.
    private func follow(_ url: URL, to target: URL, status: Int, redirectsLeft: Int) async -> Result<FetchedPage, FetchFailure> {
        guard redirectsLeft > 0 else {
            let reason = "more than \(settings.maximumRedirects) redirects (a redirect loop?); last to \(target.absoluteString)"
            return .failure(FetchFailure(url: url, reason: reason, status: status))
        }
        if let vetter = redirectVetter.withLock({ $0 }), let objection = await vetter(target) {
            return .failure(FetchFailure(url: url, reason: "redirect to \(target.absoluteString) refused: \(objection)", status: status))
        }
        switch await fetch(target, redirectsLeft: redirectsLeft - 1) {
        case var .success(page):
            page.url = url
            return .success(page)
        case var .failure(failure):
            failure.url = url
            failure.reason = "redirected to \(target.absoluteString): \(failure.reason)"
            return .failure(failure)
        }
    }

    static func cancelled(_ url: URL) -> FetchFailure {
        FetchFailure(url: url, reason: "cancelled (crawl deadline)", temporary: true)
    }

    enum Outcome {
        case page(FetchedPage)
        case redirect(URL, status: Int)
        case retry(FetchFailure, retryAfter: Double? = nil)
        case fail(FetchFailure)
    }

    private func perform(_ url: URL, cached: FetchedPage?) async -> Outcome {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData,
                                 timeoutInterval: TimeInterval(max(1, settings.requestTimeoutSeconds)))
        request.setValue(settings.requestUserAgent, forHTTPHeaderField: "User-Agent")
        request.setValue(cached?.etag, forHTTPHeaderField: "If-None-Match")
        request.setValue(cached?.lastModified, forHTTPHeaderField: "If-Modified-Since")
        // robots.txt has a limit of its own (RFC 9309 asks to read at least 500 KiB).
        let limit = url.path == "/robots.txt" ? min(settings.maximumBodyBytes, RobotsPolicy.maximumBytes) : settings.maximumBodyBytes
        let deadline = DispatchTime.now() + .seconds(max(1, settings.requestTimeoutSeconds))
        let raw = await delegate.run(request, in: session, limits: (limit, deadline, { [self] in allows($0) }))
        if let refused = raw.refusedRedirect {
            return .fail(FetchFailure(url: url, reason: refused, status: raw.response?.statusCode))
        }
        if let target = raw.redirectToOrigin { return .redirect(target, status: raw.response?.statusCode ?? 302) }
        if raw.overLimit {
            let reason = "body larger than \(limit) bytes; cut off"
            return .fail(FetchFailure(url: url, reason: reason, status: raw.response?.statusCode))
        }
        if raw.timedOut {
            let reason = "timed out after \(settings.requestTimeoutSeconds) s (the request's wall-clock deadline)"
            return .retry(FetchFailure(url: url, reason: reason, status: raw.response?.statusCode, temporary: true))
        }
        if let error = raw.error {
            if (error as? URLError)?.code == .cancelled, Task.isCancelled { return .fail(Self.cancelled(url)) }
            let reason = ConnectionFailure.describe(error, url: url, timeoutSeconds: settings.requestTimeoutSeconds)
            return .retry(FetchFailure(url: url, reason: reason, temporary: true))
        }
        guard let response = raw.response else {
            return .retry(FetchFailure(url: url, reason: "no response", temporary: true))
        }
        let status = response.statusCode
        let header = { (name: String) in response.value(forHTTPHeaderField: name) }
        if status == 304, cached == nil {
            let reason = "HTTP 304 Not Modified to a request that was not conditional (nothing is cached for it)"
            return .retry(FetchFailure(url: url, reason: reason, status: status))
        }
        if status == 304 {
            return .page(FetchedPage(url: url, finalURL: response.url ?? url, status: 304, contentType: header("Content-Type"),
                                     etag: header("ETag") ?? cached?.etag, lastModified: header("Last-Modified") ?? cached?.lastModified,
                                     body: [], notModified: true))
        }
        if status == 408 || status == 429 || (500..<600).contains(status) {
            // Clamped to a day as it is read, then to retryAfterMaxSeconds: no header can overflow a sleep.
            let retryAfter = header("Retry-After").flatMap { RetryAfter.seconds(from: $0) }
            return .retry(FetchFailure(url: url, reason: "HTTP \(status)", status: status, temporary: true),
                          retryAfter: retryAfter)
        }
        if (300..<400).contains(status) {
            let reason = "HTTP \(status): too many redirects (limit \(settings.maximumRedirects))"
            return .fail(FetchFailure(url: url, reason: reason, status: status))
        }
        guard (200..<300).contains(status) else {
            return .fail(FetchFailure(url: url, reason: "HTTP \(status)", status: status))
        }
        // Content-Length counts the bytes on the wire: only an uncompressed body can be checked against it.
        let encoding = header("Content-Encoding")?.lowercased() ?? "identity"
        if encoding == "identity", let length = header("Content-Length").flatMap(Int.init), length != raw.body.count {
            let reason = "truncated body: \(raw.body.count) of \(length) bytes"
            return .retry(FetchFailure(url: url, reason: reason, status: status, temporary: true))
        }
        return .page(FetchedPage(url: url, finalURL: response.url ?? url, status: status, contentType: header("Content-Type"),
                                 etag: header("ETag"), lastModified: header("Last-Modified"), body: raw.body))
    }
}

/// Reads a Retry-After header: delay-seconds or an HTTP-date.
public enum RetryAfter {
    /// No wait asked for is longer than a day, clamped before any arithmetic so that "1e300" cannot overflow a sleep.
    public static let longest = 86_400.0

    /// Full jitter: a wait drawn below a cap doubling from `base` to `maximum` seconds; a server's Retry-After
    /// (at most `retryAfterMaximum`) is a floor.
    static func backoff(attempt: Int, base: Double, maximum: Double, retryAfter: Double?, retryAfterMaximum: Double) -> Double {
        let jitter = Double.random(in: 0...max(0, min(maximum, base * pow(2, Double(attempt - 1)))))
        guard let retryAfter else { return jitter }
        return min(retryAfterMaximum, max(0, retryAfter)) + jitter / 10
    }

    /// Seconds as the nanoseconds `Task.sleep` takes: no wait is longer than `longest`, whatever asked for it.
    static func nanoseconds(_ seconds: Double) -> UInt64 {
        seconds > 0 ? UInt64(min(seconds, longest) * 1_000_000_000) : 0
    }

    public static func seconds(from value: String, now: Date = Date()) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        // RFC 9110: delay-seconds is digits only; a longer run of them than a day's worth is a day.
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            return trimmed.count > 6 ? longest : min(longest, Double(trimmed) ?? longest)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: trimmed) { return min(longest, max(0, date.timeIntervalSince(now))) }
        }
        return nil
    }
}

/// Bounds requests in flight, in total and per host (waiters served in arrival order), and spaces one host's starts.
actor ConcurrencyGate {
    private let total: Int
    private let perHost: Int
    private var inFlight = 0
    private var perHostInFlight: [String: Int] = [:]
    private var waiters: [(host: String, alone: Bool, continuation: CheckedContinuation<Void, Never>)] = []
    /// The least time between the starts of two requests to one host, and each host's own when robots.txt asks more.
    private let minimumDelay: Double
    private var delays: [String: Double] = [:]
    private var nextStart: [String: Double] = [:]

    /// The delay runs from the end of a host's previous response rather than from its start. With one request per host
    /// at a time, the server then sees the spacing however long a request was held up on its way (`ShardRun`).
    private let spacedFromResponses: Bool

    /// The bounds and the delay `settings` give; `spacedFromResponses`: one request per host, spaced from responses.
    init(settings: FetchSettings, spacedFromResponses: Bool = false) {
        self.init(total: max(1, settings.concurrency), perHost: spacedFromResponses ? 1 : max(1, settings.perHostConcurrency),
                  minimumDelay: Double(settings.minimumDelayMilliseconds) / 1000, spacedFromResponses: spacedFromResponses)
    }

    init(total: Int, perHost: Int, minimumDelay: Double = 0, spacedFromResponses: Bool = false) {
        self.total = total
        self.perHost = perHost
        self.minimumDelay = minimumDelay
        self.spacedFromResponses = spacedFromResponses
    }

    /// `alone`: waits until nothing is in flight, and holds every place while it runs.
    func acquire(host: String, alone: Bool = false) async {
        if !waiters.contains(where: \.alone), start(host, alone: alone) { return }
        await withCheckedContinuation { waiters.append((host, alone, $0)) }
    }

    func release(host: String, alone: Bool = false) {
        if spacedFromResponses {
            let delay = delays[host] ?? minimumDelay
            nextStart[host] = max(nextStart[host] ?? 0, ProcessInfo.processInfo.systemUptime + delay)
        }
        inFlight -= alone ? total : 1
        perHostInFlight[host, default: 1] -= 1
        let waiting = waiters
        waiters = []
        for waiter in waiting {
            // Who waits alone is not overtaken: it would wait for as long as others keep coming.
            if !waiters.contains(where: \.alone), start(waiter.host, alone: waiter.alone) {
                waiter.continuation.resume()
            } else {
                waiters.append(waiter)
            }
        }
    }

    /// Counts a request to `host` as started, when the bounds leave room for it.
    private func start(_ host: String, alone: Bool) -> Bool {
        guard alone ? inFlight == 0 : inFlight < total && perHostInFlight[host, default: 0] < perHost else { return false }
        inFlight += alone ? total : 1
        perHostInFlight[host, default: 0] += 1
        return true
    }

    func setDelay(_ seconds: Double, for host: String) {
        delays[host] = max(minimumDelay, seconds)
    }

    func waitForTurn(host: String) async {
        let delay = delays[host] ?? minimumDelay
        guard delay > 0 else { return }
        let now = ProcessInfo.processInfo.systemUptime
        let start = max(now, nextStart[host] ?? now)
        nextStart[host] = start + delay
        // A robots.txt may ask for any Crawl-delay ("1e300"): the wait is clamped, and cancelled at the crawl's deadline.
        if start > now { try? await Task.sleep(nanoseconds: RetryAfter.nanoseconds(start - now)) }
    }
}
