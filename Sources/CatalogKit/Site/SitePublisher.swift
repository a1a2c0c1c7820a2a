import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads what the website shows from a run's outputs and writes the website, whole, into its folder.
public enum SitePublisher {
    /// The files published beside the pages as the run wrote them, at the same URLs as before the site.
    static let copied = ["catalog.json", "news.json", "news.atom"]
    /// The file that marks a folder as a site gvingest wrote, which it may replace.
    static let marker = ".gvingest-site"

    /// The catalog's snapshots, news, run report and published files from `outputs`; `provenance` from a run that parsed the pages.
    public static func input(outputs: OutputSettings, catalog: CatalogConfig,
                             provenance: [String: [String: String]] = [:]) throws(CatalogError) -> SiteInput {
        let store = outputs.store(for: catalog.id)
        let snapshots = try Result { () throws(SnapshotError) in try store.list().map { entry throws(SnapshotError) in try SnapshotStore.load(entry.file) } }
            .mapError { CatalogError("\($0)", { if case .corrupt = $0 { .invalidData } else { .missingInput } }($0)) }.get()
        guard !snapshots.isEmpty else {
            throw CatalogError("\(store.directory.path): no snapshot of catalog \(catalog.id) yet: the site is made from a run's outputs, so run `gvingest run` first", .missingInput)
        }
        func read(_ name: String) throws(CatalogError) -> Data? {
            let file = outputs.directory.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: file.path) else { return nil }
            return try Result { try FileBytes.read(file, limit: FileBytes.Limit.document) }
                .mapError { CatalogError("\(file.path): cannot read: \($0)", .missingInput) }.map { Data($0) }.get()
        }
        func decode<T: Decodable>(_ name: String, _ decode: (Data) throws(FormatError) -> T) throws(CatalogError) -> T? {
            try read(name).map { data throws(CatalogError) in
                try Result { () throws(FormatError) in try decode(data) }.mapError { CatalogError("\(outputs.directory.appendingPathComponent(name).path): \($0)", .invalidData) }.get()
            }
        }
        let news = try decode("news.json") { data throws(FormatError) in try NewsFile.decode(data) } ?? []
        let report = try decode("run-report.json") { data throws(FormatError) in try JSONFile.decode(RunReport.self, from: data) }
        var copies: [String: Data] = [:]
        for name in copied { copies[name] = try read(name) }
        return SiteInput(catalogName: catalog.name, snapshots: snapshots, news: news, report: report, provenance: provenance, copies: copies)
    }

    /// Writes `files` (relative paths) as the whole content of `directory`: into a new folder beside it, then swapped in by
    /// one rename, so a reader sees the old site or the new. A symbolic link, or a folder holding files gvingest did not
    /// write, is refused.
    public static func write(_ files: [String: Data], to directory: URL) throws(FileWriteError) {
        let directory = directory.standardizedFileURL
        var info = stat()
        let exists = lstat(directory.path, &info) == 0
        if exists, info.st_mode & S_IFMT == S_IFLNK {
            throw FileWriteError(path: directory.path, operation: "write the site into a symbolic link", code: ELOOP)
        }
        if exists, let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path), !names.isEmpty, !names.contains(marker) {
            throw FileWriteError(path: directory.path, operation: "replace a folder that is not a site gvingest wrote", code: ENOTEMPTY)
        }
        let parent = directory.deletingLastPathComponent()
        try AtomicFile.makeDirectory(parent)
        let staging = parent.appendingPathComponent(".\(directory.lastPathComponent).\(getpid()).site.tmp")
        try? FileManager.default.removeItem(at: staging)
        defer { try? FileManager.default.removeItem(at: staging) }
        for (path, data) in files.sorted(by: { $0.key < $1.key }) {
            let file = staging.appendingPathComponent(path)
            try AtomicFile.makeDirectory(file.deletingLastPathComponent())
            guard FileManager.default.createFile(atPath: file.path, contents: data) else {
                throw FileWriteError(path: file.path, operation: "write", code: errno == 0 ? EIO : errno)
            }
        }
        // The new folder takes the old one's name in one step; the old one, now at the staging name, goes with the defer.
        let swapped = exists ? exchange(staging.path, directory.path) : rename(staging.path, directory.path)
        // Not flushed to disk: a site is rendered again by the next run, and flushing 4,000 pages took seconds.
        guard swapped == 0 else { throw FileWriteError(path: directory.path, operation: "put the new site in place", code: errno) }
    }

    /// Linux's renameat2 with RENAME_EXCHANGE, which Glibc's Swift module hides behind _GNU_SOURCE: swaps two names at once.
    static func exchange(_ a: String, _ b: String) -> Int32 {
        typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
        guard let symbol = dlsym(nil, "renameat2") else { errno = ENOSYS; return -1 }
        return unsafeBitCast(symbol, to: RenameAt2.self)(AT_FDCWD, a, AT_FDCWD, b, 2)
    }
}
