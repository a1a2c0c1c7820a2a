import CatalogKit
import Foundation
import LoopbackServer
import Testing

/// `gvingest shards`, `run --all` and `run --shard` through the binary: each catalog into its own folder, the shard's
/// exit status the most urgent of its catalogs', and a shard run again going on where it stopped.
@Suite(.serialized) struct ShardRunTests {
    /// Three catalogs: the recorded GVSU mirror (publishes), a folder of pages with no course (a guard refuses: 65),
    /// and a loopback port nothing listens on (the source is down: 75).
    static func project(downPort: UInt16) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-shard-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("empty"), withIntermediateDirectories: true)
        try Data("<html><body><p>No courses here.</p></body></html>".utf8).write(to: root.appendingPathComponent("empty/page.html"))
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("gvsu"),
                                                   withDestinationURL: Binary.fixtures.appendingPathComponent("gvsu"))
        try Data("""
        {"schemaVersion": 1, "catalogs": [
          {"id": "good", "name": "Good", "system": "gvsu", "source": {"replay": "gvsu"}},
          {"id": "refused", "name": "Refused", "system": "gvsu", "source": {"directory": "empty"}},
          {"id": "down", "name": "Down", "system": "gvsu", "source": {"http": {"startUrls": ["http://127.0.0.1:\(downPort)/s.htm"]}}}],
         "fetch": {"maxAttempts": 1, "minimumDelayMs": 0},
         "outputs": {"directory": "out"}}
        """.utf8).write(to: root.appendingPathComponent("pipeline.json"))
        return root
    }

    static func report(_ root: URL, _ name: String) throws -> ShardReport {
        try JSONFile.decode(ShardReport.self, from: Data(contentsOf: root.appendingPathComponent("out/\(name)")))
    }

    @Test func theShardExitsWithTheMostUrgentStatusAndARunAgainRetriesOnlyWhatWasWorthIt() async throws {
        // A port taken and given back: nothing listens there.
        let closed = try LoopbackHTTPServer()
        let port = closed.port
        closed.stop()
        let root = try Self.project(downPort: port)
        defer { try? FileManager.default.removeItem(at: root) }

        let plan = try await Binary.run(["shards", "--count", "3"], in: root)
        #expect(plan.status == 0, "\(plan.stderr)")
        #expect(plan.stdout.contains("127.0.0.1:\(port) (down)"), "\(plan.stdout)")

        let first = try await Binary.run(["run", "--all"], in: root)
        #expect(first.status == 75, "75 outranks the guard's 65: \(first.stderr)")
        let report = try Self.report(root, "shards/0-of-1/shard-report.json")
        #expect(report.exitStatus == 75 && report.finishedAt != nil)
        #expect(Dictionary(uniqueKeysWithValues: report.catalogs.map { ($0.id, $0.exitStatus) }) == ["good": 0, "refused": 65, "down": 75])
        // Each catalog its own folder, lock and report; the published one its catalog.json.
        for id in ["good", "refused", "down"] {
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("out/\(id)/run-report.json").path), "\(id)")
        }
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("out/good/catalog.json").path))
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("out/refused/catalog.json").path))

        // Interrupted as a killed worker leaves it (no end written), the shard runs again: only the catalog worth
        // retrying runs; the others keep their outcome, and the status is now the guard's.
        var interrupted = report
        interrupted.finishedAt = nil
        try AtomicFile.write(JSONFile.fileBytes(interrupted), to: root.appendingPathComponent("out/shards/0-of-1/shard-report.json"))
        // The source is back (the catalog now replays the mirror).
        let config = try String(contentsOf: root.appendingPathComponent("pipeline.json"), encoding: .utf8)
        try Data(config.replacingOccurrences(of: #"{"http": {"startUrls": ["http://127.0.0.1:\#(port)/s.htm"]}}"#, with: #"{"replay": "gvsu"}"#).utf8)
            .write(to: root.appendingPathComponent("pipeline.json"))
        let goodReport = try Data(contentsOf: root.appendingPathComponent("out/good/run-report.json"))
        let again = try await Binary.run(["run", "--shard", "0/1", "--report", "-"], in: root)
        #expect(again.status == 65, "\(again.stderr)")
        #expect(again.stderr.contains("2 catalog(s) already ran and are not run again"), "\(again.stderr)")
        #expect(try Data(contentsOf: root.appendingPathComponent("out/good/run-report.json")) == goodReport)
        let resumed = try JSONFile.decode(ShardReport.self, from: Data(again.stdout.utf8))
        #expect(resumed.resumedFrom == report.startedAt)
        #expect(resumed.catalogs.map(\.id) == ["down", "good", "refused"])

        // index.json over the three, the one that never published with its outcome.
        let index = try await Binary.run(["index"], in: root)
        #expect(index.status == 0, "\(index.stderr)")
        let merged = try JSONFile.decode(CatalogIndex.self, from: Data(contentsOf: root.appendingPathComponent("out/index.json")))
        #expect(merged.catalogs.map(\.id) == ["down", "good", "refused"])
        #expect(merged.catalogs.map(\.exitStatus) == [0, 0, 65])
        #expect(merged.catalogs.map(\.name) == ["Down", "Good", "Refused"])
        #expect(merged.catalogs[1].courseCount > 0 && merged.catalogs[1].lastSuccess != nil && merged.catalogs[2].lastSuccess == nil)
        let site = root.appendingPathComponent("site")
        let landing = try await Binary.run(["site", "--index", "out/index.json", "--out", site.path], in: root)
        #expect(landing.status == 0, "\(landing.stderr)")
        let html = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(html.contains("<a href=\"good/index.html\">Good</a>"))
        #expect(html.contains("<td>Refused</td>") && html.contains("(exit 65)"))
    }

    @Test func shardUsageMistakesAreUsageErrors() async throws {
        let root = try Self.project(downPort: 9)
        defer { try? FileManager.default.removeItem(at: root) }
        for (words, message) in [(["run", "--shard", "3/3"], "--shard must be I/N with 0 ≤ I < N ≤ 10000, not '3/3'"),
                                 (["run", "--shard", "index/3"], "--shard index/3 reads JOB_COMPLETION_INDEX, which is not set"),
                                 (["run", "--all", "--catalog", "good"], "--catalog is for one catalog"),
                                 (["run", "--all", "--shard", "0/2"], "--all is --shard 0/1; give one of them"),
                                 (["shards"], "--count N is needed"),
                                 (["shards", "--count", "0"], "--count must be a whole number from 1 to 10000, not '0'")] {
            let outcome = try await Binary.run(words, in: root, environment: ["JOB_COMPLETION_INDEX": ""])
            #expect(outcome.status == 64, "\(words)")
            #expect(outcome.stderr.contains(message), "\(words): \(outcome.stderr)")
        }
    }
}
