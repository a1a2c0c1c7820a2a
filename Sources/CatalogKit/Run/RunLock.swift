import Foundation

/// Keeps two runs from writing the same outputs at once: an exclusive, non-blocking `flock` on a
/// file in the output directory, released when the process ends, however it ends.
public final class RunLock {
    public let file: URL
    private let descriptor: Int32

    /// Why the lock could not be taken.
    public struct Busy: Error, Sendable, CustomStringConvertible {
        public var file: String
        public var holder: String?
        public var description: String {
            "another gvingest run holds the lock \(file)\(holder.map { " (\($0))" } ?? ""); this run stops without writing anything"
        }
    }

    public struct Unavailable: Error, Sendable, CustomStringConvertible {
        public var file: String
        public var reason: String
        public var description: String { "cannot create the run lock \(file): \(reason)" }
    }

    /// Takes the lock at once or throws; never waits.
    public init(directory: URL) throws {
        file = directory.appendingPathComponent(".gvingest.lock")
        do {
            try AtomicFile.makeDirectory(directory)
        } catch {
            throw Unavailable(file: file.path, reason: "cannot \(error.operation) \(error.path): \(error.reason)")
        }
        let fd = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Unavailable(file: file.path, reason: String(cString: strerror(errno))) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let holder = (try? String(contentsOf: file, encoding: .utf8)).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            close(fd)
            throw Busy(file: file.path, holder: holder?.isEmpty == false ? holder : nil)
        }
        descriptor = fd
        let note = "pid \(ProcessInfo.processInfo.processIdentifier) since \(Timestamp.string(Date()))\n"
        _ = ftruncate(fd, 0)
        _ = note.withCString { pwrite(fd, $0, strlen($0), 0) }
    }

    deinit {
        _ = ftruncate(descriptor, 0)
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
