import Foundation

/// Keeps two runs from writing the same outputs at once: a non-blocking `flock`, released however the process ends.
public final class RunLock {
    private let descriptor: Int32

    /// Takes the lock at once or throws: 75 when another run holds it, 73 when it cannot be made; never waits.
    public init(directory: URL) throws(CatalogError) {
        let file = directory.appendingPathComponent(".gvingest.lock")
        func unavailable(_ reason: String) -> CatalogError {
            CatalogError("cannot create the run lock \(file.path): \(reason)", .cannotWrite)
        }
        try Result { () throws(FileWriteError) in try AtomicFile.makeDirectory(directory) }
            .mapError { unavailable("cannot \($0.operation) \($0.path): \($0.reason)") }.get()
        // Whoever can write the output directory could leave a symbolic link or a hard link here to a file the
        // runner can write; opening it without following links, and taking only a file that is plainly a lock
        // file, means the note below never truncates anything the lock did not create.
        let fd = open(file.path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let code = errno
            throw unavailable(code == ELOOP ? "it is a symbolic link, which a lock never follows; remove it"
                                            : String(cString: strerror(code)))
        }
        if let refusal = Self.refusal(fd) {
            close(fd)
            throw unavailable("\(refusal), so it is not a lock file of gvingest and is left as it is; remove it")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let holder = (try? String(contentsOf: file, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            close(fd)
            let held = holder.isEmpty ? "" : " (\(holder))"
            throw CatalogError("another gvingest run holds the lock \(file.path)\(held); "
                + "this run stops without writing anything", .temporary)
        }
        descriptor = fd
        let note = "pid \(ProcessInfo.processInfo.processIdentifier) since \(Timestamp.string(Date()))\n"
        _ = ftruncate(fd, 0)
        _ = note.withCString { pwrite(fd, $0, strlen($0), 0) }
    }

    /// Why an open file is not a lock file that may be overwritten (not regular, hard-linked, or too large).
    static func refusal(_ fd: Int32) -> String? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return String(cString: strerror(errno)) }
        if info.st_mode & S_IFMT != S_IFREG { return "it is not a regular file" }
        if info.st_nlink > 1 { return "it has \(info.st_nlink) names (hard links)" }
        if info.st_size > 4_096 { return "it holds \(info.st_size) bytes, more than a lock's note" }
        return nil
    }

    deinit {
        _ = ftruncate(descriptor, 0)
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
