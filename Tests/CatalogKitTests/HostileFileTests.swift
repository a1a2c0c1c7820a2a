import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import CatalogKit

/// Crafted files and settings (issue 19): nothing outside the outputs is touched, and no setting or header value
/// reaches an arithmetic trap.
@Suite struct HostileFileTests {
    static func scratch(_ label: String = #function) throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("gvingest-hostile-\(label.filter(\.isLetter))-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func config(fetch: String) -> String {
        #"{"schemaVersion": 1, "catalogs": [{"id": "a", "name": "A", "system": "gvsu", "source": {"directory": "x"}}], "fetch": \#(fetch)}"#
    }

    // MARK: Reads (issue 31, item 4)

    @Test func aDeviceIsRefusedAndNotRead() {
        for path in ["/dev/zero", "/dev/urandom"] {
            let error = #expect(throws: FileBytes.ReadError.self) { try FileBytes.read(path: path, limit: FileBytes.Limit.page) }
            #expect(error?.description.contains("not a regular file") == true)
        }
    }

    @Test func aSparseFileLargerThanItsLimitIsRefusedFromItsSize() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("sparse.json")
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        #expect(truncate(file.path, 5 << 30) == 0)  // 5 GiB, none of it on disk
        let error = #expect(throws: FileBytes.ReadError.self) { try FileBytes.read(file, limit: FileBytes.Limit.document) }
        #expect(error?.description == "larger than 1024 MiB, the most gvingest reads from a file of this kind")
        let config = #expect(throws: PipelineConfig.Invalid.self) { try PipelineConfig.load(file) }
        #expect(config?.description.contains("larger than 16 MiB") == true, "\(String(describing: config))")
    }

    @Test func aFIFOWithoutAWriterReadsAsEmptyAtOnce() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("pipeline.json")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        #expect(try FileBytes.read(fifo, limit: FileBytes.Limit.configuration).isEmpty)
    }

    // MARK: Settings

    @Test func everyIntegerSettingHasARangeThatConfigCheckNames() {
        let fetch = "{" + FetchSettings.ranges.map { #""\#($0.key)": 9223372036854775807"# }.joined(separator: ", ") + "}"
        let found = PipelineConfigTests.issues(Self.config(fetch: fetch))
        for (key, _, range) in FetchSettings.ranges {
            #expect(found.contains("fetch.\(key): expected an integer from \(range.lowerBound) to \(range.upperBound), got 9223372036854775807"),
                    "\(found)")
        }
        let below = PipelineConfigTests.issues(Self.config(fetch: #"{"concurrency": 0, "retryAfterMaxSeconds": -1}"#))
        #expect(below.contains("fetch.concurrency: expected an integer from 1 to 256, got 0"))
        #expect(below.contains("fetch.retryAfterMaxSeconds: expected an integer from 0 to 3600, got -1"))
    }

    /// The integer settings outside `fetch` (issue 31): none takes Int.max, and each says its range.
    @Test func everyOtherIntegerSettingHasAnUpperBound() throws {
        let huge = "9223372036854775807"
        let found = PipelineConfigTests.issues(#"""
        {"schemaVersion": 1, "catalogs": [{"id": "a", "name": "A", "system": "gvsu", "source": {"directory": "x"}}],
         "normalize": {"levels": [{"from": 0, "to": \#(huge), "level": "graduate"}, {"from": \#(huge), "level": "doctoral"}]},
         "outputs": {"keepSnapshots": \#(huge)}, "guards": {"minimumCourses": \#(huge)},
         "publish": {"firestore": {"project": "gvcourse-app", "deadlineSeconds": \#(huge)}}}
        """#)
        #expect(found == ["normalize.levels[0].to: expected an integer from 0 to 999999, got \(huge)",
                          "normalize.levels[1].from: expected an integer from 0 to 999999, got \(huge)",
                          "outputs.keepSnapshots: expected an integer from 2 to 1000, got \(huge)",
                          "guards.minimumCourses: expected an integer from 0 to 1000000, got \(huge)",
                          "publish.firestore.deadlineSeconds: expected an integer from 1 to 86400, got \(huge)"])
        let largest = try PipelineConfig.parse(Data(#"""
        {"schemaVersion": 1, "catalogs": [{"id": "a", "name": "A", "system": "gvsu", "source": {"directory": "x"}}],
         "normalize": {"levels": [{"from": 999999, "to": 999999, "level": "graduate"}]}, "outputs": {"keepSnapshots": 1000},
         "guards": {"minimumCourses": 1000000}, "publish": {"firestore": {"project": "gvcourse-app", "deadlineSeconds": 86400}}}
        """#.utf8), file: PipelineConfigTests.base)
        #expect(largest.outputs.keepSnapshots == 1000 && largest.guards.minimumCourses == 1_000_000)
        #expect(largest.firestore?.deadlineSeconds == 86_400 && largest.normalize.levels?.first?.to == 999_999)
    }

    @Test func theLargestAllowedSettingsComputeWithoutOverflow() throws {
        let fetch = "{" + FetchSettings.ranges.map { #""\#($0.key)": \#($0.range.upperBound)"# }.joined(separator: ", ") + "}"
        let config = try PipelineConfig.parse(Data(Self.config(fetch: fetch).utf8), file: PipelineConfigTests.base)
        let fetcher = HTTPFetcher(settings: config.fetch)
        // The backoff of the last attempt with a server asking for the longest wait: finite, within a day.
        let wait = fetcher.backoff(attempt: config.fetch.maximumAttempts, retryAfter: RetryAfter.longest)
        #expect(wait.isFinite && wait <= RetryAfter.longest + 600)
        #expect(RetryAfter.nanoseconds(wait) > 0)
        #expect(RetryAfter.nanoseconds(.infinity) == RetryAfter.nanoseconds(RetryAfter.longest))
    }

    @Test func anAbsurdCrawlDelayIsClampedNotATrap() async {
        let policy = RobotsPolicy(parsing: "User-agent: *\nCrawl-delay: 1e300\n", userAgent: "gvingest/1")
        #expect(policy.crawlDelay == 1e300)
        let pacer = ConcurrencyGate(total: 1, perHost: 1)
        await pacer.setDelay(policy.crawlDelay ?? 0, for: "x.edu")
        await pacer.waitForTurn(host: "x.edu")
        // The second turn would wait "1e300 s": clamped to a day, and this task is cancelled at once.
        let waiting = Task { await pacer.waitForTurn(host: "x.edu") }
        waiting.cancel()
        await waiting.value
    }

    @Test func aByteOrderMarkBeforeTheConfigurationIsAccepted() throws {
        let text = "\u{FEFF}" + Self.config(fetch: "{}")
        #expect(Array(text.utf8).prefix(3) == [0xEF, 0xBB, 0xBF])
        let config = try PipelineConfig.parse(Data(text.utf8), file: PipelineConfigTests.base)
        #expect(config.catalogs.map(\.id) == ["a"])
    }

    @Test(arguments: [("99999999999999999999999", RetryAfter.longest), ("86401", RetryAfter.longest),
                      ("30", 30), ("Fri, 31 Dec 9999 23:59:59 GMT", RetryAfter.longest)])
    func retryAfterIsClampedBeforeAnyArithmetic(_ header: String, _ expected: Double) {
        #expect(RetryAfter.seconds(from: header) == expected)
    }

    @Test func retryAfterThatIsNotANumberOrADateIsIgnored() {
        // Delay-seconds are digits: "1e300" is not one (it is not a wait of 1e300 s either).
        #expect(RetryAfter.seconds(from: "1e300") == nil)
        #expect(RetryAfter.seconds(from: "-5") == nil)
        #expect(RetryAfter.seconds(from: "nan") == nil)
        #expect(RetryAfter.seconds(from: "inf") == nil)
    }

    // MARK: The run lock

    /// A file outside the outputs, and `link` making the lock's name point at it; the lock must refuse it,
    /// saying `why`, and leave it as it was.
    static func expectLockRefused(_ why: String, link: (String, String) throws -> Void) throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let victim = directory.appendingPathComponent("precious.txt")
        try Data("keep me".utf8).write(to: victim)
        let out = directory.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try link(victim.path, out.appendingPathComponent(".gvingest.lock").path)
        let error = #expect(throws: CatalogError.self) { _ = try RunLock(directory: out) }
        #expect(error?.cause == .cannotWrite && error?.description.contains(why) == true, "\(String(describing: error))")
        #expect(try String(contentsOf: victim, encoding: .utf8) == "keep me")
    }

    @Test func theLockDoesNotFollowASymbolicLinkNorTruncateItsTarget() throws {
        try Self.expectLockRefused("symbolic link") { try FileManager.default.createSymbolicLink(atPath: $1, withDestinationPath: $0) }
    }

    @Test func theLockDoesNotTruncateAHardLinkedFile() throws {
        try Self.expectLockRefused("hard links") { #expect(Glibc.link($0, $1) == 0) }
    }

    @Test func theLockStillWorksOnItsOwnFile() throws {
        let out = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: out) }
        do {
            let lock = try RunLock(directory: out)
            let busy = #expect(throws: CatalogError.self) { _ = try RunLock(directory: out) }
            #expect(busy?.cause == .temporary)
            withExtendedLifetime(lock) {}
        }
        // Released, and its own (now empty) file is taken again.
        _ = try RunLock(directory: out)
    }

    // MARK: Mirrors

    @Test func aMirrorPageThatIsASymbolicLinkOutsideTheMirrorIsRefused() async throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outside = directory.appendingPathComponent("secret.html")
        try Data("<html><body><h1>CS 101 - Secret</h1></body></html>".utf8).write(to: outside)
        let mirror = directory.appendingPathComponent("mirror")
        try FileManager.default.createDirectory(at: mirror.appendingPathComponent("pages"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: mirror.appendingPathComponent("pages/a.html").path, withDestinationPath: outside.path)
        try Data("<html>inside</html>".utf8).write(to: mirror.appendingPathComponent("pages/b.html"))
        try MirrorIndex(pages: ["https://c.edu/a": .init(file: "pages/a.html", status: 200, contentType: "text/html"),
                               "https://c.edu/b": .init(file: "pages/b.html", status: 200, contentType: "text/html"),
                               "https://c.edu/c": .init(file: "pages/missing.html", status: 200, contentType: "text/html")],
                        startURLs: ["https://c.edu/a"]).write(to: mirror)
        let source = try MirrorSource(directory: mirror)
        guard case let .failure(failure) = await source.fetch(try #require(URL(string: "https://c.edu/a"))) else {
            Issue.record("a page outside the mirror was read")
            return
        }
        #expect(failure.reason.contains("resolves outside the mirror"))
        guard case let .success(page) = await source.fetch(try #require(URL(string: "https://c.edu/b"))) else {
            Issue.record("a page inside the mirror was refused")
            return
        }
        #expect(page.body == Array("<html>inside</html>".utf8))
        // A file the index names but the mirror lacks is missing, not outside.
        guard case let .failure(missing) = await source.fetch(try #require(URL(string: "https://c.edu/c"))) else {
            Issue.record("a missing page was read")
            return
        }
        #expect(missing.reason.hasSuffix("pages/missing.html cannot be read: No such file or directory"), "\(missing.reason)")
    }

    // MARK: Temporary files and interrupted commits

    @Test func temporaryFilesOfAWriterThatIsGoneAreRecognised() throws {
        let exited = Process()
        exited.executableURL = URL(fileURLWithPath: "/bin/true")
        try exited.run()
        exited.waitUntilExit()
        #expect(AtomicFile.writerIsGone(".snapshot-000002-x.json.\(exited.processIdentifier).42.tmp"))
        #expect(!AtomicFile.writerIsGone(".snapshot-000002-x.json.\(ProcessInfo.processInfo.processIdentifier).42.tmp"))
        #expect(!AtomicFile.writerIsGone(".snapshot-000002-x.json.1.42.tmp"))
        #expect(!AtomicFile.writerIsGone("notes.tmp"))
    }

    /// The state a SIGKILL between two renames leaves (the first output new, the second old, the journal and the
    /// first's previous version beside them) is put back by the next commit when the snapshot was not written.
    @Test func anInterruptedReplaceIsRolledBackOrKept() throws {
        for keepNew in [false, true] {
            let directory = try Self.scratch()
            defer { try? FileManager.default.removeItem(at: directory) }
            let a = directory.appendingPathComponent("a.json"), b = directory.appendingPathComponent("b.json")
            let fresh = directory.appendingPathComponent("fresh.json")
            try Data("old a".utf8).write(to: a)
            try Data("old b".utf8).write(to: b)
            let journal = directory.appendingPathComponent(".journal.json")
            var files = FileSet(journal: journal)
            try files.replace([(a, Data("new a".utf8)), (b, Data("new b".utf8)), (fresh, Data("new".utf8))], note: .int(7))
            // Undo the second rename by hand: as if killed after the first.
            #expect(FileManager.default.fileExists(atPath: journal.path))
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            let backupOfB = try #require(names.first { $0.hasPrefix(".b.json.") })
            #expect(rename(directory.appendingPathComponent(backupOfB).path, b.path) == 0)
            var noted: JSONValue?
            #expect(try FileSet.recover(journal: journal) { noted = $0; return keepNew })
            #expect(noted == .int(7))
            #expect(try String(contentsOf: a, encoding: .utf8) == (keepNew ? "new a" : "old a"))
            #expect(try String(contentsOf: b, encoding: .utf8) == "old b")
            #expect(FileManager.default.fileExists(atPath: fresh.path) == keepNew)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".") }.isEmpty)
            #expect(try !FileSet.recover(journal: journal) { _ in true })
        }
    }

    /// A journal's files are found by name beside it: one naming a file elsewhere (edited by hand, or planted) touches
    /// only the file of that name in its own folder, one naming a hidden file (the lock) is refused and left for a
    /// person, and a journal written through another spelling of the folder (a link) still settles its commit.
    @Test func aJournalReachesOnlyTheFilesBesideIt() throws {
        let directory = try Self.scratch(), elsewhere = try Self.scratch()
        defer { for folder in [directory, elsewhere] { try? FileManager.default.removeItem(at: folder) } }
        let victim = elsewhere.appendingPathComponent("victim.txt"), lock = directory.appendingPathComponent(".gvingest.lock")
        for url in [victim, lock] { try Data("kept".utf8).write(to: url) }
        let journal = directory.appendingPathComponent(".journal.json")
        func write(_ target: URL, _ backup: URL) throws {
            let file = JSONValue.object(["target": .string(target.path), "backup": .string(backup.path), "existed": .bool(false)])
            try Data(JSONValue.object(["files": .array([file]), "note": .null]).serialized().utf8).write(to: journal)
        }
        try write(victim, elsewhere.appendingPathComponent(".victim.txt.1.2.tmp"))
        #expect(try FileSet.recover(journal: journal) { _ in false })
        #expect(FileManager.default.fileExists(atPath: victim.path) && !FileManager.default.fileExists(atPath: journal.path))
        try write(lock, directory.appendingPathComponent(".gvingest.lock.1.2.tmp"))
        #expect(throws: FileWriteError.self) { try FileSet.recover(journal: journal) { _ in false } }
        #expect(FileManager.default.fileExists(atPath: lock.path) && FileManager.default.fileExists(atPath: journal.path))
        unlink(journal.path)

        // A commit killed after its first rename, its journal written through a link to the folder.
        let link = elsewhere.appendingPathComponent("out")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: directory.path)
        let output = directory.appendingPathComponent("catalog.json")
        try Data("old".utf8).write(to: output)
        var files = FileSet(journal: link.appendingPathComponent(".journal.json"))
        try files.replace([(link.appendingPathComponent("catalog.json"), Data("new".utf8))])
        #expect(try FileSet.recover(journal: journal) { _ in false })
        #expect(try String(contentsOf: output, encoding: .utf8) == "old")
    }
}
