import Foundation
import Synchronization

/// Puts URLs in one form so that the same page is fetched once.
public enum URLNormalizer {
    public static func normalize(_ url: URL) -> URL {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url }
        parts.scheme = parts.scheme?.lowercased()
        parts.host = parts.host?.lowercased()
        if let port = parts.port, port == parts.scheme.flatMap({ Origin.defaultPorts[$0] }) { parts.port = nil }
        parts.fragment = nil
        if parts.path.isEmpty { parts.path = "/" }
        parts.path = removeDotSegments(parts.path)
        return parts.url ?? url
    }

    static func removeDotSegments(_ path: String) -> String {
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            guard segment == "." || segment == ".." else {
                output.append(segment)
                continue
            }
            if segment == "..", output.count > 1 { output.removeLast() }
            if index == segments.count - 1 { output.append("") }
        }
        let joined = output.joined(separator: "/")
        return joined.hasPrefix("/") ? joined : "/" + joined
    }
}

/// A recorded crawl (`--record DIR`, `--replay DIR`): one file per URL, and `index.json` mapping URLs to them.
public struct MirrorIndex: Sendable, Equatable, Codable {
    public struct Entry: Sendable, Equatable, Codable {
        /// Relative to the mirror's directory.
        public var file: String
        public var status: Int
        public var contentType: String?
        public var etag: String?
        public var lastModified: String?
    }

    public static let fileName = "index.json"
    public var schemaVersion = 1
    public var pages: [String: Entry] = [:]
    /// Where the recorded crawl started; a replay with no start URLs of its own starts there.
    public var startURLs: [String] = []

    private enum CodingKeys: String, CodingKey { case schemaVersion, pages, startURLs = "startUrls" }

    public static func load(from directory: URL) throws(CatalogError) -> MirrorIndex {
        func unreadable(_ message: String) -> CatalogError { CatalogError(message, .missingInput) }
        let file = directory.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw CatalogError("\(directory.path): not a mirror: it has no \(fileName) (a mirror is what a recorded crawl writes)",
                               .missingInput, remedy: .recordMirror)
        }
        let index: MirrorIndex
        do {
            index = try JSONFile.decode(MirrorIndex.self, from: try FileBytes.read(file, limit: FileBytes.Limit.document))
        } catch let error as FileBytes.ReadError {
            throw unreadable("\(file.path): cannot read the mirror index: \(error)")
        } catch {
            let problem = "\(error)"
            throw unreadable("\(file.path): " + (problem.hasPrefix("not valid JSON") ? problem : "not a mirror index: \(problem)"))
        }
        for (url, entry) in index.pages where PipelineConfig.confinedPath(entry.file, base: directory) == nil {
            throw unreadable("\(file.path): pages[\"\(url)\"].file: expected a relative path inside the mirror")
        }
        return index
    }

    public func write(to directory: URL) throws {
        try AtomicFile.write(JSONFile.fileBytes(self), to: directory.appendingPathComponent(Self.fileName))
    }
}

// The decoders sit in extensions, which keeps the memberwise initializers.
extension MirrorIndex {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        pages = try container.decode([String: Entry].self, forKey: .pages)
        startURLs = try container.decodeIfPresent([String].self, forKey: .startURLs) ?? []
    }
}

extension MirrorIndex.Entry {
    /// A page recorded without a status was a 200.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        file = try container.decode(String.self, forKey: .file)
        status = try container.decodeIfPresent(Int.self, forKey: .status) ?? 200
        contentType = try container.decodeIfPresent(String.self, forKey: .contentType)
        etag = try container.decodeIfPresent(String.self, forKey: .etag)
        lastModified = try container.decodeIfPresent(String.self, forKey: .lastModified)
    }
}

/// Serves pages from a recorded mirror: no network at all.
public struct MirrorSource: PageSource {
    public let directory: URL
    public let index: MirrorIndex

    public init(directory: URL) throws(CatalogError) {
        self.directory = directory
        self.index = try MirrorIndex.load(from: directory)
    }

    public func fetch(_ url: URL) async -> Result<FetchedPage, FetchFailure> {
        let key = URLNormalizer.normalize(url).absoluteString
        guard let entry = index.pages[key] ?? index.pages[url.absoluteString] else {
            return .failure(FetchFailure(url: url, reason: "not in the mirror \(directory.path) (HTTP 404)", status: 404))
        }
        guard (200..<300).contains(entry.status) else {
            return .failure(FetchFailure(url: url, reason: "HTTP \(entry.status) (recorded)", status: entry.status))
        }
        let file = directory.appendingPathComponent(entry.file)
        // The index's paths are confined, but a page or a folder on its way may be a symbolic link out of the mirror.
        guard !FileManager.default.fileExists(atPath: file.path) || Self.resolvesInside(file, directory: directory) else {
            let reason = "the mirror's file \(file.path) resolves outside the mirror \(directory.path); refused"
            return .failure(FetchFailure(url: url, reason: reason))
        }
        let body: [UInt8]
        do {
            body = try FileBytes.read(file, limit: FileBytes.Limit.page)
        } catch {
            return .failure(FetchFailure(url: url, reason: "the mirror's file \(file.path) cannot be read: \(error)"))
        }
        return .success(FetchedPage(url: url, finalURL: url, status: entry.status, contentType: entry.contentType, etag: entry.etag,
                                    lastModified: entry.lastModified, body: body))
    }

    /// Whether `file`, every symbolic link on its path followed, exists inside `directory` (itself resolved).
    static func resolvesInside(_ file: URL, directory: URL) -> Bool {
        guard let root = realPath(directory.path), let target = realPath(file.path) else { return false }
        return target.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// Records every page another source yields into a mirror directory.
public final class MirrorRecorder: PageSource, Sendable {
    private let source: any PageSource
    public let directory: URL
    private let recorded: Mutex<(index: MirrorIndex, failures: [String])>

    /// Records into `directory`, made now, before any fetch: a new or empty one, or a mirror other than the one `source`
    /// replays, as the recording replaces its index.json (73 otherwise, or when it takes no files).
    public init(wrapping source: any PageSource, into directory: URL, startURLs: [URL]) throws(CatalogError) {
        let path = directory.path
        let isEmpty = (try? FileManager.default.contentsOfDirectory(atPath: path).isEmpty) ?? !FileManager.default.fileExists(atPath: path)
        guard (source as? MirrorSource)?.directory.resolvingSymlinksInPath().path != directory.resolvingSymlinksInPath().path,
              isEmpty || (try? MirrorSource(directory: directory)) != nil else {
            throw CatalogError("\(path): a recording replaces its index.json; name a new or empty folder, or another mirror", .cannotWrite)
        }
        // Its pages folder made now: a folder that takes no files says so before the crawl, not after it.
        try Result { try AtomicFile.makeDirectory(directory.appendingPathComponent("pages")) }
            .mapError { CatalogError("cannot write the mirror \(path): \($0)", .cannotWrite) }.get()
        self.source = source
        self.directory = directory
        recorded = Mutex((MirrorIndex(startURLs: startURLs.map { URLNormalizer.normalize($0).absoluteString }), []))
    }

    public func refusal(for url: URL) -> String? { source.refusal(for: url) }
    public var retries: Int { source.retries }
    public func setMinimumDelay(_ seconds: Double, for host: String) async { await source.setMinimumDelay(seconds, for: host) }
    public func vetRedirects(with vetter: @escaping @Sendable (URL) async -> String?) { source.vetRedirects(with: vetter) }

    public func fetch(_ url: URL) async -> Result<FetchedPage, FetchFailure> {
        let result = await source.fetch(url)
        guard case let .success(page) = result else { return result }
        let key = URLNormalizer.normalize(url).absoluteString
        let file = "pages/\(FNV1a.hex(FNV1a.hash(key.utf8))).html"
        do {
            try AtomicFile.write(Data(page.body), to: directory.appendingPathComponent(file), durable: false)
            recorded.withLock {
                $0.index.pages[key] = MirrorIndex.Entry(file: file, status: page.status, contentType: page.contentType, etag: page.etag,
                                                     lastModified: page.lastModified)
            }
        } catch {
            recorded.withLock { $0.failures.append("\(error)") }
        }
        return result
    }

    /// Writes `index.json`; call once the crawl is over. Throws when a page or the index could not be written.
    public func finish() throws {
        let (snapshot, problems) = recorded.withLock { ($0.index, $0.failures) }
        if !problems.isEmpty {
            throw CatalogError("could not record: " + problems.joined(separator: "; "), .cannotWrite)
        }
        try snapshot.write(to: directory)
    }
}
