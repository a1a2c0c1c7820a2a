import Foundation

/// Why a run published nothing.
public enum CommitError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A guard failed: nothing was written.
    case refused([GuardViolation])
    /// The previous snapshot could not be read, or the new one could not be written.
    case snapshot(SnapshotError)
    /// The accumulated news file is not one: it is left as it is.
    case corruptNews(path: String, reason: String)
    /// An output could not be written (an unwritable directory, a full disk): no output was changed.
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case let .refused(violations):
            return "refused to publish; no snapshot or output was written and the previous ones are untouched:\n"
                + violations.map { "  - \($0)" }.joined(separator: "\n")
        case let .snapshot(error): return "\(error)"
        case let .corruptNews(path, reason):
            return "\(path): not a news file (\(reason)); it was left untouched: repair it or move it away (a fresh one is started then)"
        case let .cannotWrite(path, reason): return "\(path): cannot write: \(reason); no output or snapshot was changed"
        }
    }

    /// What overrides a refusal from the command line, if anything does.
    public var remedy: CatalogError.Remedy? {
        if case let .refused(violations) = self { violations.lazy.compactMap(\.remedy).first } else { nil }
    }

    public var cause: CatalogError.Cause {
        switch self {
        case .refused, .corruptNews, .snapshot(.corrupt): return .invalidData
        case .snapshot(.unreadable): return .missingInput
        case .snapshot(.cannotWrite), .cannotWrite: return .cannotWrite
        }
    }
}

/// What a committed run produced.
public struct CommitReport: Sendable {
    public var snapshot: Snapshot
    public var snapshotFile: URL
    /// The snapshot compared with; nil on a first run.
    public var previous: Snapshot?
    public var diff: CatalogDiff
    /// The items this run added to news.json.
    public var news: [NewsItem]
    public var digest: String
    /// A problem after the commit (pruning) that did not undo it.
    public var warnings: [String]
}

/// The end of a run, all or nothing: guards → snapshot → diff → news → outputs, the new snapshot written last as the
/// commit point. A run stopped before it leaves the previous snapshot the latest, so the next computes the same diff,
/// and as news ids depend on the course and the snapshot compared with, re-announced items duplicate nothing.
public struct NewsPipeline: Sendable {
    public var store: SnapshotStore
    public var outputDirectory: URL
    public var news: NewsSettings
    public var guards: GuardSettings
    public var keepSnapshots: Int
    /// A backfill's edition label: its snapshot is labelled so, and it announces nothing.
    public var edition: String?

    public init(store: SnapshotStore, outputDirectory: URL, news: NewsSettings = .defaults, guards: GuardSettings = .defaults,
                keepSnapshots: Int = OutputSettings.defaultKeepSnapshots) {
        self.store = store
        self.outputDirectory = outputDirectory
        self.news = news
        self.guards = guards
        self.keepSnapshots = keepSnapshots
    }

    public var catalogFile: URL { outputDirectory.appendingPathComponent("catalog.json") }
    public var newsFile: URL { outputDirectory.appendingPathComponent("news.json") }
    public var feedFile: URL { outputDirectory.appendingPathComponent("news.atom") }
    public func digestFile(_ catalogID: String) -> URL { outputDirectory.appendingPathComponent("digest-\(catalogID).md") }

    /// What a commit would do, without doing it: the previous and new snapshots, their diff, the guards tripped,
    /// and the previous snapshot's sequence number (0 for none).
    public func proposal(catalog: CatalogConfig, pages: PageCounts, courses: [Course], acceptRemovals: Bool, now: Date)
        throws(CommitError) -> (previous: Snapshot?, snapshot: Snapshot, diff: CatalogDiff, violations: [GuardViolation], sequence: Int) {
        let latest = try Result { () throws(SnapshotError) in try store.latest() }.mapError(CommitError.snapshot).get()
        let previous = latest?.snapshot
        let (snapshot, diff) = Snapshot.capture(catalogID: catalog.id, source: catalog.source.json, pages: pages, courses: courses,
                                                previous: previous, at: now, edition: edition,
                                                configuredEdition: catalog.edition)
        let violations = RunGuards.check(pages: pages, courseCount: snapshot.courses.count, previousCourseCount: previous?.courses.count,
                                         removedCount: diff.removed.count, settings: guards, acceptRemovals: acceptRemovals)
        return (previous, snapshot, diff, violations, latest?.entry.sequence ?? 0)
    }

    /// Commits a run's courses: guards, then outputs and snapshot, then pruning; throws, writing nothing, on failure.
    @discardableResult
    public func commit(catalog: CatalogConfig, pages: PageCounts, courses: [Course], acceptRemovals: Bool = false,
                       now: Date) throws(CommitError) -> CommitReport {
        try recoverInterruptedCommit()
        let (previous, snapshot, diff, violations, sequenceBefore) = try proposal(catalog: catalog, pages: pages, courses: courses,
                                                                                  acceptRemovals: acceptRemovals, now: now)
        guard violations.isEmpty else { throw .refused(violations) }

        let existing = try loadNews()
        let fresh = edition != nil ? [] : previous.map { NewsBuilder.items(diff: diff, previous: $0, current: snapshot, settings: news) } ?? []
        let all = NewsFile.merge(existing: existing, new: fresh)
        let known = Set(existing.map(\.id))
        let added = fresh.filter { !known.contains($0.id) }
        let digest = RunDigest.markdown(current: snapshot, previous: previous, diff: diff, news: added)

        // A killed run leaves temporaries beside the outputs; under the run lock none belongs to a write in progress.
        let names = [catalogFile, newsFile, feedFile, digestFile(catalog.id)].map(\.lastPathComponent) + ["run-report.json"]
        for leftover in AtomicFile.leftoverTemporaries(in: outputDirectory, of: names) { unlink(leftover.path) }
        var outputs = FileSet(journal: commitJournal)
        let entry: SnapshotStore.Entry
        do {
            try outputs.replace([
                (catalogFile, JSONFile.fileBytes(PublishedCatalog(catalog: catalog, snapshot: snapshot))),
                (newsFile, NewsFile.encoded(all)),
                (feedFile, Data(AtomFeed.render(all, settings: news, emptyUpdated: snapshot.capturedAt).utf8)),
                (digestFile(catalog.id), Data(digest.utf8)),
            ], note: .object(["store": .string(store.directory.path), "sequenceBefore": .int(sequenceBefore)]))
        } catch {
            throw .cannotWrite(path: error.path, reason: error.detail)
        }
        do {
            entry = try store.write(snapshot)
        } catch {
            outputs.restore()
            throw .snapshot(error)
        }
        outputs.finish()

        var warnings: [String] = []
        do {
            try store.prune(keeping: keepSnapshots)
        } catch {
            warnings.append("pruning old snapshots: \(error)")
        }
        return CommitReport(snapshot: snapshot, snapshotFile: entry.file, previous: previous, diff: diff, news: added, digest: digest,
                            warnings: warnings)
    }

    /// Written while the outputs are being renamed into place, removed once the snapshot (the commit point) is.
    public var commitJournal: URL { outputDirectory.appendingPathComponent(".gvingest-commit.json") }

    /// A run killed between the renames of its outputs leaves some new and some old: this puts back the previous
    /// versions when its snapshot was not written (so the run did not happen), or keeps the new ones when it
    /// was (only the clean-up was missed). Every commit starts with it, under the run lock.
    public func recoverInterruptedCommit() throws(CommitError) {
        do {
            try FileSet.recover(journal: commitJournal) { note in
                guard case let .object(fields) = note, case let .string(directory)? = fields["store"],
                      case let .int(before)? = fields["sequenceBefore"] else { return false }
                let latest = (try? SnapshotStore(directory: URL(fileURLWithPath: directory)).list().last?.sequence) ?? nil
                return (latest ?? 0) > before
            }
        } catch {
            throw .cannotWrite(path: error.path, reason: error.detail)
        }
    }

    /// The accumulated news; none when the file does not exist yet.
    public func loadNews() throws(CommitError) -> [NewsItem] {
        guard FileManager.default.fileExists(atPath: newsFile.path) else { return [] }
        return try Result { try NewsFile.decode(try FileBytes.read(newsFile, limit: FileBytes.Limit.document)) }.mapError {
            CommitError.corruptNews(path: newsFile.path, reason: ($0 as? FormatError)?.message ?? "cannot read: \($0)")
        }.get()
    }
}
