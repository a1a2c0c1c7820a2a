import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Replaces several files as one: all take their new content or none changes. Everything is staged (where a full
/// disk fails) before any rename; each old file keeps a second name (a hard link, needing no space) for `restore()`.
public struct FileSet {
    /// Each target replaced so far, and its old file's second name (nil when the target did not exist before).
    private var installed: [(target: URL, backup: URL?)] = []
    private let journal: URL?

    /// - Parameter journal: names every target and its previous version while the renames run, for `recover`.
    public init(journal: URL? = nil) {
        self.journal = journal
    }

    /// Writes every file, or none (the error names the file). `note` is kept in the journal for `recover`.
    public mutating func replace(_ files: [(url: URL, data: Data)], note: JSONValue = .null) throws(FileWriteError) {
        var staged: [(target: URL, temporary: URL)] = []
        var renamed = 0
        // Whatever fails, the staged files not yet renamed over their targets are removed.
        defer { for entry in staged[renamed...] { unlink(entry.temporary.path) } }
        for file in files {
            try AtomicFile.makeDirectory(file.url.deletingLastPathComponent())
            staged.append((file.url, try AtomicFile.stage(file.data, beside: file.url)))
        }
        let backups = staged.map { $0.target.deletingLastPathComponent().appendingPathComponent(AtomicFile.temporaryName(for: $0.target)) }
        if let journal {
            let entries = zip(staged, backups).map { entry, backup in
                Journal.Entry(target: entry.target.path, backup: backup.path, existed: FileManager.default.fileExists(atPath: entry.target.path))
            }
            try AtomicFile.write(JSONFile.encoded(Journal(files: entries, note: note)), to: journal)
        }
        do {
            for (index, entry) in staged.enumerated() {
                try install(entry.temporary, at: entry.target, backup: backups[index])
                renamed += 1
            }
            let directories = staged.map { $0.target.deletingLastPathComponent() }
            for (index, directory) in directories.enumerated() where !directories[..<index].contains(directory) {
                try AtomicFile.synchronizeDirectory(directory)
            }
        } catch {
            restore()
            throw error
        }
    }

    private mutating func install(_ temporary: URL, at target: URL, backup name: URL) throws(FileWriteError) {
        var backup: URL? = name
        var movedAside = false
        if let name = backup, link(target.path, name.path) != 0 {
            switch errno {
            case ENOENT:
                backup = nil  // nothing to keep: the target is new
            case EPERM, EOPNOTSUPP, EMLINK:
                // No hard links here: the old file is moved aside, missing from its name until the rename below.
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
        installed.append((target, backup))
    }

    /// Puts back what the files held before `replace`, best effort; renames only, so it works on a full disk.
    public mutating func restore() {
        for entry in installed.reversed() {
            if let backup = entry.backup { rename(backup.path, entry.target.path) } else { unlink(entry.target.path) }
        }
        installed = []
        if let journal { unlink(journal.path) }
    }

    /// Drops the previous versions once the change is final.
    public mutating func finish() {
        for entry in installed { if let backup = entry.backup { unlink(backup.path) } }
        installed = []
        if let journal { unlink(journal.path) }
    }

    /// What a commit writes before its first rename: each output, where its previous version was linked aside, and
    /// the caller's note. Read leniently: an entry missing a member is passed over.
    struct Journal: Codable {
        struct Entry: Codable {
            var target: String?
            var backup: String?
            var existed: Bool?
        }
        var files: [Entry]
        var note: JSONValue?
    }

    /// Settles a `replace` a killed process left half done: every target gets its previous version back unless
    /// `keepNew` (given the journal's note). Whether there was anything to settle; call it only under the run lock.
    @discardableResult
    public static func recover(journal: URL, keepNew: (JSONValue) -> Bool) throws(FileWriteError) -> Bool {
        guard FileManager.default.fileExists(atPath: journal.path) else { return false }
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(journal, limit: FileBytes.Limit.configuration)
        } catch {
            throw FileWriteError(path: journal.path, operation: "read the interrupted commit's journal", code: error.code)
        }
        // A journal that does not parse was torn while it was written: no rename had started then.
        guard let root = try? JSONFile.decode(Journal.self, from: bytes) else {
            unlink(journal.path)
            return true
        }
        // Files beside the journal, by name: the folder may be reached another way now (a link, a mount), and a journal
        // edited by hand reaches no further. Hidden names (the lock, the journal) are no outputs.
        var entries: [(target: String, backup: String, existed: Bool)] = []
        for entry in root.files {
            guard let target = entry.target, let backup = entry.backup else { continue }
            let name = URL(fileURLWithPath: target).lastPathComponent, backupName = URL(fileURLWithPath: backup).lastPathComponent
            guard !name.hasPrefix("."), backupName.hasPrefix(".\(name).") else {
                throw FileWriteError(path: journal.path, operation: "settle the commit it records: \(target) is no output; "
                                     + "the journal is left for a person to check and remove", code: EPERM)
            }
            let beside = { journal.deletingLastPathComponent().appendingPathComponent($0).path }
            entries.append((beside(name), beside(backupName), entry.existed == true))
        }
        let keep = keepNew(root.note ?? .null)
        for (target, backup, existed) in entries {
            if keep {
                unlink(backup)
            } else if existed {
                // The previous version was linked aside before its target was replaced; no link, no change yet.
                if FileManager.default.fileExists(atPath: backup), rename(backup, target) != 0 {
                    throw FileWriteError(path: target, operation: "put back the previous version", code: errno)
                }
                unlink(backup)
            } else {
                unlink(target)
            }
        }
        try AtomicFile.synchronizeDirectory(journal.deletingLastPathComponent())
        unlink(journal.path)
        return true
    }
}
