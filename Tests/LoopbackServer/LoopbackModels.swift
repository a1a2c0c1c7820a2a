import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A canned HTTP response body plus the metadata a crawler keys its caching on.
public struct Resource: Sendable, Equatable, ExpressibleByStringLiteral {
    /// The Content-Type used when none is given, because gvingest mostly fetches HTML pages.
    public static let defaultContentType = "text/html; charset=utf-8"

    /// The exact bytes sent as the response body.
    public var body: Data
    /// The Content-Type header value; `nil` sends no Content-Type header at all.
    public var contentType: String?
    /// The ETag header value, quotes included (e.g. `"\"v1\""`); enables If-None-Match handling.
    public var etag: String?
    /// The Last-Modified header value as an HTTP-date; enables If-Modified-Since handling.
    public var lastModified: String?
    /// Extra response headers sent verbatim, e.g. Cache-Control.
    public var headers: [String: String]

    /// Creates a resource from raw bytes.
    public init(
        body: Data,
        contentType: String? = Resource.defaultContentType,
        etag: String? = nil,
        lastModified: String? = nil,
        headers: [String: String] = [:]
    ) {
        self.body = body
        self.contentType = contentType
        self.etag = etag
        self.lastModified = lastModified
        self.headers = headers
    }

    /// Creates a resource whose body is the UTF-8 encoding of `text`.
    public init(
        _ text: String,
        contentType: String? = Resource.defaultContentType,
        etag: String? = nil,
        lastModified: String? = nil,
        headers: [String: String] = [:]
    ) {
        self.init(body: Data(text.utf8), contentType: contentType, etag: etag,
                  lastModified: lastModified, headers: headers)
    }

    /// Creates an HTML resource from a string literal, so tables read like `server["/"] = "<html>…"`.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// Formats `date` as an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) for Last-Modified or Retry-After.
    public static func httpDate(_ date: Date) -> String {
        HTTPDate.format(epochSeconds: Int64(date.timeIntervalSince1970.rounded(.down)))
    }
}

/// A misbehaviour injected into the responses for one path.
///
/// Faults with a `times` count fire on that many requests and then disappear, so a test can
/// model "fails twice, then recovers". When several counted faults are configured for a path,
/// the first one (in the order given) that still has requests left fires; the others wait.
/// Pass `.max` as `times` for a permanent fault.
public enum Fault: Sendable, Equatable {
    /// Waits this long before answering each request; only the request's own connection waits.
    case latency(seconds: Double)
    /// Waits this long before a response with a body, but answers a 304 at once: the time a server
    /// takes to render a page, which a conditional request that matches does not pay.
    case renderLatency(seconds: Double)
    /// Answers with this status code (small text/plain body) for the next `times` requests.
    case status(Int, times: Int)
    /// Answers with this status and JSON body (an API's error, such as Discord's 429 with `retry_after`), `times` times.
    case reply(status: Int, json: String, times: Int)
    /// Answers 429 with this Retry-After value (delta-seconds or HTTP-date) for the next `times` requests.
    case tooManyRequests(retryAfter: String, times: Int)
    /// Closes the connection with a TCP RST and no response for the next `times` requests.
    case reset(times: Int)
    /// Sends the full Content-Length but only the first half of the body, then closes, `times` times.
    case truncated(times: Int)
    /// Sends the status line alone ("HTTP/1.1 200 OK") and closes, `times` times: what stops FoundationNetworking
    /// with "Transfer completed, but there's no response" (swift-corelibs-foundation issue 5285).
    case statusLineThenClose(times: Int)
    /// Sends the body in chunks of `bytesPerChunk` bytes with `interval` seconds between them.
    case slowDrip(bytesPerChunk: Int, interval: Double)
    /// Answers with a redirect (301, 302, 303, 307 or 308) whose Location is `to`, sent verbatim.
    ///
    /// The server never follows or resolves it, so foreign hosts such as `http://example.invalid/`
    /// are safe to use; only a client that follows the redirect would leave 127.0.0.1.
    case redirect(to: String, status: Int = 302)
    /// Answers 200 with a generated body of exactly `bytes` bytes instead of the stored resource.
    case oversized(bytes: Int)
    /// Replaces the named response header with `value`, or removes it when `value` is `nil`.
    case header(name: String, value: String?)
    /// Sends the status line and headers one byte every `interval` seconds, then the response as usual.
    case headerDrip(interval: Double)
    /// Answers 200 with no Content-Length and a body of filler that never ends: the connection stays open
    /// until the client hangs up or the server stops.
    case endlessBody
    /// Answers 200 with `Content-Encoding: gzip` and a deflate stream that inflates to at least `inflatedBytes`
    /// of spaces at about 159 times its size on the wire, sent as fast as the client reads; the stream is not
    /// finished (a client that inflates it all sees it cut off). Pass `.max` for a stream without end.
    case gzipBomb(inflatedBytes: Int)

    /// Overrides the Content-Type header, e.g. a wrong charset; `nil` removes the header.
    public static func contentType(_ value: String?) -> Fault {
        .header(name: "Content-Type", value: value)
    }
}

/// One request as the server parsed it, kept so tests can assert on what the crawler sent.
public struct RecordedRequest: Sendable, Equatable {
    /// The request method, e.g. `GET`.
    public let method: String
    /// The request target in origin form, query string included (e.g. `/list?page=2`).
    public let path: String
    /// The protocol version from the request line, e.g. `HTTP/1.1`.
    public let version: String
    /// The request headers keyed by lower-cased name; repeated headers are joined with ", ".
    public let headers: [String: String]
    /// When the request finished arriving.
    public let time: Date
    /// Which accepted connection carried the request, numbered from 1 in accept order.
    public let connectionID: Int
    /// The request's body (a webhook's payload).
    public var body: [UInt8] = []
}

/// A socket call that failed while the server was being set up.
public struct LoopbackServerError: Error, CustomStringConvertible {
    /// The failing system call.
    public let operation: String
    /// The `errno` it left behind.
    public let code: Int32

    /// A human-readable description including the errno text.
    public var description: String {
        "\(operation) failed: \(String(cString: strerror(code))) (errno \(code))"
    }
}
