import Foundation

/// Reads whole files into byte arrays.
public enum FileBytes {
    /// The file's bytes, read straight into one array: `Array(Data(contentsOf:))` would hold the file
    /// twice at its peak, which matters for snapshots of tens of megabytes.
    public static func read(_ url: URL) throws -> [UInt8] {
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let size = Int(info.st_size)
        return try [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = 0
            guard let base = buffer.baseAddress else { return }
            while count < size {
                let got = Foundation.read(descriptor, base + count, size - count)
                if got < 0, errno == EINTR { continue }
                guard got >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                // The file shrank while being read: what was there is all there is.
                if got == 0 { break }
                count += got
            }
        }
    }
}
