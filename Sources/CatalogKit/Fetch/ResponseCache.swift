import Foundation

/// A cached response: the body with the validators a conditional request sends back.
public struct CachedResponse: Sendable, Equatable {
    public var url: String
    public var status: Int
    public var contentType: String?
    public var etag: String?
    public var lastModified: String?
    public var body: [UInt8]
}

/// An on-disk response cache: one file per URL (a line of JSON metadata, then the body as received), written
/// atomically, so a run killed mid-write leaves the old entry or the new one, never a torn one.
public struct ResponseCache: Sendable {
    public let directory: URL

    /// The file for a URL: a 64-bit FNV-1a hash of it; the URL inside is checked on read.
    func file(for url: String) -> URL {
        directory.appendingPathComponent(FNV1a.hex(FNV1a.hash(url.utf8)) + ".entry")
    }

    public func load(_ url: String) -> CachedResponse? {
        guard let data = try? Data(contentsOf: file(for: url)), let newline = data.firstIndex(of: 0x0A),
              let meta = try? JSONValue.parse(data[data.startIndex..<newline]),
              meta["url"]?.stringValue == url,
              case let .int(status)? = meta["status"], case let .int(length)? = meta["length"],
              data.count - newline - 1 == length else { return nil }
        return CachedResponse(url: url, status: status, contentType: meta["contentType"]?.stringValue,
                              etag: meta["etag"]?.stringValue, lastModified: meta["lastModified"]?.stringValue,
                              body: Array(data[(newline + 1)...]))
    }

    public func store(_ response: CachedResponse) throws {
        let meta = JSONValue.object([
            "url": .string(response.url), "status": .int(response.status), "length": .int(response.body.count),
            "contentType": .from(response.contentType, JSONValue.string), "etag": .from(response.etag, JSONValue.string),
            "lastModified": .from(response.lastModified, JSONValue.string),
        ])
        var bytes = Array(meta.serialized(pretty: false).utf8)
        bytes.append(0x0A)
        bytes.append(contentsOf: response.body)
        try AtomicFile.write(Data(bytes), to: file(for: response.url), durable: false)
    }
}
