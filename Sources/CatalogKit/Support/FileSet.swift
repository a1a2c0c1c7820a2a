import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Replaces several files as one: either all of them take their new content or none changes.
///
/// Every new content is first written to a temporary file beside its target and flushed; a full disk or an
/// unwritable directory fails there, before any target is touched. Only then are the temporary files
/// renamed over the targets. Each target that existed is first given a second name (a hard link: no data
/// is copied, so this needs no free space), which is how `restore()` can put the old files back even on a
/// disk that has just filled up.
public struct FileSet {
    private struct Installed {
        var target: URL
        /// The old file's second name; nil when the target did not exist before.
        var backup: URL?
    }

    private var installed: [Installed] = []

    public init() {}

    /// Writes every file, or none: on a failure nothing is left changed and the error names the file.
    public mutating func replace(_ files: [(url: URL, data: Data)]) throws(FileWriteError) {
        var staged: [(target: URL, temporary: URL)] = []
        do {
            for file in files {
                try AtomicFile.makeDirectory(file.url.deletingLastPathComponent())
                staged.append((file.url, try AtomicFile.stage(file.data, beside: file.url)))
            }
        } catch {
            for entry in staged { unlink(entry.temporary.path) }
            throw error
        }
        for (index, entry) in staged.enumerated() {
            do {
                try install(entry.temporary, at: entry.target)
            } catch {
                for rest in staged[index...] { unlink(rest.temporary.path) }
                restore()
                throw error
            }
        }
        var directories: [URL] = []
        for entry in staged where !directories.contains(entry.target.deletingLastPathComponent()) {
            directories.append(entry.target.deletingLastPathComponent())
        }
        do {
            for directory in directories { try AtomicFile.synchronizeDirectory(directory) }
        } catch {
            restore()
            throw error
        }
    }

    private mutating func install(_ temporary: URL, at target: URL) throws(FileWriteError) {
        var backup: URL? = target.deletingLastPathComponent().appendingPathComponent(AtomicFile.temporaryName(for: target))
        var movedAside = false
        if let name = backup, link(target.path, name.path) != 0 {
            switch errno {
            case ENOENT:
                backup = nil  // nothing to keep: the target is new
            case EPERM, EOPNOTSUPP, EMLINK:
                // A file system without hard links: move the old file aside instead (it is missing from its
                // name until the rename below, which readers of a published directory may notice).
                guard rename(target.path, name.path) == 0 else {
                    throw FileWriteError(path: target.path, operation: "keep the previous version", code: errno)
                }
                movedAside = true
            default:
                throw FileWriteError(path: target.path, operation: "keep the previous version", code: errno)
            }
        }
        guard rename(temporary.path, target.path) == 0 else {
            let code = errno
            if let backup { _ = movedAside ? rename(backup.path, target.path) : unlink(backup.path) }
            throw FileWriteError(path: target.path, operation: "replace", code: code)
        }
        installed.append(Installed(target: target, backup: backup))
    }

    /// Puts back what the files held before `replace` (best effort: this runs because something failed).
    /// Renames only, so it works on a full disk.
    public mutating func restore() {
        for entry in installed.reversed() {
            if let backup = entry.backup {
                rename(backup.path, entry.target.path)
            } else {
                unlink(entry.target.path)
            }
        }
        installed = []
    }

    /// Drops the previous versions once the change is final.
    public mutating func finish() {
        for entry in installed { if let backup = entry.backup { unlink(backup.path) } }
        installed = []
    }
}
