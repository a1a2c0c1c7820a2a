import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fetches pages over HTTP politely and persistently: bounded concurrency in total and per host, a
/// minimum delay between requests to one host, retries with exponential backoff and full jitter
/// honouring Retry-After, a body size limit, allowed hosts for redirects, and conditional requests
/// against an on-disk cache.
///
/// One long-lived URLSession serves the whole process: short-lived sessions crash on Linux.
public final class HTTPFetcher: PageSource {
    public let settings: FetchSettings
    private let session: URLSession
    private let delegate: SessionDelegate
    private let gate: ConcurrencyGate
    private let pacer: HostPacer
    private let cache: ResponseCache?
    private let allowedHosts: Set<String>
    /// Retries made so far (not counting first attempts), for the crawl's summary.
    public var retries: Int { counters.retries }
    private let counters = Counters()

    /// - Parameter hosts: hosts allowed besides `settings.allowedHosts` (the start URLs' hosts).
    public init(settings: FetchSettings, hosts: [String] = []) {
        self.settings = settings
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpAdditionalHeaders = ["User-Agent": settings.userAgent]
        configuration.timeoutIntervalForRequest = TimeInterval(settings.requestTimeoutSeconds)
        configuration.httpMaximumConnectionsPerHost = max(1, settings.perHostConcurrency)
        allowedHosts = Set((settings.allowedHosts + hosts).map { $0.lowercased() })
        delegate = SessionDelegate(maximumBodyBytes: settings.maximumBodyBytes, maximumRedirects: settings.maximumRedirects)
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        gate = ConcurrencyGate(total: max(1, settings.concurrency), perHost: max(1, settings.perHostConcurrency))
        pacer = HostPacer(minimumDelay: Double(settings.minimumDelayMilliseconds) / 1000)
        cache = settings.cacheDirectory.map(ResponseCache.init(directory:))
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Whether a host may be fetched.
    public func allows(host: String?) -> Bool {
        guard let host = host?.lowercased() else { return false }
        return allowedHosts.isEmpty || allowedHosts.contains(host)
    }

    /// A crawl-delay from robots.txt slows one host's pacing further.
    public func setMinimumDelay(_ seconds: Double, for host: String) async {
        await pacer.setDelay(seconds, for: host.lowercased())
    }

    public func refusal(for url: URL) -> String? {
        allows(host: url.host) ? nil : "host \(url.host?.lowercased() ?? "(none)") is not among the allowed hosts"
    }

    public func fetch(_ url: URL) async -> Result<FetchedPage, FetchFailure> {
        let host = url.host?.lowercased() ?? ""
        if let refusal = refusal(for: url) {
            return .failure(FetchFailure(url: url, reason: refusal, status: nil, attempts: 0, temporary: false))
        }
        let cached = cache?.load(url.absoluteString)
        var attempt = 0
        var lastFailure: FetchFailure?
        while attempt < max(1, settings.maximumAttempts) {
            attempt += 1
            if attempt > 1 { counters.addRetry() }
            if Task.isCancelled {
                return .failure(FetchFailure(url: url, reason: "cancelled (crawl deadline)", status: nil, attempts: attempt - 1, temporary: true))
            }
            await gate.acquire(host: host)
            await pacer.waitForTurn(host: host)
            let outcome = await perform(url, cached: cached)
            await gate.release(host: host)
            switch outcome {
            case let .page(page):
                var page = page
                page.attempts = attempt
                if page.notModified, let cached {
                    page.body = cached.body
                    page.contentType = page.contentType ?? cached.contentType
                    page.status = cached.status
                } else if let cache, (200..<300).contains(page.status), page.etag != nil || page.lastModified != nil {
                    try? cache.store(CachedResponse(url: url.absoluteString, status: page.status, contentType: page.contentType,
                                                    etag: page.etag, lastModified: page.lastModified, body: page.body))
                }
                return .success(page)
            case let .retry(failure, retryAfter):
                lastFailure = failure
                guard attempt < settings.maximumAttempts else { break }
                let wait = backoff(attempt: attempt, retryAfter: retryAfter)
                try? await Task.sleep(nanoseconds: UInt64(wait * 1_000_000_000))
            case let .fail(failure):
                var failure = failure
                failure.attempts = attempt
                return .failure(failure)
            }
        }
        var failure = lastFailure ?? FetchFailure(url: url, reason: "no attempt made", status: nil, attempts: 0, temporary: true)
        failure.attempts = attempt
        failure.reason += " (gave up after \(attempt) attempt\(attempt == 1 ? "" : "s"))"
        return .failure(failure)
    }

    /// Full jitter: a wait drawn uniformly below an exponentially growing cap; a server's Retry-After
    /// (capped) is a floor.
    func backoff(attempt: Int, retryAfter: Double?) -> Double {
        let cap = min(Double(settings.backoffMaximumMilliseconds), Double(settings.backoffBaseMilliseconds) * pow(2, Double(attempt - 1))) / 1000
        let jitter = Double.random(in: 0...max(0, cap))
        guard let retryAfter else { return jitter }
        return min(Double(settings.retryAfterMaximumSeconds), max(0, retryAfter)) + jitter / 10
    }

    enum Outcome {
        case page(FetchedPage)
        case retry(FetchFailure, retryAfter: Double?)
        case fail(FetchFailure)
    }

    private func perform(_ url: URL, cached: CachedResponse?) async -> Outcome {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData,
                                 timeoutInterval: TimeInterval(max(1, settings.requestTimeoutSeconds)))
        request.setValue(settings.userAgent, forHTTPHeaderField: "User-Agent")
        if let cached {
            if let etag = cached.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
            if let modified = cached.lastModified { request.setValue(modified, forHTTPHeaderField: "If-Modified-Since") }
        }
        let raw = await delegate.run(request, in: session, allowedHost: { [allowedHosts] host in
            guard let host = host?.lowercased() else { return false }
            return allowedHosts.isEmpty || allowedHosts.contains(host)
        })
        if let refused = raw.refusedRedirect {
            return .fail(FetchFailure(url: url, reason: refused, status: raw.response?.statusCode, attempts: 0, temporary: false))
        }
        if raw.overLimit {
            return .fail(FetchFailure(url: url, reason: "body larger than \(settings.maximumBodyBytes) bytes; cut off",
                                      status: raw.response?.statusCode, attempts: 0, temporary: false))
        }
        if let error = raw.error {
            let code = (error as? URLError)?.code
            let reason = ConnectionFailure.describe(error, url: url, timeoutSeconds: settings.requestTimeoutSeconds)
            if code == .cancelled, Task.isCancelled {
                return .fail(FetchFailure(url: url, reason: "cancelled (crawl deadline)", status: nil, attempts: 0, temporary: true))
            }
            return .retry(FetchFailure(url: url, reason: reason, status: nil, attempts: 0, temporary: true), retryAfter: nil)
        }
        guard let response = raw.response else {
            return .retry(FetchFailure(url: url, reason: "no response", status: nil, attempts: 0, temporary: true), retryAfter: nil)
        }
        let status = response.statusCode
        let header = { (name: String) in response.value(forHTTPHeaderField: name) }
        if status == 304, cached != nil {
            return .page(FetchedPage(url: url, finalURL: response.url ?? url, status: 304, contentType: header("Content-Type"),
                                     etag: header("ETag") ?? cached?.etag, lastModified: header("Last-Modified") ?? cached?.lastModified,
                                     body: [], notModified: true))
        }
        if status == 408 || status == 429 || (500..<600).contains(status) {
            let retryAfter = header("Retry-After").flatMap { RetryAfter.seconds(from: $0) }
            return .retry(FetchFailure(url: url, reason: "HTTP \(status)", status: status, attempts: 0, temporary: true),
                          retryAfter: retryAfter)
        }
        if (300..<400).contains(status) {
            return .fail(FetchFailure(url: url, reason: "HTTP \(status): too many redirects (limit \(settings.maximumRedirects))",
                                      status: status, attempts: 0, temporary: false))
        }
        guard (200..<300).contains(status) else {
            return .fail(FetchFailure(url: url, reason: "HTTP \(status)", status: status, attempts: 0, temporary: false))
        }
        // Content-Length counts the bytes on the wire: a compressed body is longer once URLSession has decoded
        // it, so only an uncompressed body can be checked against it.
        let encoding = header("Content-Encoding")?.lowercased() ?? "identity"
        if encoding == "identity", let length = header("Content-Length").flatMap(Int.init), length != raw.body.count {
            return .retry(FetchFailure(url: url, reason: "truncated body: \(raw.body.count) of \(length) bytes", status: status,
                                       attempts: 0, temporary: true), retryAfter: nil)
        }
        return .page(FetchedPage(url: url, finalURL: response.url ?? url, status: status, contentType: header("Content-Type"),
                                 etag: header("ETag"), lastModified: header("Last-Modified"), body: raw.body))
    }
}

/// Reads a Retry-After header: delay-seconds or an HTTP-date.
public enum RetryAfter {
    public static func seconds(from value: String, now: Date = Date()) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed), seconds >= 0 { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: trimmed) { return max(0, date.timeIntervalSince(now)) }
        }
        return nil
    }
}

/// Counts shared by concurrent fetches.
final class Counters: @unchecked Sendable {
    private let lock = NSLock()
    private var retryCount = 0

    var retries: Int { lock.withLock { retryCount } }

    func addRetry() { lock.withLock { retryCount += 1 } }
}

/// Bounds requests in flight, in total and per host. Waiters are served in arrival order.
actor ConcurrencyGate {
    private let total: Int
    private let perHost: Int
    private var inFlight = 0
    private var perHostInFlight: [String: Int] = [:]
    private var waiters: [(host: String, continuation: CheckedContinuation<Void, Never>)] = []

    init(total: Int, perHost: Int) {
        self.total = total
        self.perHost = perHost
    }

    func acquire(host: String) async {
        if canStart(host) {
            start(host)
            return
        }
        await withCheckedContinuation { waiters.append((host, $0)) }
    }

    func release(host: String) {
        inFlight -= 1
        perHostInFlight[host, default: 1] -= 1
        var index = 0
        while index < waiters.count {
            if canStart(waiters[index].host) {
                let waiter = waiters.remove(at: index)
                start(waiter.host)
                waiter.continuation.resume()
            } else {
                index += 1
            }
        }
    }

    private func canStart(_ host: String) -> Bool {
        inFlight < total && perHostInFlight[host, default: 0] < perHost
    }

    private func start(_ host: String) {
        inFlight += 1
        perHostInFlight[host, default: 0] += 1
    }
}

/// Spaces the starts of requests to one host by a minimum delay.
actor HostPacer {
    private let minimumDelay: Double
    private var delays: [String: Double] = [:]
    private var nextStart: [String: Double] = [:]

    init(minimumDelay: Double) {
        self.minimumDelay = minimumDelay
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
        if start > now { try? await Task.sleep(nanoseconds: UInt64((start - now) * 1_000_000_000)) }
    }
}
