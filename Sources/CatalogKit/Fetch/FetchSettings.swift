import Foundation

/// How politely and how hard the crawler fetches: `pipeline.json`'s `fetch` section.
public struct FetchSettings: Sendable, Equatable {
    /// Requests in flight at once, over all hosts.
    public var concurrency = 8
    /// Requests in flight at once to one host.
    public var perHostConcurrency = 4
    /// The least time between the starts of two requests to one host (milliseconds).
    public var minimumDelayMilliseconds = 250
    /// How gvingest names itself to servers, as configured; `requestUserAgent` is what is sent.
    public var userAgent = "\(GVIngestVersion.product) (+https://github.com/gvcourse/gvingest; catalog-bot@gvcourse.app)"
    /// One request's timeout, whole seconds (URLSession takes no finer value).
    public var requestTimeoutSeconds = 30
    /// The whole crawl's deadline; what is not fetched by then is recorded as failed.
    public var deadlineSeconds = 1800
    /// A body larger than this is cut off and recorded as an error.
    public var maximumBodyBytes = 10 << 20
    /// Hosts that may be fetched and redirected to; empty means the hosts of the start URLs.
    public var allowedHosts: [String] = []
    public var maximumRedirects = 5
    /// Attempts per URL, the first included.
    public var maximumAttempts = 4
    /// Exponential backoff: the cap doubles from this base on each attempt, and the wait is drawn below it.
    public var backoffBaseMilliseconds = 500
    public var backoffMaximumMilliseconds = 30_000
    /// A server's Retry-After is honoured up to this many seconds.
    public var retryAfterMaximumSeconds = 120
    /// The on-disk response cache for conditional re-fetches; nil: no cache.
    public var cacheDirectory: URL?
    /// Ignore robots.txt (a warning is printed when set).
    public var ignoreRobots = false
    /// What catalogs must not be crawled at once share (`ShardPlan`): their host, or their registered domain.
    public var politeness = Politeness.host
    /// A shard's politeness keys crawled side by side (`gvingest run --shard`).
    public var maximumConcurrentHosts = 4

    /// What two catalogs share when they must not be crawled at once.
    public enum Politeness: String, Sendable, CaseIterable {
        /// The same host and port.
        case host
        /// The same registered domain (`a.catalog.acalog.com` and `b.catalog.acalog.com` share `acalog.com`).
        case registeredDomain
    }

    public init() {}

    /// The User-Agent of every request (fetch, Firestore, announce): the configured one with gvingest's version.
    public var requestUserAgent: String { GVIngestVersion.userAgent(userAgent) }

    /// Each integer setting's key in `pipeline.json` and its bounds: beyond any sensible crawl, clear of overflow.
    public static var ranges: [(key: String, keyPath: WritableKeyPath<FetchSettings, Int>, range: ClosedRange<Int>)] { [
        ("concurrency", \.concurrency, 1...256), ("perHostConcurrency", \.perHostConcurrency, 1...64),
        ("minimumDelayMs", \.minimumDelayMilliseconds, 0...60_000), ("requestTimeoutSeconds", \.requestTimeoutSeconds, 1...600),
        ("deadlineSeconds", \.deadlineSeconds, 1...86_400), ("maxBodyBytes", \.maximumBodyBytes, 1024...(256 << 20)),
        ("maxRedirects", \.maximumRedirects, 0...20), ("maxAttempts", \.maximumAttempts, 1...10),
        ("backoffBaseMs", \.backoffBaseMilliseconds, 0...60_000), ("backoffMaxMs", \.backoffMaximumMilliseconds, 0...600_000),
        ("retryAfterMaxSeconds", \.retryAfterMaximumSeconds, 0...3_600), ("maxConcurrentHosts", \.maximumConcurrentHosts, 1...256),
    ] }
}

extension FetchSettings: ConfigDecodable {
    init(config: ConfigValue) throws {
        let object = try config.object(allowing: Self.ranges.map(\.key) + ["userAgent", "allowedHosts", "cacheDirectory", "ignoreRobots",
                                                                     "politeness"])
        self.init()
        for (key, keyPath, range) in Self.ranges {
            if let value = object[key]?.integer(in: range) { self[keyPath: keyPath] = value }
        }
        userAgent = object["userAgent"]?.string() ?? userAgent
        allowedHosts = object["allowedHosts"]?.elements {
            $0.string { Origin.allowed(by: $0) != nil ? nil
                : "expected a host, host:port or an http(s) origin such as https://host:8443, got \"\($0)\"" }
        } ?? []
        cacheDirectory = object["cacheDirectory"]?.confinedPath()
        ignoreRobots = object["ignoreRobots"]?.bool() ?? ignoreRobots
        politeness = object["politeness"]?.choice(Politeness.self) ?? politeness
    }
}
