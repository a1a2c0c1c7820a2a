import Foundation

/// Reads whole files into byte arrays.
public enum FileBytes {
    /// Why a file could not be read: the system's words for it ("No such file or directory"), or gvingest's own.
    public struct ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        public var path: String
        public var code: Int32
        /// Set when gvingest refused the file itself: too large, or a device.
        public var refusal: String? = nil
        public var description: String { refusal ?? String(cString: strerror(code)) }
    }

    /// The most a file of each kind may hold, so that /dev/zero or a sparse file of terabytes is an error, not a
    /// run that fills memory.
    public enum Limit {
        /// `pipeline.json`, the commit journal.
        public static let configuration = 16 << 20
        /// Snapshots, `catalog.json`, `news.json`, the inputs of `diff` and `search`: 400,000 courses.
        public static let document = 1 << 30
        /// A page given to `parse` or `prereq`, or kept in a mirror or the response cache: `fetch.maxBodyBytes`' top.
        public static let page = 256 << 20
    }

    /// The file's bytes, read straight into one array (`Data` would hold a large snapshot twice at its peak), to the
    /// end rather than the stated size, so pipes, /proc files and growing files work too; at most `limit` bytes.
    public static func read(_ url: URL, limit: Int) throws(ReadError) -> [UInt8] {
        try read(path: url.path, limit: limit)
    }

    /// The path `-` on the command line stands for.
    public static let standardInput = "/dev/stdin"

    /// Why `path` is no directory to read files from ("no such directory", "not a directory"), or nil when it is one.
    public static func directoryProblem(_ path: String) -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return "no such directory" }
        return isDirectory.boolValue ? nil : "not a directory"
    }

    public static func read(path: String, limit: Int) throws(ReadError) -> [UInt8] {
        // Standard input is read where it is: reopening /dev/stdin fails for a socket and starts a file over. A FIFO
        // is opened without waiting for a writer (none: it reads as empty), then read as any pipe.
        let descriptor = path == standardInput ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw ReadError(path: path, code: errno) }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw ReadError(path: path, code: errno) }
        let kind = info.st_mode & S_IFMT
        guard kind != S_IFDIR else { throw ReadError(path: path, code: EISDIR) }
        if path != standardInput {
            guard kind == S_IFREG || kind == S_IFIFO else {
                throw ReadError(path: path, code: ENODEV, refusal: "not a regular file (a device or a socket); refused")
            }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        }
        let tooLarge = ReadError(path: path, code: EFBIG, refusal: "larger than \(limit >> 20) MiB, the most gvingest reads from a file of this kind")
        guard kind != S_IFREG || info.st_size <= limit else { throw tooLarge }
        // A regular file gets its size and a spare byte (for the read that returns 0), at least a page (/proc says 0).
        let isRegular = info.st_mode & S_IFMT == S_IFREG
        let statedSize = isRegular && info.st_size > 0 ? Int(info.st_size) : nil
        var bytes: [UInt8] = []
        var capacity = isRegular ? max(Int(info.st_size) + 1, 4_096) : 65_536
        while true {
            var failure: Int32 = 0
            var atEnd = false
            let before = bytes.count
            let chunk = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                guard let base = buffer.baseAddress else { return }
                while initialized < buffer.count {
                    let wanted = buffer.count - initialized
                    let got = Foundation.read(descriptor, base + initialized, wanted)
                    if got < 0, errno == EINTR { continue }
                    if got < 0 { failure = errno; return }
                    if got == 0 { atEnd = true; return }
                    initialized += got
                    // A short read up to a regular file's stated size is its end: one system call fewer a page. A
                    // file grown since `fstat` fills the spare byte and reads on, as any other short read does.
                    if got < wanted, let statedSize, before + initialized == statedSize { atEnd = true; return }
                }
            }
            guard failure == 0 else { throw ReadError(path: path, code: failure) }
            if bytes.isEmpty { bytes = chunk } else { bytes.append(contentsOf: chunk) }
            guard bytes.count <= limit else { throw tooLarge }
            if atEnd { return bytes }
            capacity = min(max(bytes.count, 4_096), limit + 1 - bytes.count)
        }
    }
}

extension Error {
    /// The system's words for a failed file operation ("No space left on device"), which Foundation wraps (twice on Linux);
    /// an error of gvingest's own (`FileWriteError`) says itself, where Foundation would give a number.
    public var systemReason: String {
        guard self is CocoaError else { return "\(self)" }
        guard let underlying = (self as NSError).userInfo[NSUnderlyingErrorKey] as? any Error else { return localizedDescription }
        return String(cString: strerror(Int32((underlying as NSError).code)))
    }
}
