import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A file operation that failed: the file, what was being done, and the cause from `errno` ("No space left on device").
public struct FileWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var operation: String
    public var code: Int32

    public var reason: String { String(cString: strerror(code)) }

    public var description: String { "\(path): cannot \(operation): \(reason)" }

    /// The reason, and what was being done unless it was the write itself ("flush to disk: I/O error").
    public var detail: String { operation == "write" ? reason : "\(operation): \(reason)" }
}

/// Writes files so that readers see the old content or the new, never a part.
public enum AtomicFile {
    /// Stages the data beside the target, renames it over, then (`durable`) flushes the directory so the new name
    /// survives a power cut. Caches and mirrors pass `durable: false`: a lost entry is fetched again.
    public static func write(_ data: Data, to url: URL, durable: Bool = true) throws(FileWriteError) {
        let directory = url.deletingLastPathComponent()
        try makeDirectory(directory)
        let temporary = try stage(data, beside: url)
        guard rename(temporary.path, url.path) == 0 else {
            let code = errno
            unlink(temporary.path)
            throw FileWriteError(path: url.path, operation: "replace", code: code)
        }
        if durable { try synchronizeDirectory(directory) }
    }

    /// Writes a new file, staged then hard-linked to its name: `EEXIST` if taken, so nothing is ever replaced.
    public static func create(_ data: Data, at url: URL) throws(FileWriteError) {
        let directory = url.deletingLastPathComponent()
        let staging = try stage(data, beside: url)
        defer { unlink(staging.path) }
        guard link(staging.path, url.path) == 0 else {
            throw FileWriteError(path: url.path, operation: "create", code: errno)
        }
        do {
            try synchronizeDirectory(directory)
        } catch {
            // Not known to be on disk: take the name back, so the caller's "not written" is the truth.
            unlink(url.path)
            throw error
        }
    }

    /// Temporary files that killed writers of `names` left in `directory`; call it only under the run lock.
    public static func leftoverTemporaries(in directory: URL, of names: [String]) -> [URL] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return entries.filter { entry in
            entry.hasSuffix(".tmp") && names.contains { entry.hasPrefix(".\($0).") }
        }.map { directory.appendingPathComponent($0) }
    }

    /// Whether the process that named a temporary file (`.NAME.PID.RANDOM.tmp`) is gone; any live one with that
    /// number keeps it, as does another form of name.
    public static func writerIsGone(_ name: String) -> Bool {
        let parts = name.split(separator: ".")
        guard parts.count >= 4, parts.last == "tmp", let pid = Int32(parts[parts.count - 3]), pid > 0 else { return false }
        if pid == ProcessInfo.processInfo.processIdentifier { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    /// Writes `data` to a new temporary file beside `url`, flushed, or throws having removed it: where a full disk
    /// shows, so callers replacing several files stage them all first.
    public static func stage(_ data: Data, beside url: URL) throws(FileWriteError) -> URL {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(temporaryName(for: url))
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileWriteError(path: url.path, operation: "write", code: errno) }
        var failure: FileWriteError?
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(descriptor, base + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = FileWriteError(path: url.path, operation: "write", code: errno)
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 {
            failure = FileWriteError(path: url.path, operation: "flush to disk", code: errno)
        }
        // Some file systems report a full disk only when the file is closed.
        if close(descriptor) != 0, failure == nil {
            failure = FileWriteError(path: url.path, operation: "write", code: errno)
        }
        if let failure {
            unlink(temporary.path)
            throw failure
        }
        return temporary
    }

    /// A name for a temporary file beside `url`: hidden, unique to this process and call, ending in `.tmp`.
    static func temporaryName(for url: URL) -> String {
        ".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).\(UInt64.random(in: 0...UInt64.max)).tmp"
    }

    /// Creates a directory and its missing parents, like `mkdir -p`.
    public static func makeDirectory(_ directory: URL) throws(FileWriteError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw FileWriteError(path: directory.path, operation: "use as a directory", code: ENOTDIR)
            }
            return
        }
        let parent = directory.deletingLastPathComponent()
        if parent.path != directory.path { try makeDirectory(parent) }
        guard mkdir(directory.path, 0o755) == 0 || errno == EEXIST else {
            throw FileWriteError(path: directory.path, operation: "create the directory", code: errno)
        }
    }

    /// The first symbolic link on the way down from `root` to `path` (`root` itself is the configuration's to
    /// choose), `path` included; nil when there is none or `path` is not under `root`.
    public static func symbolicLink(from root: URL, to path: URL) -> String? {
        let top = root.standardizedFileURL.pathComponents, parts = path.standardizedFileURL.pathComponents
        guard parts.starts(with: top) else { return nil }
        var current = root.standardizedFileURL
        for part in parts.dropFirst(top.count) {
            current.appendPathComponent(part)
            var info = stat()
            if lstat(current.path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK { return current.path }
        }
        return nil
    }

    public static func synchronizeDirectory(_ directory: URL) throws(FileWriteError) {
        let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileWriteError(path: directory.path, operation: "open", code: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw FileWriteError(path: directory.path, operation: "flush to disk", code: errno) }
    }
}
