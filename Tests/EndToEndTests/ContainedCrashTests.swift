import CatalogKit
import Foundation
import LoopbackServer
import Testing

/// FoundationNetworking stops the process on a connection that ends after its status line (swift-corelibs-foundation
/// issue 5285); the supervisor contains it (issue 31, item 1).
@Suite(.serialized) struct ContainedCrashTests {
    final class Site {
        let server: LoopbackHTTPServer
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-contained-\(UUID().uuidString)")
        let config: URL
        var out: URL { root.appendingPathComponent("out") }

        init() throws {
            server = try LoopbackHTTPServer()
            server.start()
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            server.setResources(try RunCommandTests.version1(server))
            config = try HostileRunTests.config(server, in: root, fetch: #"{"minimumDelayMs": 0, "deadlineSeconds": 120}"#)
        }

        deinit {
            server.stop()
            try? FileManager.default.removeItem(at: root)
        }

        func report() throws -> [String: Any] {
            let data = try Data(contentsOf: out.appendingPathComponent("run-report.json"))
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
    }

    static let page = "/catalog/course/cis-162.htm"

    /// The crash itself, unsupervised: when this test fails, the toolchain has the fix and `Supervisor` can go.
    @Test func unsupervisedTheToolchainStillCrashes() async throws {
        let site = try Site()
        site.server.setFault(.statusLineThenClose(times: .max), for: Self.page)
        let outcome = try await Binary.run(["run", "--config", site.config.path, "--quiet"],
                                           environment: ["GVINGEST_SUPERVISED": "1", "SWIFT_BACKTRACE": "enable=no"])
        #expect(outcome.status == SIGILL, "\(outcome.stderr)")  // the signal, as Process reports it
        #expect(outcome.stderr.contains("Transfer completed, but there's no response"))
    }

    /// A page whose connection breaks so once: the run starts again, fetches that page alone, and publishes it all.
    @Test func aCrashOnceIsARestartAndACompleteRun() async throws {
        let site = try Site()
        site.server.setFault(.statusLineThenClose(times: 1), for: Self.page)
        let outcome = try await Binary.run(["run", "--config", site.config.path, "--quiet"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("issue 5285); starting again"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains(Self.page))
        #expect((try site.report()["failedPages"] as? [Any])?.isEmpty == true)
        let catalog = try String(contentsOf: site.out.appendingPathComponent("catalog.json"), encoding: .utf8)
        #expect(catalog.contains("\"CIS 162\""))
    }

    /// A page whose connection always breaks so: after two crashes it is a failed page, and the run ends on its own
    /// terms with its report (failed pages are allowed here, so it publishes the rest).
    @Test func aPageThatAlwaysCrashesBecomesAFailedPage() async throws {
        let site = try Site()
        site.server.setFault(.statusLineThenClose(times: .max), for: Self.page)
        let outcome = try await Binary.run(["run", "--config", site.config.path, "--quiet"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.components(separatedBy: "starting again").count - 1 == 2, "\(outcome.stderr)")
        let report = try site.report()
        let failed = try #require(report["failedPages"] as? [[String: Any]], "\(report)")
        #expect(failed.count == 1)
        #expect((failed.first?["url"] as? String)?.hasSuffix(Self.page) == true)
        #expect((failed.first?["reason"] as? String)?.contains("5285") == true)
    }

    /// A Firestore whose connections end after the status line no longer stops the process (Firestore talks through
    /// libcurl): the stage fails at its deadline with 75, the outputs stand, and the report says so.
    @Test func aRunWhoseFirestoreBreaksItsConnectionsKeepsItsOutputsAndReport() async throws {
        let site = try Site()
        try FileManager.default.createSymbolicLink(at: site.root.appendingPathComponent("pages"),
                                                   withDestinationURL: Binary.fixtures.appendingPathComponent("gvsu"))
        let config = site.root.appendingPathComponent("firestore.json")
        try Data("""
        {"schemaVersion": 1, "catalogs": [{"id": "gvsu", "name": "GVSU", "system": "gvsu", "source": {"directory": "pages"}}],
         "outputs": {"directory": "out"}, "publish": {"firestore": {"project": "demo-crash", "deadlineSeconds": 3}}}
        """.utf8).write(to: config)
        site.server.setFault(.statusLineThenClose(times: .max), for: LoopbackHTTPServer.allPaths)
        let outcome = try await Binary.run(["run", "--config", config.path, "--quiet"],
                                           environment: ["FIRESTORE_EMULATOR_HOST": "127.0.0.1:\(site.server.port)"])
        #expect(outcome.status == 75 && !outcome.stderr.contains("5285"), "\(outcome.stderr)")
        let report = try site.report()
        #expect((report["stages"] as? [[String: Any]])?.contains { $0["name"] as? String == RunReport.commitStage } == true)
        #expect((report["outcome"] as? String)?.contains("Firestore publish failed") == true && report["stageUnderWay"] == nil, "\(report)")
        #expect(FileManager.default.fileExists(atPath: site.out.appendingPathComponent("catalog.json").path))
    }

    /// `publish` against a Firestore whose connections all break so: 75 at its deadline, saying what happened, with
    /// no crash and no restart.
    @Test func aPublishAgainstABreakingFirestoreEndsWith75() async throws {
        let site = try Site()
        let run = try await Binary.run(["run", "--source", "Fixtures/gvsu", "--out", site.out.path, "--quiet"])
        try #require(run.status == 0, "\(run.stderr)")
        site.server.setFault(.statusLineThenClose(times: .max), for: LoopbackHTTPServer.allPaths)
        let outcome = try await Binary.run(["publish", "--firestore", "demo-crash", "--out", site.out.path, "--deadline", "3"],
                                           environment: ["FIRESTORE_EMULATOR_HOST": "127.0.0.1:\(site.server.port)"])
        #expect(outcome.status == 75, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("connection error with 127.0.0.1") && outcome.stderr.contains("deadline"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("5285") && !outcome.stderr.contains("starting again"))
    }
}
