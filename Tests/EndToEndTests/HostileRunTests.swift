import CatalogKit
import Foundation
import LoopbackServer
import Testing

/// Whole runs against hostile servers and killed writers (issue 19), through the built binary.
@Suite(.serialized) struct HostileRunTests {
    static func config(_ server: LoopbackHTTPServer, in root: URL, fetch: String) throws -> URL {
        let config = root.appendingPathComponent("pipeline.json")
        try Data("""
        {"schemaVersion": 1,
         "catalogs": [{"id": "loopback", "name": "CIS on 127.0.0.1", "system": "gvsu",
                       "source": {"http": {"startUrls": ["\(server.baseURLString)\(RunCommandTests.listingPath)"]}}}],
         "fetch": \(fetch),
         "outputs": {"directory": "out"}, "guards": {"minimumCourses": 10, "allowFailedPages": true}}
        """.utf8).write(to: config)
        return config
    }

    /// A server that sends its pages a byte a second holds the run no longer than its deadline: it stops with 75,
    /// one line saying how many pages were left, the run report listing them, the lock released and the previous
    /// outputs as they were, even though failed pages are allowed.
    @Test func aRunThatReachesItsDeadlineStopsWith75AndPublishesNothing() async throws {
        let server = try LoopbackHTTPServer()
        server.start()
        defer { server.stop() }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-deadline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let site = try RunCommandTests.version1(server)
        server.setResources(site)
        let fetch = #"{"minimumDelayMs": 0, "maxAttempts": 4, "requestTimeoutSeconds": 600, "deadlineSeconds": 3, "retryAfterMaxSeconds": 3600}"#
        // The first, healthy run has a minute: a loaded machine running every suite under a sanitizer may take more
        // than 3 s over the whole site.
        let healthyFetch = fetch.replacingOccurrences(of: #""deadlineSeconds": 3"#, with: #""deadlineSeconds": 60"#)
        try #require(healthyFetch != fetch, "the healthy run's deadline was not raised")
        var config = try Self.config(server, in: root, fetch: healthyFetch)
        let out = root.appendingPathComponent("out")
        let good = try await Binary.run(["run", "--config", config.path, "--quiet"])
        #expect(good.status == 0, "\(good.stderr)")
        config = try Self.config(server, in: root, fetch: fetch)
        let catalog = try Data(contentsOf: out.appendingPathComponent("catalog.json"))
        let news = try Data(contentsOf: out.appendingPathComponent("news.json"))

        // Course pages drip a byte a second, headers of one drip too, and one asks to be retried in an hour.
        for path in site.keys where path.hasPrefix("/catalog/course/") {
            server.setFault(.slowDrip(bytesPerChunk: 1, interval: 1), for: path)
        }
        server.setFault(.headerDrip(interval: 1), for: "/catalog/course/cis-162.htm")
        server.setFault(.tooManyRequests(retryAfter: "3600", times: .max), for: "/catalog/course/cis-150.htm")
        let slow = try await Binary.run(["run", "--config", config.path, "--quiet"])
        let took = slow.seconds
        #expect(slow.status == 75, "\(slow.stderr)")
        // Generous: the deadline is 3 s and a request's own timeout 600 s; stopping takes a moment, and every
        // suite runs at once on two cores.
        #expect(took < 120, "took \(took) s")
        let deadlineLines = slow.stderr.split(separator: "\n").filter { $0.contains("deadline") }
        #expect(deadlineLines.count == 1, "\(slow.stderr)")
        #expect(deadlineLines.first?.contains("15 page(s) not fetched") == true, "\(slow.stderr)")
        #expect(try Data(contentsOf: out.appendingPathComponent("catalog.json")) == catalog)
        #expect(try Data(contentsOf: out.appendingPathComponent("news.json")) == news)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run-report.json")))
            as? [String: Any])
        #expect((report["outcome"] as? String)?.hasPrefix("deadline reached") == true, "\(report)")
        #expect(report["exitStatus"] as? Int == 75)
        #expect((report["unfetchedAtDeadline"] as? [String])?.count == 15)

        // The lock was released: the next run, on a mended server, publishes.
        server.clearAllFaults()
        let again = try await Binary.run(["run", "--config", config.path, "--quiet"])
        #expect(again.status == 0, "\(again.stderr)")
    }

    /// A writer killed with SIGKILL while its outputs are being renamed into place (its commit journal exists)
    /// leaves them mixed at worst; the next commit puts them back together: the catalog and the news agree with
    /// the newest snapshot and nothing temporary is left.
    @Test func aKillBetweenTheRenamesIsRepairedByTheNextRun() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-renames-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let pipeline = NewsPipeline(store: SnapshotStore(directory: out.appendingPathComponent("snapshots")), outputDirectory: out)
        let (_, killedMidCommit, _) = try SnapshotCrashTests.killHelper(["commit-loop", out.path, "--courses", "3000"],
                                                                        after: "committed 3001\n") {
            FileManager.default.fileExists(atPath: pipeline.commitJournal.path)
        }
        #expect(killedMidCommit, "never saw a commit in progress")

        try pipeline.recoverInterruptedCommit()
        #expect(!FileManager.default.fileExists(atPath: pipeline.commitJournal.path))
        let latest = try #require(try pipeline.store.latest())
        let catalog = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: pipeline.catalogFile)) as? [String: Any])
        #expect((catalog["courses"] as? [Any])?.count == latest.snapshot.courses.count)
        // Every commit after the first announced its one new course.
        #expect(try pipeline.loadNews().count == latest.entry.sequence - 1)
        // A snapshot write it was killed in is cleaned up at once: its writer is gone.
        _ = try pipeline.store.prune(keeping: 1_000_000)
        #expect(SnapshotCrashTests.temporaries(pipeline.store.directory).isEmpty)
    }
}
