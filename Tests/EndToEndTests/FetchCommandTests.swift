import Foundation
import LoopbackServer
import Testing

/// `gvingest fetch` through the built binary, against a loopback server serving the recorded catalog.
@Suite(.serialized) struct FetchCommandTests {
    static let server: LoopbackHTTPServer? = {
        guard let server = try? LoopbackHTTPServer() else { return nil }
        server.start()
        let root = Binary.fixtures.appendingPathComponent("gvsu")
        // The mirror's index maps www.gvsu.edu URLs to files; the server serves the same paths.
        guard let data = try? Data(contentsOf: root.appendingPathComponent("index.json")),
              let index = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let pages = index["pages"] as? [String: [String: Any]] else { return nil }
        var mapping: [String: String] = [:]
        for (url, entry) in pages {
            if let path = URL(string: url)?.path, let file = entry["file"] as? String { mapping[path] = file }
        }
        server.serveDirectory(root: root, index: mapping)
        return server
    }()

    static let subjects = ["computer-information-systems", "mathematics", "statistics", "writing", "biology", "chemistry"]

    func starts(_ server: LoopbackHTTPServer) -> [String] {
        Self.subjects.flatMap { ["--start", server.baseURLString + "/catalog/subject/\($0).htm"] }
    }

    static func lastJSONObject(_ stdout: String) throws -> [String: Any] {
        let start = try #require(stdout.range(of: "\n{", options: .backwards)?.lowerBound ?? (stdout.hasPrefix("{") ? stdout.startIndex : nil))
        let data = Data(stdout[start...].utf8)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func theRecordedCatalogReplaysOfflineWithASummary() async throws {
        let outcome = try await Binary.run(["fetch", "--replay", "Fixtures/gvsu", "--json"])
        #expect(outcome.status == 0)
        let summary = try Self.lastJSONObject(outcome.stdout)
        for key in ["pagesExpected", "pagesFetched", "pagesFailed", "notModified", "retries", "bytes", "failures"] {
            #expect(summary[key] != nil, "missing \(key)")
        }
        #expect(summary["pagesFetched"] as? Int == 77)
        #expect(summary["pagesFailed"] as? Int == 0)
        #expect(outcome.stderr.contains("77/77 pages fetched"))
        // Off a terminal there is no progress line.
        #expect(!outcome.stderr.contains("\r"))
    }

    @Test func aCrawlRecordedFromTheServerReplaysWithoutIt() async throws {
        let server = try #require(Self.server)
        server.clearAllFaults()
        let mirror = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-mirror-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: mirror) }
        // A configuration with no politeness delay keeps the test quick.
        let configDirectory = mirror.deletingLastPathComponent().appendingPathComponent("gvingest-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: configDirectory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: configDirectory) }
        let urls = Self.subjects.map { "\"\(server.baseURLString)/catalog/subject/\($0).htm\"" }.joined(separator: ", ")
        let config = configDirectory.appendingPathComponent("pipeline.json")
        try Data("""
        {"schemaVersion": 1,
         "catalogs": [{"id": "loopback", "name": "Recorded GVSU catalog on 127.0.0.1", "system": "gvsu",
                       "source": {"http": {"startUrls": [\(urls)]}}}],
         "fetch": {"minimumDelayMs": 0, "concurrency": 8, "perHostConcurrency": 8}}
        """.utf8).write(to: config)
        // The fixture pages link to www.gvsu.edu in places; only the loopback origin is allowed here.
        let recorded = try await Binary.run(["fetch", "--config", config.path, "--record", mirror.path, "--json", "--quiet"])
        let summary = try Self.lastJSONObject(recorded.stdout)
        let failures = summary["failures"] as? [[String: Any]] ?? []
        #expect(failures.allSatisfy { ($0["reason"] as? String)?.contains("not among the allowed origins") == true }, "\(failures)")
        #expect(recorded.status == (failures.isEmpty ? 0 : 69))
        let fetched = try #require(summary["pagesFetched"] as? Int)
        #expect(fetched >= 70)
        #expect(FileManager.default.fileExists(atPath: mirror.appendingPathComponent("index.json").path))

        let before = server.totalRequests
        let replayed = try await Binary.run(["fetch", "--replay", mirror.path, "--json"])
        #expect(server.totalRequests == before)
        let again = try Self.lastJSONObject(replayed.stdout)
        #expect(again["pagesFetched"] as? Int == fetched)
    }

    @Test func aPageThatKeepsFailingIsReportedAndTheExitStatusSaysRetry() async throws {
        let server = try #require(Self.server)
        server.clearAllFaults()
        defer { server.clearAllFaults() }
        server.setFault(.status(503, times: .max), for: "/catalog/course/cis-263.htm")
        let outcome = try await Binary.run(["fetch", "--json", "--system", "gvsu",
                                      "--start", server.baseURLString + "/catalog/subject/computer-information-systems.htm"])
        #expect(outcome.status == 75)
        let summary = try Self.lastJSONObject(outcome.stdout)
        let failures = try #require(summary["failures"] as? [[String: Any]])
        #expect(failures.count == 1)
        #expect((failures.first?["url"] as? String)?.hasSuffix("/catalog/course/cis-263.htm") == true)
        #expect((failures.first?["reason"] as? String)?.hasPrefix("HTTP 503") == true)
        #expect(outcome.stderr.contains("failed: "))
    }

    /// --record is checked before the crawl, and never writes over the mirror being replayed or a folder holding
    /// something else; a new folder, or a mirror of its own, takes the recording.
    @Test func aRecordingNeverReplacesWhatItShouldNot() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-record-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let foreign = root.appendingPathComponent("foreign"), fresh = root.appendingPathComponent("fresh")
        try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: true)
        try Data(#"{"mine": 1}"#.utf8).write(to: foreign.appendingPathComponent("index.json"))
        let indexBefore = try Data(contentsOf: Binary.fixtures.appendingPathComponent("gvsu/index.json"))
        for target in ["Fixtures/gvsu", foreign.path, "/etc/passwd/x"] {
            let outcome = try await Binary.run(["fetch", "--replay", "Fixtures/gvsu", "--record", target, "--quiet"])
            #expect(outcome.status == 73, "\(target): \(outcome.stderr)")
            #expect(!outcome.stderr.contains("pages fetched"), "\(target): the crawl ran")
        }
        #expect(try Data(contentsOf: Binary.fixtures.appendingPathComponent("gvsu/index.json")) == indexBefore)
        #expect(try Data(contentsOf: foreign.appendingPathComponent("index.json")) == Data(#"{"mine": 1}"#.utf8))
        for _ in 0..<2 {  // a new folder, then the mirror recorded there
            #expect(try await Binary.run(["fetch", "--replay", "Fixtures/gvsu", "--record", fresh.path, "--quiet"]).status == 0)
        }
        #expect(FileManager.default.fileExists(atPath: fresh.appendingPathComponent("index.json").path))
    }

    /// An empty folder that takes no files (read-only: a bind mount in a user namespace, so even root gets EROFS)
    /// fails the recording before the crawl, once, not after it with one error a page.
    @Test func aRecordingIntoAFolderThatTakesNoFilesFailsBeforeTheCrawl() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-record-ro-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = #"mount --bind "$D" "$D" && mount -o remount,ro,bind "$D" || exit 90; "$BIN" fetch --replay Fixtures/gvsu --record "$D" --quiet"#
        let outcome = try await Binary.run(["--user", "--map-root-user", "--mount", "/bin/bash", "-c", script],
                                           environment: ["D": folder.path, "BIN": Binary.url.path],
                                           executable: URL(fileURLWithPath: "/usr/bin/unshare"))
        #expect(outcome.status == 73, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("cannot write the mirror \(folder.path): \(folder.path)/pages: cannot create the directory: Read-only file system"))
        #expect(!outcome.stderr.contains("pages fetched"), "the crawl ran: \(outcome.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func fetchNeedsAStart() async throws {
        let outcome = try await Binary.run(["fetch", "--json"])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("--start"))
        // A port past 65535 is no URL to retry until the deadline (75), but a usage error at once.
        let badPort = try await Binary.run(["fetch", "--start", "http://127.0.0.1:99999/x.htm"])
        #expect(badPort.status == 64)
        #expect(badPort.stderr.contains("--start needs an http or https URL with a host, and a port from 1 to 65535, not 'http://127.0.0.1:99999/x.htm'"))
    }

    /// A replay reads a mirror from disk: a configuration's source or a cache to fill is a usage error, not ignored.
    @Test func aReplayTakesNoConfigurationOrCache() async throws {
        for (option, value) in [("--config", "Fixtures/pipeline.json"), ("--cache", "nowhere-cache")] {
            let outcome = try await Binary.run(["fetch", "--replay", "Fixtures/gvsu", option, value, "--quiet"])
            #expect(outcome.status == 64, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("\(option) and --replay do not go together"), "\(outcome.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: Binary.packageRoot.appendingPathComponent("nowhere-cache").path))
    }
}
