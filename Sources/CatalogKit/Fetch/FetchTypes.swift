import Foundation

/// A page as fetched: what the server (or the cache, or a mirror) answered.
public struct FetchedPage: Sendable, Equatable {
    /// The URL asked for.
    public var url: URL
    /// Where the answer came from after redirects.
    public var finalURL: URL
    public var status: Int
    public var contentType: String?
    public var etag: String?
    public var lastModified: String?
    public var body: [UInt8]
    /// The server answered 304 and the cached body was reused.
    public var notModified = false
}

/// Why a page could not be had, after every retry it deserved.
public struct FetchFailure: Error, Sendable, Equatable {
    public var url: URL
    public var reason: String
    /// The last HTTP status, when there was one.
    public var status: Int?
    /// Whether running again later might succeed (timeouts, 5xx, 429) rather than not (404, refused redirect).
    public var temporary = false
}

/// Anything that yields pages by URL: the network, a recorded mirror.
public protocol PageSource: Sendable {
    func fetch(_ url: URL) async -> Result<FetchedPage, FetchFailure>
    /// Why a URL will not be fetched at all (a host that is not allowed), or nil.
    func refusal(for url: URL) -> String?
    /// Retries made so far (first attempts not counted).
    var retries: Int { get }
    /// Slows the requests to one host further (a robots.txt Crawl-delay).
    func setMinimumDelay(_ seconds: Double, for host: String) async
    /// Asks `vetter` before following a redirect to another origin (its robots.txt); its answer is why not, or nil.
    func vetRedirects(with vetter: @escaping @Sendable (URL) async -> String?)
}

/// Sources that are not the web refuse nothing, retry nothing and need no pacing.
extension PageSource {
    public func refusal(for url: URL) -> String? { nil }
    public var retries: Int { 0 }
    public func setMinimumDelay(_ seconds: Double, for host: String) async {}
    public func vetRedirects(with vetter: @escaping @Sendable (URL) async -> String?) {}
}
