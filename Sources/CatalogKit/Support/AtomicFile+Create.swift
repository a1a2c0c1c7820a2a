import Foundation

extension AtomicFile {
    /// Writes a new file that must not exist yet: to a temporary file beside it, flushed to disk, then
    /// hard-linked to its name, which fails if the name is taken, so nothing is ever replaced; the
    /// directory is flushed too, so the new name survives a power cut. Readers see the whole file or none.
    public static func create(_ data: Data, at url: URL) throws {
        let directory = url.deletingLastPathComponent()
        let staging = directory.appendingPathComponent(temporaryName(for: url))
        try write(data, to: staging)
        defer { unlink(staging.path) }
        guard link(staging.path, url.path) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        try synchronizeDirectory(directory)
    }

    /// A name for a temporary file beside `url`: hidden, unique to this process and call, ending in `.tmp`.
    static func temporaryName(for url: URL) -> String {
        ".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).\(UInt64.random(in: 0...UInt64.max)).tmp"
    }

    /// Flushes a directory's entries (a rename or link in it) to disk.
    public static func synchronizeDirectory(_ directory: URL) throws {
        let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }
}
