import Foundation

/// `index.json`: the entry point to a directory of catalogs, made from each catalog's outputs under an output root
/// (`<root>/<id>/catalog.json` and `run-report.json`, as `gvingest run --shard` writes them) and its snapshots.
public struct CatalogIndex: Sendable, Codable, Equatable {
    public static let schemaVersion = 1

    public struct Entry: Sendable, Codable, Equatable {
        public var id: String
        public var name: String
        /// Nil for a catalog that never published and that no configuration names.
        public var system: CatalogSystem?
        /// The edition of its last snapshot, when `backfill` labelled one.
        public var edition: String?
        public var courseCount: Int
        /// When the last snapshot was captured: the last run that published.
        public var lastSuccess: String?
        /// How its last run ended ("ok", "no changes", or why it stopped) and with what exit status.
        public var outcome: String?
        public var exitStatus: Int32?
        /// When its last run started, published or not.
        public var lastRun: String?
    }

    public var schemaVersion = Self.schemaVersion
    public var catalogs: [Entry]

    /// What `build` found that is not a catalog's outputs as they should be: each names the file and why.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public var file: String
        public var reason: String
        public var description: String { "\(file): \(reason)" }
    }

    /// Only the fields the index shows: decoding skips the courses' contents.
    private struct PublishedHead: Decodable {
        var catalog: PublishedCatalog.Catalog
        var courseCount: Int
    }

    /// Every folder of `root` holding a catalog.json or a run-report.json (a catalog whose runs all failed), in id
    /// order; `snapshots` holds their stores (`<snapshots>/<id>`), and `known` names catalogs that never published.
    /// Folders with neither (snapshots, shards, caches) are not catalogs and are passed over.
    public static func build(root: URL, snapshots: URL, known: [CatalogConfig] = []) throws(Problem) -> CatalogIndex {
        let folders: [String]
        do {
            folders = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        } catch {
            throw Problem(file: root.path, reason: "cannot list the output root: \(error.systemReason)")
        }
        var entries: [Entry] = []
        for folder in folders {
            let directory = root.appendingPathComponent(folder)
            let catalogFile = directory.appendingPathComponent("catalog.json")
            let reportFile = directory.appendingPathComponent("run-report.json")
            let report = FileManager.default.fileExists(atPath: reportFile.path) ? try read(RunReport.self, reportFile) : nil
            var entry: Entry
            if FileManager.default.fileExists(atPath: catalogFile.path) {
                let head = try read(PublishedHead.self, catalogFile)
                entry = Entry(id: head.catalog.id, name: head.catalog.name, system: head.catalog.system, courseCount: head.courseCount)
            } else if let report {
                let configured = known.first { $0.id == report.catalog }
                entry = Entry(id: report.catalog, name: configured?.name ?? report.catalog, system: configured?.system, courseCount: 0)
            } else {
                continue
            }
            if let report { (entry.outcome, entry.exitStatus, entry.lastRun) = (report.outcome, report.exitStatus, report.startedAt) }
            let store = SnapshotStore(directory: snapshots.appendingPathComponent(entry.id))
            do throws(SnapshotError) {
                if let latest = try store.latestHeader() {
                    (entry.lastSuccess, entry.edition) = (latest.header.capturedAt, latest.header.edition)
                }
            } catch {
                throw Problem(file: store.directory.path, reason: "\(error)")
            }
            entries.append(entry)
        }
        return CatalogIndex(catalogs: entries.sorted { $0.id < $1.id })
    }

    /// A file's JSON as `T`; a published catalog's courses are passed over, not decoded (`CourseDocument.header`).
    private static func read<T: Decodable>(_ type: T.Type, _ file: URL) throws(Problem) -> T {
        do {
            return try CourseDocument.header(FileBytes.read(file, limit: FileBytes.Limit.document), as: T.self)
        } catch {
            throw Problem(file: file.path, reason: "\(error)")
        }
    }
}
