import Foundation

/// Reads whole files into byte arrays.
public enum FileBytes {
    /// Why a file could not be read: the system's words for it ("No such file or directory").
    public struct ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        public var path: String
        public var code: Int32
        public var description: String { String(cString: strerror(code)) }
    }

    /// The file's bytes, a regular file read straight into one array of its size: `Array(Data(contentsOf:))` would
    /// hold the file twice at its peak, which matters for snapshots of tens of megabytes. Reads to the end rather
    /// than trusting the size, so pipes (`<(zcat …)`), /proc files and files that grow while read work too.
    public static func read(_ url: URL) throws(ReadError) -> [UInt8] {
        try read(path: url.path)
    }

    /// `read(_:)` for a file named by its path.
    public static func read(path: String) throws(ReadError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ReadError(path: path, code: errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw ReadError(path: path, code: errno) }
        guard info.st_mode & S_IFMT != S_IFDIR else { throw ReadError(path: path, code: EISDIR) }
        // A regular file gets its size and one spare byte (the read that returns 0 needs room), at least a page
        // (/proc files say 0); a pipe has no size. The space is read into as it is, not zeroed first.
        let isRegular = info.st_mode & S_IFMT == S_IFREG
        // Where a regular file with a size ends, as `fstat` saw it (/proc files say 0, and read on to the end).
        let statedSize = isRegular && info.st_size > 0 ? Int(info.st_size) : nil
        var bytes: [UInt8] = []
        var capacity = isRegular ? max(Int(info.st_size) + 1, 4_096) : 65_536
        while true {
            var failure: Int32 = 0
            var atEnd = false
            let before = bytes.count
            // Each round reads into fresh space the size of what was read so far, until a read returns 0.
            let chunk = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                guard let base = buffer.baseAddress else { return }
                while initialized < buffer.count {
                    let wanted = buffer.count - initialized
                    let got = Foundation.read(descriptor, base + initialized, wanted)
                    if got < 0, errno == EINTR { continue }
                    if got < 0 { failure = errno; return }
                    if got == 0 { atEnd = true; return }
                    initialized += got
                    // A short read that brings a regular file to its stated size is its end: no second read to be
                    // told so (one system call fewer a page). A file grown since `fstat` fills the spare byte and
                    // reads on; any other short read (a pipe, a network file system) reads on too.
                    if got < wanted, let statedSize, before + initialized == statedSize { atEnd = true; return }
                }
            }
            guard failure == 0 else { throw ReadError(path: path, code: failure) }
            if bytes.isEmpty { bytes = chunk } else { bytes.append(contentsOf: chunk) }
            if atEnd { return bytes }
            capacity = max(bytes.count, 4_096)
        }
    }
}
