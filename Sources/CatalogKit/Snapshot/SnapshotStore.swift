import Foundation

/// What went wrong with a snapshot file or the store's directory.
public enum SnapshotError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file or directory could not be read.
    case unreadable(path: String, reason: String)
    /// The file was read but is not a whole, valid snapshot; it is left as it is.
    case corrupt(path: String, reason: String)
    /// A snapshot could not be written (or pruned).
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason): return "\(path): cannot read: \(reason)"
        case let .corrupt(path, reason):
            return "\(path): not a valid snapshot (\(reason)); it was left untouched: repair it or move it out of the snapshot directory"
        case let .cannotWrite(path, reason): return "\(path): cannot write: \(reason)"
        }
    }
}

/// One catalog's snapshots, a file a run (`snapshot-000042-20240501T120000Z.json`), never rewritten. The sequence
/// orders them even when clocks disagree; a name taken (two runs at once) fails the second write, replacing nothing.
public struct SnapshotStore: Sendable {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    /// A snapshot file in the store.
    public struct Entry: Sendable, Equatable {
        public var sequence: Int
        public var file: URL
        public var name: String { file.lastPathComponent }
    }

    static let prefix = "snapshot-"

    /// The sequence number of a snapshot file name; nil for any other file (temporary files included).
    static func sequence(ofFileName name: String) -> Int? {
        guard name.hasPrefix(prefix), name.hasSuffix(".json") else { return nil }
        let digits = name.dropFirst(prefix.count).prefix { $0.isASCIIDigit }
        guard !digits.isEmpty, name.dropFirst(prefix.count + digits.count).first == "-" else { return nil }
        return Int(digits)
    }

    /// The snapshots, oldest first; none when the directory does not exist yet.
    public func list() throws(SnapshotError) -> [Entry] {
        guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
        let names = try Result { try FileManager.default.contentsOfDirectory(atPath: directory.path) }.mapError {
            SnapshotError.unreadable(path: directory.path, reason: $0.systemReason)
        }.get()
        return names.compactMap { name in
            Self.sequence(ofFileName: name).map { Entry(sequence: $0, file: directory.appendingPathComponent(name)) }
        }.sorted { ($0.sequence, $0.name) < ($1.sequence, $1.name) }
    }

    /// Reads a snapshot file, strictly.
    public static func load(_ file: URL) throws(SnapshotError) -> Snapshot {
        let bytes = try Result { try FileBytes.read(file, limit: FileBytes.Limit.document) }
            .mapError { SnapshotError.unreadable(path: file.path, reason: "\($0)") }.get()
        return try Result { try Snapshot(bytes: bytes) }
            .mapError { SnapshotError.corrupt(path: file.path, reason: "\($0)") }.get()
    }

    /// The newest snapshot, or nil when there is none.
    public func latest() throws(SnapshotError) -> (entry: Entry, snapshot: Snapshot)? {
        guard let entry = try list().last else { return nil }
        return (entry, try Self.load(entry.file))
    }

    /// What the newest snapshot says of itself, its courses not read: for what needs only its pages or its time
    /// (a shard plan weighs hundreds of catalogs by their pages before any of them runs).
    public func latestHeader() throws(SnapshotError) -> (entry: Entry, header: SnapshotHeader)? {
        guard let entry = try list().last else { return nil }
        let bytes = try Result { try FileBytes.read(entry.file, limit: FileBytes.Limit.document) }
            .mapError { SnapshotError.unreadable(path: entry.file.path, reason: "\($0)") }.get()
        let header = try Result { try CourseDocument.header(bytes, as: SnapshotHeader.self) }
            .mapError { SnapshotError.corrupt(path: entry.file.path, reason: "\($0)") }.get()
        return (entry, header)
    }

    /// Writes a snapshot as the next in sequence: atomically (temporary file, fsync, link), never over an existing file.
    @discardableResult
    public func write(_ snapshot: Snapshot) throws(SnapshotError) -> Entry {
        let sequence = (try list().last?.sequence ?? 0) + 1
        let name = Self.prefix + String(format: "%06d", sequence) + "-" + Timestamp.compact(snapshot.capturedAt)
        let file = directory.appendingPathComponent(name + ".json")
        do {
            try AtomicFile.makeDirectory(directory)
            try AtomicFile.create(Data(snapshot.encoded()), at: file)
        } catch where error.code == EEXIST && error.path == file.path {
            throw .cannotWrite(path: file.path, reason: "the name is taken (another run wrote snapshot \(sequence) first); nothing was replaced")
        } catch {
            throw .cannotWrite(path: error.path, reason: error.detail)
        }
        return Entry(sequence: sequence, file: file)
    }

    /// Deletes all but the newest `keeping` snapshots, and temporaries whose writer is gone or that are `age` seconds
    /// old (younger ones of a live process may be a write in progress); returns the files deleted.
    @discardableResult
    public func prune(keeping: Int, temporariesOlderThan age: TimeInterval = 3600, now: Date = Date()) throws(SnapshotError) -> [URL] {
        var doomed = try list().dropLast(max(0, keeping)).map(\.file)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") {
            let file = directory.appendingPathComponent(name)
            let modified = (try? FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate]) as? Date
            if AtomicFile.writerIsGone(name) || modified.map({ now.timeIntervalSince($0) >= age }) == true { doomed.append(file) }
        }
        for file in doomed {
            do {
                try FileManager.default.removeItem(at: file)
            } catch {
                throw .cannotWrite(path: file.path, reason: "cannot delete: \(error.systemReason)")
            }
        }
        return doomed
    }
}
