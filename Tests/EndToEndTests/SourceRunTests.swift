import Foundation
import Testing

/// `gvingest run --source` without traps: the system recognized from the pages, a configuration's settings,
/// a warning before a second baseline, a feed per catalog, 69 for a source that is not there.
@Suite(.serialized) struct SourceRunTests {
    static func scratch(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-\(name)-\(UUID().uuidString)")
    }

    static func json(_ file: URL) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
    }

    @Test(arguments: [[], ["--system", "auto"]])
    func anAcalogDirectoryIsRecognizedWithoutSystem(extra: [String]) async throws {
        let out = Self.scratch("auto")
        defer { try? FileManager.default.removeItem(at: out) }
        let outcome = try await Binary.run(["run", "--source", "Fixtures/acalog", "--out", out.path, "--quiet"] + extra)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("recognized as acalog"))
        let published = try Self.json(out.appendingPathComponent("catalog.json"))
        let catalog = try #require(published["catalog"] as? [String: Any])
        #expect(catalog["system"] as? String == "acalog")
        let courses = try #require(published["courses"] as? [[String: Any]])
        #expect(courses.contains { $0["name"] as? String == "CIS 162" }, "\(courses.map { $0["name"] ?? "" })")
    }

    @Test func aConfigurationGivesItsNormalizationAndGuards() async throws {
        let out = Self.scratch("config")
        defer { try? FileManager.default.removeItem(at: out) }
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let config = out.appendingPathComponent("settings.json")
        // Everything numbered below 1000 is "doctoral" here: the published levels show the configuration was read.
        try Data("""
        {"schemaVersion": 1, "catalogs": [{"id": "elsewhere", "name": "Other", "system": "gvsu", "source": {"directory": "."}}],
         "normalize": {"levels": [{"from": 0, "to": 999, "level": "doctoral"}]},
         "news": {"feedId": "urn:gvingest:elsewhere:news"}, "guards": {"minimumCourses": 1}}
        """.utf8).write(to: config)
        let outcome = try await Binary.run(["run", "--source", "Fixtures/gvsu", "--config", config.path, "--out", out.path, "--quiet"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let courses = try #require(try Self.json(out.appendingPathComponent("catalog.json"))["courses"] as? [[String: Any]])
        #expect(!courses.isEmpty)
        #expect(courses.allSatisfy { ($0["level"] as? String)?.lowercased() == "doctoral" })
        // The feed belongs to the source's catalog, not to the configuration's.
        let atom = try String(contentsOf: out.appendingPathComponent("news.atom"), encoding: .utf8)
        #expect(atom.contains("<id>urn:gvingest:gvsu:news</id>"))

        // Its guards apply too: a minimum the recorded catalog does not reach refuses to publish.
        try Data("""
        {"schemaVersion": 1, "catalogs": [{"id": "elsewhere", "name": "Other", "system": "gvsu", "source": {"directory": "."}}],
         "guards": {"minimumCourses": 500}}
        """.utf8).write(to: config)
        let refused = try await Binary.run(["run", "--source", "Fixtures/gvsu", "--config", config.path, "--out", out.path, "--quiet"])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("guards.minimumCourses (500)"))
    }

    @Test func eachSourceGetsItsOwnFeedAndAWarningBeforeASecondBaseline() async throws {
        let out = Self.scratch("feeds")
        defer { try? FileManager.default.removeItem(at: out) }
        let first = try await Binary.run(["run", "--source", "Fixtures/gvsu", "--out", out.path, "--quiet"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(!first.stderr.contains("new baseline"))
        let atom = try String(contentsOf: out.appendingPathComponent("news.atom"), encoding: .utf8)
        #expect(atom.contains("<id>urn:gvingest:gvsu:news</id>"))
        #expect(atom.contains("<title>gvsu: new courses</title>"))
        #expect(!atom.contains(Binary.packageRoot.path))

        let second = try await Binary.run(["run", "--source", "Fixtures/acalog", "--out", out.path, "--quiet"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("already holds snapshots of gvsu, none of 'acalog'"), "\(second.stderr)")
        #expect(second.stderr.contains("--catalog gvsu"))
        let secondAtom = try String(contentsOf: out.appendingPathComponent("news.atom"), encoding: .utf8)
        #expect(secondAtom.contains("<id>urn:gvingest:acalog:news</id>"))
    }

    /// Made as a configuration's id may be (ASCII letters, digits, - and _), so that a configuration can continue it.
    @Test func aCatalogIdKeepsToASCIISoAConfigurationContinuesIt() async throws {
        let out = Self.scratch("named")
        defer { try? FileManager.default.removeItem(at: out) }
        let outcome = try await Binary.run(["run", "--source", "Fixtures/gvsu", "--catalog", "my cät", "--out", out.path, "--quiet"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let atom = try String(contentsOf: out.appendingPathComponent("news.atom"), encoding: .utf8)
        #expect(atom.contains("<id>urn:gvingest:my-c-t:news</id>"))
        let config = out.appendingPathComponent("pipeline.json")
        try FileManager.default.copyItem(at: Binary.fixtures.appendingPathComponent("gvsu"), to: out.appendingPathComponent("mirror"))
        try Data(#"{"schemaVersion": 1, "catalogs": [{"id": "my-c-t", "name": "M", "system": "gvsu", "source": {"replay": "mirror"}}], "outputs": {"directory": "."}}"#.utf8).write(to: config)
        let continued = try await Binary.run(["run", "--config", config.path, "--quiet"])
        #expect(continued.status == 0, "\(continued.stderr)")
        let store = out.appendingPathComponent("snapshots/my-c-t").path
        #expect(try FileManager.default.contentsOfDirectory(atPath: store).filter { $0.hasPrefix("snapshot-") }.count == 2)
        let again = try await Binary.run(["run", "--source", "Fixtures/gvsu", "--catalog", "my cät", "--out", out.path, "--quiet"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(!again.stderr.contains("new baseline"), "\(again.stderr)")
    }

    /// A run whose report cannot be written is not a success, what watches the runs reading the report; its outputs
    /// and snapshot are written all the same.
    @Test func aReportThatCannotBeWrittenIs73() async throws {
        let out = Self.scratch("report")
        defer { try? FileManager.default.removeItem(at: out) }
        let outcome = try await Binary.run(["run", "--source", "Fixtures/gvsu", "--out", out.path, "--report", "/etc/passwd/x", "--quiet"])
        #expect(outcome.status == 73, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("error: cannot write the run report: /etc/passwd"), "\(outcome.stderr)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("catalog.json").path))
        let snapshots = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("snapshots/gvsu").path)
        #expect(snapshots.filter { $0.hasPrefix("snapshot-") }.count == 1)
    }

    /// With --log-format json, an error before the run starts (an unreadable configuration, a missing source) is a
    /// JSON line too, so that what reads the log gets every line.
    @Test(arguments: [(["--config", "nowhere/pipeline.json"], Int32(66)), (["--source", "Fixtures/no-such-catalog", "--out", "x"], Int32(69))])
    func anEarlyErrorIsJSONWhenTheLogIs(_ words: [String], _ status: Int32) async throws {
        let outcome = try await Binary.run(["run", "--log-format", "json"] + words)
        #expect(outcome.status == status, "\(outcome.stderr)")
        let line = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stderr.utf8)) as? [String: Any], "\(outcome.stderr)")
        #expect(line["level"] as? String == "error" && line["stage"] as? String == "run")
        #expect((line["message"] as? String)?.contains(words[1]) == true)
    }

    /// A clock set back (SOURCE_DATE_EPOCH, or a system clock gone wrong) dates news and stamps before the last run's:
    /// said, so that it is not found later in the app.
    @Test func aClockBeforeTheLastSnapshotIsAWarning() async throws {
        let out = Self.scratch("clock")
        defer { try? FileManager.default.removeItem(at: out) }
        var warnings: [Bool] = []
        for (epoch, dryRun) in [("2000000000", false), ("1000000000", true), ("1000000000", false)] {
            let outcome = try await Binary.run(["run", "--source", "Fixtures/gvsu", "--out", out.path, "--quiet"] + (dryRun ? ["--dry-run"] : []),
                                               environment: ["SOURCE_DATE_EPOCH": epoch])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            warnings.append(outcome.stderr.contains("news and stamps dated 2001-09-09T01:46:40Z, before the last run's 2033-05-18T03:33:20Z: check SOURCE_DATE_EPOCH"))
        }
        // Said by a dry run too, before a real run would date anything back.
        #expect(warnings == [false, true, true])
    }

    @Test func aMissingSourceIsUnavailable() async throws {
        let out = Self.scratch("missing")
        defer { try? FileManager.default.removeItem(at: out) }
        let missing = try await Binary.run(["run", "--source", "Fixtures/no-such-catalog", "--out", out.path])
        #expect(missing.status == 69, "\(missing.stderr)")
        #expect(missing.stderr.contains("Fixtures/no-such-catalog: no such directory"))
        let schemeless = try await Binary.run(["run", "--source", "www.gvsu.edu/catalog/", "--out", out.path])
        #expect(schemeless.status == 69)
        #expect(schemeless.stderr.contains("did you mean https://www.gvsu.edu/catalog/?"), "\(schemeless.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func sourceNeedsOutOrAConfiguration() async throws {
        let outcome = try await Binary.run(["run", "--source", "Fixtures/gvsu"])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("--source needs --out DIR"))
        let replaying = try await Binary.run(["run", "--source", "Fixtures/gvsu", "--replay", "Fixtures/gvsu-next", "--out", "x"])
        #expect(replaying.status == 64)
        #expect(replaying.stderr.contains("--replay does not go with it"))
        let badPort = try await Binary.run(["run", "--source", "http://127.0.0.1:99999/x", "--out", "x"])
        #expect(badPort.status == 64)
        #expect(badPort.stderr.contains("--source http://127.0.0.1:99999/x: not an http or https URL with a host, and a port from 1"))
    }
}
