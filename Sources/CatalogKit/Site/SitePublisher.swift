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
    /// one rename, so a reader sees the old site or the new. Only a folder that is empty or holds a site gvingest wrote
    /// is replaced: a file, a FIFO, a symbolic link or a folder of anything else is refused, named. Files a previous site
    /// holds that gvingest did not write there (a CNAME, a verification file) are kept: the marker lists what it wrote.
    /// Files are 0644 and folders 0755 whatever the umask, as every other output.
    public static func write(_ files: [String: Data], to directory: URL) throws(FileWriteError) {
        let directory = directory.standardizedFileURL
        var info = stat()
        let exists = lstat(directory.path, &info) == 0
        if exists, info.st_mode & S_IFMT == S_IFLNK {
            throw FileWriteError(path: directory.path, operation: "write the site into a symbolic link", code: ELOOP)
        }
        if exists, info.st_mode & S_IFMT != S_IFDIR {
            throw FileWriteError(path: directory.path, operation: "write the site where a file that is not a folder is", code: ENOTDIR)
        }
        var kept: [String] = []
        if exists {
            // A folder that cannot be listed is not known to be a site: refused, never replaced unseen.
            guard let listing = opendir(directory.path) else {
                throw FileWriteError(path: directory.path, operation: "list the folder the site would replace", code: errno)
            }
            closedir(listing)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            if !names.isEmpty, !names.contains(marker) {
                throw FileWriteError(path: directory.path, operation: "replace a folder that is not a site gvingest wrote", code: ENOTEMPTY)
            }
            kept = try foreignFiles(in: directory)
        }
        let parent = directory.deletingLastPathComponent()
        try AtomicFile.makeDirectory(parent)
        removeAbandonedStaging(of: directory)
        let staging = parent.appendingPathComponent(".\(directory.lastPathComponent).\(getpid()).site.tmp")
        try? FileManager.default.removeItem(at: staging)
        defer { try? FileManager.default.removeItem(at: staging) }
        var written = files
        written[marker] = Data((["written by gvingest site; replaced whole by the next one, which keeps any other file; it wrote:"]
            + files.keys.filter { $0 != marker }.sorted()).joined(separator: "\n").utf8 + [0x0A])
        for (path, data) in written.sorted(by: { $0.key < $1.key }) {
            let file = staging.appendingPathComponent(path)
            try makeDirectories(file.deletingLastPathComponent(), below: staging)
            guard FileManager.default.createFile(atPath: file.path, contents: data, attributes: [.posixPermissions: 0o644]) else {
                throw FileWriteError(path: file.path, operation: "write", code: errno == 0 ? EIO : errno)
            }
        }
        for path in kept where written[path] == nil {
            let target = staging.appendingPathComponent(path)
            try makeDirectories(target.deletingLastPathComponent(), below: staging)
            do { try FileManager.default.copyItem(at: directory.appendingPathComponent(path), to: target) } catch {
                throw FileWriteError(path: directory.appendingPathComponent(path).path, operation: "keep the file in the new site", code: EIO)
            }
        }
        // The new folder takes the old one's name in one step; the old one, now at the staging name, goes with the defer.
        let swapped = exists ? exchange(staging.path, directory.path) : rename(staging.path, directory.path)
        // Not flushed to disk: a site is rendered again by the next run, and flushing 4,000 pages took seconds.
        guard swapped == 0 else { throw FileWriteError(path: directory.path, operation: "put the new site in place", code: errno) }
    }

    /// The files (and links) below a previous site that its marker does not list. A marker that lists nothing (from
    /// before markers listed) counts every file as gvingest's, as it was then.
    static func foreignFiles(in site: URL) throws(FileWriteError) -> [String] {
        let text = (try? FileBytes.read(site.appendingPathComponent(marker), limit: FileBytes.Limit.document)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let lines = text.split(separator: "\n").map(String.init)
        guard lines.first?.hasSuffix("it wrote:") == true else { return [] }
        let ours = Set(lines.dropFirst()).union([marker])
        guard let walker = FileManager.default.enumerator(atPath: site.path) else { return [] }
        var foreign: [String] = []
        while let path = walker.nextObject() as? String {
            if walker.fileAttributes?[.type] as? FileAttributeType == .typeDirectory { continue }
            if !ours.contains(path) { foreign.append(path) }
        }
        return foreign.sorted()
    }

    /// Folders from `root` down to `directory`, each 0755 whatever the umask.
    private static func makeDirectories(_ directory: URL, below root: URL) throws(FileWriteError) {
        var missing: [URL] = []
        var next = directory
        while !FileManager.default.fileExists(atPath: next.path), next.path.count >= root.path.count {
            missing.append(next)
            next.deleteLastPathComponent()
        }
        for folder in missing.reversed() {
            guard mkdir(folder.path, 0o755) == 0 || errno == EEXIST else {
                throw FileWriteError(path: folder.path, operation: "create the directory", code: errno)
            }
            chmod(folder.path, 0o755)
        }
    }

    /// Staging folders of renders that were killed (their defer never ran): named by the pid, removed when it is gone.
    static func removeAbandonedStaging(of directory: URL) {
        let parent = directory.deletingLastPathComponent()
        let prefix = ".\(directory.lastPathComponent).", suffix = ".site.tmp"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? [] where name.hasPrefix(prefix) && name.hasSuffix(suffix) {
            guard let pid = Int32(name.dropFirst(prefix.count).dropLast(suffix.count)), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: parent.appendingPathComponent(name))
        }
    }

    /// Linux's renameat2 with RENAME_EXCHANGE, which Glibc's Swift module hides behind _GNU_SOURCE: swaps two names at once.
    static func exchange(_ a: String, _ b: String) -> Int32 {
        typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
        guard let symbol = dlsym(nil, "renameat2") else { errno = ENOSYS; return -1 }
        return unsafeBitCast(symbol, to: RenameAt2.self)(AT_FDCWD, a, AT_FDCWD, b, 2)
    }
}
