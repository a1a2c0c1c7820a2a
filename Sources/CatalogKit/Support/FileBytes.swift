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
    /// twice at its peak, which matters for snapshots of tens of megabytes.
    public static func read(_ url: URL) throws(ReadError) -> [UInt8] {
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else { throw ReadError(path: url.path, code: errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw ReadError(path: url.path, code: errno) }
        guard info.st_mode & S_IFMT != S_IFDIR else { throw ReadError(path: url.path, code: EISDIR) }
        let size = Int(info.st_size)
        var failure: Int32?
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = 0
            guard let base = buffer.baseAddress else { return }
            while count < size {
                let got = Foundation.read(descriptor, base + count, size - count)
                if got < 0, errno == EINTR { continue }
                guard got >= 0 else {
                    failure = errno
                    return
                }
                // The file shrank while being read: what was there is all there is.
                if got == 0 { break }
                count += got
            }
        }
        if let failure { throw ReadError(path: url.path, code: failure) }
        return bytes
    }
}
