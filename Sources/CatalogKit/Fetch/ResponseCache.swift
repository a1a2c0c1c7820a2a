import Foundation

/// An on-disk response cache: one file per URL (a line of JSON metadata, then the body), written atomically.
public struct ResponseCache: Sendable {
    public let directory: URL

    /// The file for a URL: a 64-bit FNV-1a hash of it; the URL inside is checked on read.
    func file(for url: String) -> URL {
        directory.appendingPathComponent(FNV1a.hex(FNV1a.hash(url.utf8)) + ".entry")
    }

    /// The metadata line before an entry's body.
    private struct Meta: Codable {
        var url: String
        var status: Int
        var length: Int
        var contentType: String?
        var etag: String?
        var lastModified: String?
    }

    /// The entry for `url`: the body with the validators a conditional request sends back.
    func load(_ url: URL) -> FetchedPage? {
        let key = url.absoluteString
        guard let data = try? FileBytes.read(file(for: key), limit: FileBytes.Limit.page), let newline = data.firstIndex(of: 0x0A),
              let meta = try? JSONFile.decode(Meta.self, from: data[..<newline]),
              meta.url == key, data.count - newline - 1 == meta.length else { return nil }
        return FetchedPage(url: url, finalURL: url, status: meta.status, contentType: meta.contentType,
                           etag: meta.etag, lastModified: meta.lastModified, body: Array(data[(newline + 1)...]))
    }

    /// Keeps a page as the entry for the URL it was asked for.
    func store(_ page: FetchedPage) throws {
        let key = page.url.absoluteString
        let meta = Meta(url: key, status: page.status, length: page.body.count, contentType: page.contentType, etag: page.etag,
                        lastModified: page.lastModified)
        try AtomicFile.write(JSONFile.encoded(meta, pretty: false) + [0x0A] + page.body, to: file(for: key), durable: false)
    }
}
