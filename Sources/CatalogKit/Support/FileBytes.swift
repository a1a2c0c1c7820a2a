import Foundation

/// Reads whole files into byte arrays.
public enum FileBytes {
    /// Why a file could not be read: the system's words for it ("No such file or directory").
    public struct ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        public var path: String
        public var code: Int32
        public var description: String { String(cString: strerror(code)) }
    }

    /// The file's bytes, read straight into one array: `Array(Data(contentsOf:))` would hold the file
    /// twice at its peak, which matters for snapshots of tens of megabytes. Reads to the end of the file
    /// rather than trusting its size, so pipes (`<(zcat …)`) and files that grow while read work too.
    public static func read(_ url: URL) throws(ReadError) -> [UInt8] {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ReadError(path: url.path, code: errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw ReadError(path: url.path, code: errno) }
        guard info.st_mode & S_IFMT != S_IFDIR else { throw ReadError(path: url.path, code: EISDIR) }
        // A regular file gets its size and one spare byte (the read that returns 0 needs room), at least a page
        // (/proc files say 0); a pipe has no size.
        let isRegular = info.st_mode & S_IFMT == S_IFREG
        var bytes = [UInt8](repeating: 0, count: isRegular ? max(Int(info.st_size) + 1, 4_096) : 65_536)
        var count = 0
        while true {
            if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: bytes.count)) }
            let got = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return Foundation.read(descriptor, base + count, buffer.count - count)
            }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { throw ReadError(path: url.path, code: errno) }
            if got == 0 { break }
            count += got
        }
        bytes.removeSubrange(count...)
        return bytes
    }
}
