import Foundation
import Testing
@testable import CatalogKit

/// `NewsPipeline.commit`: guards that fail closed, all-or-nothing writes, idempotent re-runs.
@Suite struct NewsPipelineTests {
    typealias Support = SnapshotTestSupport
    static let day: TimeInterval = 86_400
    static let t1 = Date(timeIntervalSince1970: 1_725_170_400) // 2024-09-01T06:00:00Z

    static let baseline = (0..<20).map { Support.course("CIS \(100 + $0)", title: "Course \($0)", description: "Topic \($0). More.") }
    static let grown = baseline + [Support.course("CIS 380", title: "Machine Learning", description: "Models. From data.")]

    static func pipeline(_ root: URL, guards: GuardSettings = GuardSettings(), keep: Int = 10) -> NewsPipeline {
        NewsPipeline(store: SnapshotStore(directory: root.appendingPathComponent("snapshots/test")), outputDirectory: root.appendingPathComponent("out"),
                     news: NewsSettings(featuredSubjects: ["CIS"], feedTitle: "Test news", feedID: "urn:gvingest:test:news"),
                     guards: guards, keepSnapshots: keep)
    }

    /// Every file under `root` with its bytes.
    static func tree(_ root: URL) -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        while let path = enumerator?.nextObject() as? String {
            if let data = FileManager.default.contents(atPath: root.appendingPathComponent(path).path) { files[path] = data }
        }
        return files
    }

    @Test func aFirstRunWritesTheBaselineAndNoNews() throws {
        let root = try Support.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let pipeline = Self.pipeline(root)
        let report = try pipeline.commit(catalog: Support.catalog, pages: Support.pages, courses: Self.baseline, now: Self.t1)
        #expect(report.previous == nil)
        #expect(report.news.isEmpty)
        #expect(report.snapshotFile.lastPathComponent == "snapshot-000001-20240901T060000Z.json")
        #expect(try SnapshotStore.load(report.snapshotFile).courses.count == 20)
        #expect(try pipeline.loadNews().isEmpty)
        #expect(try String(contentsOf: pipeline.digestFile("test"), encoding: .utf8).contains("first snapshot"))
        #expect(try String(contentsOf: pipeline.feedFile, encoding: .utf8).contains("<updated>2024-09-01T06:00:00Z</updated>"))
    }

    @Test func aSecondRunAnnouncesNewCoursesAndARerunDuplicatesNothing() throws {
        let root = try Support.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let pipeline = Self.pipeline(root)
        try pipeline.commit(catalog: Support.catalog, pages: Support.pages, courses: Self.baseline, now: Self.t1)
        let second = try pipeline.commit(catalog: Support.catalog, pages: Support.pages, courses: Self.grown, now: Self.t1 + Self.day)
        #expect(second.news.map(\.title) == ["New course: CIS 380 — Machine Learning"])
        #expect(second.news.first?.featured == true)
        let news = try FileBytes.read(pipeline.newsFile, limit: FileBytes.Limit.document), feed = try FileBytes.read(pipeline.feedFile, limit: FileBytes.Limit.document)

        // The same input again: no change, no new item, the same news and feed bytes.
        let third = try pipeline.commit(catalog: Support.catalog, pages: Support.pages, courses: Self.grown.reversed(), now: Self.t1 + 2 * Self.day)
        #expect(third.diff.isEmpty)
        #expect(third.news.isEmpty)
        #expect(try FileBytes.read(pipeline.newsFile, limit: FileBytes.Limit.document) == news)
        #expect(try FileBytes.read(pipeline.feedFile, limit: FileBytes.Limit.document) == feed)
        #expect(try pipeline.loadNews().count == 1)
        #expect(try pipeline.store.list().count == 3)
        #expect(third.digest.contains("No changes."))
    }

    /// A run killed between writing its outputs and finishing leaves hidden temporaries (and previous versions)
    /// beside them; the next run removes those of its own outputs and nothing else.
    @Test func aKilledRunsLeftoversAreRemovedByTheNext() throws {
        let root = try Support.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let pipeline = Self.pipeline(root)
        try pipeline.commit(catalog: Support.catalog, pages: Support.pages, courses: Self.baseline, now: Self.t1)
        let out = root.appendingPathComponent("out")
        let leftovers = [".catalog.json.123.456.tmp", ".news.json.123.789.tmp", ".run-report.json.9.9.tmp"]
        let others = [".someone-else.json.1.2.tmp", "notes.tmp"]
        for name in leftovers + others { try Data("x".utf8).write(to: out.appendingPathComponent(name)) }
        try pipeline.commit(catalog: Support.catalog, pages: Support.pages, courses: Self.grown, now: Self.t1 + Self.day)
        let remaining = Set(try FileManager.default.contentsOfDirectory(atPath: out.path))
        #expect(remaining.isDisjoint(with: leftovers))
        #expect(remaining.isSuperset(of: others))
        #expect(!remaining.contains { $0.hasPrefix(".") && $0.hasSuffix(".tmp") && !others.contains($0) })
    }

    @Test func theSameInputsGiveTheSameBytes() throws {
        let roots = [try Support.scratchDirectory("a"), try Support.scratchDirectory("b")]
        defer { for root in roots { try? FileManager.default.removeItem(at: root) } }
        for root in roots {
            let pipeline = Self.pipeline(root)
            try pipeline.commit(catalog: Support.catalog, pages: Support.pages, courses: Self.baseline, now: Self.t1)
            try pipeline.commit(catalog: Support.catalog, pages: Support.pages, courses: Self.grown, now: Self.t1 + Self.day)
        }
        let first = Self.tree(roots[0]), second = Self.tree(roots[1])
        #expect(first.count == 6) // two snapshots, catalog.json, news.json, news.atom, the digest
        #expect(first == second)
    }

    /// A run stopped after its outputs but before its snapshot: the next run redoes the same step.
    @Test func redoingAStepWhoseSnapshotWasLostDuplicatesNoNews() throws {
        let root = try Support.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let pipeline = Self.pipeline(root)
        try pipeline.commit(catalog: Support.catalog, pages: Support.pages, courses: Self.baseline, now: Self.t1)
        let step = try pipeline.commit(catalog: Support.catalog, pages: Support.pages, courses: Self.grown, now: Self.t1 + Self.day)
        let news = try FileBytes.read(pipeline.newsFile, limit: FileBytes.Limit.document)
        try FileManager.default.removeItem(at: step.snapshotFile)
        let redo = try pipeline.commit(catalog: Support.catalog, pages: Support.pages, courses: Self.grown, now: Self.t1 + 2 * Self.day)
        #expect(redo.diff.added.map(\.id) == ["cis-380"])
        #expect(redo.news.isEmpty)
        #expect(try FileBytes.read(pipeline.newsFile, limit: FileBytes.Limit.document) == news)
    }

    @Test func failedPagesTooFewCoursesAndMassRemovalsWriteNothing() throws {
        let root = try Support.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let pipeline = Self.pipeline(root, guards: GuardSettings(minimumCourses: 10))
        try pipeline.commit(catalog: Support.catalog, pages: Support.pages, courses: Self.grown, now: Self.t1)
        let before = Self.tree(root)

        func refusal(_ pages: PageCounts, _ courses: [Course], accept: Bool = false) -> String {
            do {
                try pipeline.commit(catalog: Support.catalog, pages: pages, courses: courses, acceptRemovals: accept, now: Self.t1 + Self.day)
                return "committed"
            } catch {
                guard case let .refused(violations) = error else { return "another error: \(error)" }
                #expect(error.cause == .invalidData)
                // Only the removal guard has a command-line override; the others name their settings.
                let removals = violations.contains { if case .tooManyRemovals = $0 { true } else { false } }
                #expect(error.remedy == (removals ? .acceptRemovals : nil))
                return error.description
            }
        }
        let failed = refusal(PageCounts(expected: 3, fetched: 2, failed: 1), Self.grown)
        #expect(failed.contains("1 of 3 pages could not be fetched") && failed.contains("guards.allowFailedPages"), "\(failed)")
        let few = refusal(Support.pages, Array(Self.grown.prefix(5)))
        #expect(few.contains("only 5 courses found, fewer than guards.minimumCourses (10)"), "\(few)")
        #expect(few.contains("16 of 21 courses (76.2 %) would be removed"), "\(few)")
        let removals = refusal(Support.pages, Array(Self.grown.prefix(18)))
        #expect(removals.contains("3 of 21 courses (14.3 %) would be removed, more than guards.maximumRemovalFraction allows (10 %)"))
        #expect(removals.contains("if the removals are real, accept them"))
        #expect(removals.contains("no snapshot or output was written"))
        #expect(Self.tree(root) == before)

        // Told to accept them, the same run commits.
        #expect(refusal(Support.pages, Array(Self.grown.prefix(18)), accept: true) == "committed")
        #expect(try pipeline.store.list().count == 2)
    }

    @Test func aCorruptPreviousSnapshotOrNewsFileStopsTheRunUntouched() throws {
        let root = try Support.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let pipeline = Self.pipeline(root)
        let first = try pipeline.commit(catalog: Support.catalog, pages: Support.pages, courses: Self.baseline, now: Self.t1)
        try Data("{\"schemaVersion\": 1, \"cour".utf8).write(to: first.snapshotFile)
        let before = Self.tree(root)
        let error = #expect(throws: CommitError.self) {
            try pipeline.commit(catalog: Support.catalog, pages: Support.pages, courses: Self.grown, now: Self.t1 + Self.day)
        }
        #expect(error?.description.contains(first.snapshotFile.path) == true)
        #expect(error?.cause == .invalidData)
        #expect(Self.tree(root) == before)

        try FileManager.default.removeItem(at: first.snapshotFile)
        try pipeline.commit(catalog: Support.catalog, pages: Support.pages, courses: Self.baseline, now: Self.t1)
        try Data("[]".utf8).write(to: pipeline.newsFile)
        let news = #expect(throws: CommitError.self) {
            try pipeline.commit(catalog: Support.catalog, pages: Support.pages, courses: Self.grown, now: Self.t1 + Self.day)
        }
        #expect(news?.description.contains("news.json: not a news file") == true)
        #expect(try FileBytes.read(pipeline.newsFile, limit: FileBytes.Limit.document) == Array("[]".utf8))
        #expect(try pipeline.store.list().count == 1)
    }

    @Test func whenTheSnapshotCannotBeWrittenTheOutputsArePutBack() throws {
        let root = try Support.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        // The store's directory is a link to nowhere: it lists as empty, and the snapshot write fails after
        // the outputs are written.
        try FileManager.default.createDirectory(at: root.appendingPathComponent("snapshots"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("snapshots/test").path,
                                                   withDestinationPath: root.appendingPathComponent("nowhere/at/all").path)
        let pipeline = Self.pipeline(root)
        try FileManager.default.createDirectory(at: pipeline.outputDirectory, withIntermediateDirectories: true)
        try Data("old feed".utf8).write(to: pipeline.feedFile)
        let error = #expect(throws: CommitError.self) {
            try pipeline.commit(catalog: Support.catalog, pages: Support.pages, courses: Self.baseline, now: Self.t1)
        }
        // The snapshot write is what failed, so the outputs before it had been written, then put back.
        if case .snapshot(.cannotWrite)? = error {} else { Issue.record("expected the snapshot write to fail, got \(String(describing: error))") }
        #expect(error?.cause == .cannotWrite)
        #expect(try String(contentsOf: pipeline.feedFile, encoding: .utf8) == "old feed")
        #expect(!FileManager.default.fileExists(atPath: pipeline.newsFile.path))
        #expect(!FileManager.default.fileExists(atPath: pipeline.digestFile("test").path))
    }

    @Test func oldSnapshotsArePrunedAfterARun() throws {
        let root = try Support.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let pipeline = Self.pipeline(root, keep: 2)
        for run in 0..<4 {
            try pipeline.commit(catalog: Support.catalog, pages: Support.pages, courses: Self.baseline,
                                now: Self.t1 + Double(run) * Self.day)
            #expect(try pipeline.store.list().count == min(run + 1, 2))
        }
        #expect(try pipeline.store.list().map(\.sequence) == [3, 4])
    }

    @Test(arguments: [(2, 20, false, true), (3, 20, false, false), (3, 20, true, true), (0, 0, false, true), (1, 10, false, true)])
    func theRemovalGuardAllowsUpToItsFraction(_ removed: Int, _ previous: Int, _ accept: Bool, _ allowed: Bool) {
        let violations = RunGuards.check(pages: Support.pages, courseCount: 100, previousCourseCount: previous, removedCount: removed,
                                         settings: GuardSettings(), acceptRemovals: accept)
        #expect(violations.isEmpty == allowed, "\(violations)")
    }

    @Test func aFirstRunHasNoRemovalGuardButTheOthers() {
        let violations = RunGuards.check(pages: PageCounts(expected: 4, fetched: 3, failed: 1), courseCount: 0, previousCourseCount: nil,
                                         removedCount: 0, settings: GuardSettings(), acceptRemovals: false)
        #expect(violations == [.failedPages(failed: 1, expected: 4), .tooFewCourses(found: 0, minimum: 1)])
        #expect(RunGuards.check(pages: PageCounts(expected: 4, fetched: 3, failed: 1), courseCount: 5, previousCourseCount: nil, removedCount: 0,
                                settings: GuardSettings(allowFailedPages: true), acceptRemovals: false).isEmpty)
    }
}
