import Foundation

/// A catalog's archived editions run oldest first into its snapshot history, each dated by its edition and announcing
/// nothing, so that `createdAt` and `firstEdition` say when a course entered the catalog, not when gvingest first ran.
public struct Backfill: Sendable {
    public struct Edition: Sendable, Equatable {
        public var label: String
        public var source: CatalogSource
        public var date: Date

        public init(label: String, source: CatalogSource, date: Date) {
            self.label = label
            self.source = source
            self.date = date
        }

        /// 1 August (UTC) of the label's first year, when it starts with one ("2021-2022", "2019").
        public static func defaultDate(label: String) -> Date? {
            guard label.count >= 4, let year = Int(label.prefix(4)), (1900...9999).contains(year),
                  label.dropFirst(4).first.map({ !$0.isNumber }) ?? true else { return nil }
            return Timestamp.date(String(format: "%04d-08-01T00:00:00Z", year))
        }
    }

    public var catalog: CatalogConfig
    public var config: PipelineConfig
    public var editions: [Edition]
    /// Set the existing history aside (renamed, never deleted) and start again.
    public var rebuild = false

    public init(catalog: CatalogConfig, config: PipelineConfig, editions: [Edition]) {
        self.catalog = catalog
        self.config = config
        self.editions = editions
    }

    /// How a backfill ended: the editions it ran (after those an interrupted one had done), or where it stopped.
    public enum Outcome: Sendable {
        case done(ran: [String], skipped: [String], setAside: URL?)
        case refused(CatalogError)
        case stopped(edition: String, CatalogRun.Outcome)
    }

    /// The editions a backfill ran into `store`, oldest first, kept beside its snapshots.
    static func ranFile(_ store: SnapshotStore) -> URL { store.directory.appendingPathComponent("backfill.json") }

    /// nil for a history from before the file was kept.
    static func ranEditions(_ store: SnapshotStore) -> [String]? {
        (try? FileBytes.read(ranFile(store), limit: FileBytes.Limit.configuration)).flatMap { try? JSONFile.decode([String].self, from: $0) }
    }

    public func execute(log: RunLog, starting: (Int, Edition) -> Void = { _, _ in }) async -> Outcome {
        let store = config.outputs.store(for: catalog.id)
        let latest: Snapshot?
        do throws(SnapshotError) {
            latest = try store.latest()?.snapshot
        } catch {
            return .refused(CatalogError("\(error)", .invalidData))
        }
        var done = 0, setAside: URL?
        if latest != nil, rebuild {
            let aside = store.directory.deletingLastPathComponent()
                .appendingPathComponent("\(catalog.id).before-backfill-\(Timestamp.compact(Timestamp.string(Date())))")
            do {
                try FileManager.default.moveItem(at: store.directory, to: aside)
            } catch {
                return .refused(CatalogError("\(store.directory.path): cannot set the history aside: \(error.systemReason)", .cannotWrite))
            }
            setAside = aside
            log.info("backfill", "the previous history is kept at \(aside.path)")
            // What channels still lack is not history: it stays, to be announced by the next run.
            let outbox = aside.appendingPathComponent(Outbox.file(of: store).lastPathComponent)
            if FileManager.default.fileExists(atPath: outbox.path) {
                do {
                    try AtomicFile.makeDirectory(store.directory)
                    try FileManager.default.copyItem(at: outbox, to: Outbox.file(of: store))
                } catch {
                    return .refused(CatalogError("\(outbox.path): cannot carry the pending announcements over: \(error.systemReason)", .cannotWrite))
                }
            }
        } else if let latest {
            // A backfill cut short goes on after the last edition it committed, when it is run with the same editions
            // before it; any other history is refused.
            let ran = Self.ranEditions(store)
            guard let label = latest.edition, let index = editions.firstIndex(where: { $0.label == label }) else {
                return .refused(CatalogError("\(store.directory.path) already holds snapshots not made by this backfill "
                    + "(the newest: \(latest.edition.map { "edition \($0)" } ?? "a run of \(latest.capturedAt)")); "
                    + "rebuild to set them aside and start again", .invalidData))
            }
            let before = editions.prefix(index + 1).map(\.label)
            guard ran == nil || ran == before else {
                let never = before.filter { !(ran ?? []).contains($0) }
                return .refused(CatalogError("\(store.directory.path) holds the backfill of edition(s) \((ran ?? []).joined(separator: ", ")); "
                    + (never.isEmpty ? "these editions list them otherwise" : "edition(s) \(never.joined(separator: ", ")) never ran before \(label)")
                    + ": give the editions it ran, oldest first, then the rest, or rebuild to start again", .invalidData))
            }
            done = index + 1
        }
        for (index, edition) in editions.enumerated().dropFirst(done) {
            starting(index, edition)
            var catalog = catalog
            catalog.source = edition.source
            var config = config
            config.firestore = nil
            var run = CatalogRun(catalog: catalog, config: config, now: edition.date)
            run.edition = edition.label
            run.acceptRemovals = true
            var report = RunReport(catalog: catalog.id, startedAt: Timestamp.string(edition.date))
            let outcome = await run.execute(log: log, report: &report)
            guard case .committed = outcome else { return .stopped(edition: edition.label, outcome) }
            do {
                try AtomicFile.write(JSONFile.fileBytes(editions.prefix(index + 1).map(\.label)), to: Self.ranFile(store))
            } catch {
                return .stopped(edition: edition.label, .notCommitted(.cannotWrite(path: Self.ranFile(store).path, reason: "\(error)"), temporary: false))
            }
        }
        return .done(ran: editions.dropFirst(done).map(\.label), skipped: editions.prefix(done).map(\.label), setAside: setAside)
    }
}
