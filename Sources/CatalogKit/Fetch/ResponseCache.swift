import Foundation

/// An on-disk response cache: one file per URL (a line of JSON metadata, then the body), written atomically.
public struct ResponseCache: Sendable {
    public let directory: URL

    /// The file for a URL: a 64-bit FNV-1a hash of it; the URL inside is checked on read.
    func file(for url: String) -> URL {
        directory.appendingPathComponent(FNV1a.hex(FNV1a.hash(url.utf8)) + ".entry")
    }

    /// The entry for `url`: the body with the validators a conditional request sends back.
    func load(_ url: URL) -> FetchedPage? {
        let key = url.absoluteString
        guard let data = try? Data(contentsOf: file(for: key)), let newline = data.firstIndex(of: 0x0A),
              let meta = try? JSONValue.parse(data[data.startIndex..<newline]),
              meta["url"]?.stringValue == key,
              case let .int(status)? = meta["status"], case let .int(length)? = meta["length"],
              data.count - newline - 1 == length else { return nil }
        return FetchedPage(url: url, finalURL: url, status: status, contentType: meta["contentType"]?.stringValue,
                           etag: meta["etag"]?.stringValue, lastModified: meta["lastModified"]?.stringValue,
                           body: Array(data[(newline + 1)...]))
    }

    /// Keeps a page as the entry for the URL it was asked for.
    func store(_ page: FetchedPage) throws {
        let key = page.url.absoluteString
        let meta = JSONValue.object([
            "url": .string(key), "status": .int(page.status), "length": .int(page.body.count),
            "contentType": .from(page.contentType, JSONValue.string), "etag": .from(page.etag, JSONValue.string),
            "lastModified": .from(page.lastModified, JSONValue.string),
        ])
        let bytes = Array(meta.serialized(pretty: false).utf8) + [0x0A] + page.body
        try AtomicFile.write(Data(bytes), to: file(for: key), durable: false)
    }
}
