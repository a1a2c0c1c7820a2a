import Foundation
import Testing
import TestSupport

/// `gvingest diff` through the built binary: outputs, the snapshot directory default and diff(1) exit statuses.
@Suite struct DiffCommandTests {
    static let fall = "Fixtures/snapshots/fall.json"
    static let winter = "Fixtures/snapshots/winter.json"
    static let published = "Fixtures/snapshots/catalog.json"

    /// A scratch directory holding a snapshot store with the fixture pair as its last two snapshots.
    static func store() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-diff-\(UInt32.random(in: 0...UInt32.max))")
        let store = root.appendingPathComponent("out/snapshots/fx")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        let names = ["snapshot-000001-20240101T000000Z.json": published, "snapshot-000002-20240901T060000Z.json": fall,
                     "snapshot-000003-20250106T060000Z.json": winter]
        for (name, source) in names {
            try FileManager.default.copyItem(at: Binary.packageRoot.appendingPathComponent(source), to: store.appendingPathComponent(name))
        }
        return root
    }

    @Test func theTextViewGroupsChangesByKindAndExitsOne() async throws {
        let outcome = try await Binary.run(["diff", Self.fall, Self.winter])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains("Added (2)\n  + BIO 610  Advanced Ecology\n  + CIS 380  Machine Learning\nRemoved (1)"))
        #expect(outcome.stdout.contains("  ~ CIS 267 → CIS 367  Computer Graphics\n      Offered: [-winter-]{+fall+} semester"))
        #expect(outcome.stdout.contains("      Credits: [-4-]{+5+}"))
        #expect(outcome.stdout.hasSuffix("2 added, 1 removed, 1 renumbered, 1 changed\n"))
        #expect(!outcome.stdout.contains("\u{1B}["))
    }

    @Test func theSameCatalogInAnotherShapeExitsZero() async throws {
        let outcome = try await Binary.run(["diff", Self.winter, Self.published])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.hasSuffix("no changes\n"))
    }

    /// A course whose id came before in its catalog is not compared, and the diff says so rather than drop it unseen.
    @Test func anIdMetAgainIsAWarning() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-diff-again-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: scratch) }
        var root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Binary.packageRoot.appendingPathComponent(Self.winter))) as? [String: Any])
        var courses = try #require(root["courses"] as? [[String: Any]])
        var again = courses[0]
        again["description"] = "Another course under the same id."
        courses.append(again)
        root["courses"] = courses
        try JSONSerialization.data(withJSONObject: root).write(to: scratch)
        let outcome = try await Binary.run(["diff", Self.winter, scratch.path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.hasSuffix("no changes\n"))
        #expect(outcome.stderr.contains("warning: \(scratch.path): 1 course(s) with an id met before (wrt-150); only the first course with an id is compared"),
                "\(outcome.stderr)")
        #expect(!outcome.stderr.contains(Self.winter))
        let asOld = try await Binary.run(["diff", "--stat", scratch.path, Self.winter])
        #expect(asOld.status == 0 && asOld.stderr.contains("warning: \(scratch.path): 1 course(s) with an id met before (wrt-150)"), "\(asOld.stderr)")
    }

    @Test func jsonIsOneObjectWithAListPerKind() async throws {
        let outcome = try await Binary.run(["diff", "--json", Self.fall, Self.published])
        #expect(outcome.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: [[String: Any]]])
        #expect(Set(object.keys) == ["added", "returned", "removed", "changed", "renumbered"])
        #expect(object["added"]?.compactMap { $0["id"] as? String } == ["bio-610", "cis-380"])
        #expect(object["removed"]?.first?["name"] as? String == "CIS 101")
        let changes = try #require(object["changed"]?.first?["changes"] as? [String: [String: String]])
        #expect(changes["credits"] == ["old": "4", "new": "5"])
        let renumbered = try #require(object["renumbered"]?.first)
        #expect(renumbered["from"] as? String == "CIS 267" && renumbered["to"] as? String == "CIS 367")
    }

    @Test func onlyFiltersAndTheStatusFollowsWhatIsShown() async throws {
        let removed = try await Binary.run(["diff", "--json", "--only", "removed", Self.fall, Self.winter])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(removed.stdout.utf8)) as? [String: [Any]])
        #expect(object["removed"]?.count == 1 && object["added"]?.isEmpty == true && object["changed"]?.isEmpty == true)
        #expect(removed.status == 1)
        let several = try await Binary.run(["diff", "--only", "added,renumbered", Self.fall, Self.winter])
        #expect(several.stdout.contains("Added (2)") && several.stdout.contains("Renumbered (1)") && !several.stdout.contains("Changed"))
        // Nothing of the kind asked for: no differences.
        let none = try await Binary.run(["diff", "--only", "removed", Self.winter, Self.published])
        #expect(none.status == 0)
    }

    @Test func markdownIsAChangelog() async throws {
        let outcome = try await Binary.run(["diff", "--markdown", Self.fall, Self.winter])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.hasPrefix("## Catalog changes: Fixtures/snapshots/fall.json (1 Sep 2024) → "))
        #expect(outcome.stdout.contains("### Changed (1)\n\n- **MTH 201** — Calculus I\n  - Credits: ~~4~~ 5"))
    }

    @Test func withoutFilesTheLastTwoSnapshotsAreCompared() async throws {
        let root = try Self.store()
        defer { try? FileManager.default.removeItem(at: root) }
        let byDirectory = try await Binary.run(["diff", "--snapshots", root.appendingPathComponent("out/snapshots/fx").path])
        #expect(byDirectory.status == 1)
        #expect(byDirectory.stdout.hasPrefix("Comparing snapshot-000002-20240901T060000Z.json (1 Sep 2024) → snapshot-000003-"))
        try Data(#"{"schemaVersion": 1, "catalogs": [{"id": "fx", "name": "F", "system": "gvsu", "source": {"directory": "pages"}}]}"#.utf8)
            .write(to: root.appendingPathComponent("pipeline.json"))
        let byConfig = try await Binary.run(["diff", "--json"], in: root)
        #expect(byConfig.status == 1)
        #expect(byConfig.stdout == (try await Binary.run(["diff", "--json", Self.fall, Self.winter])).stdout)
    }

    @Test func troubleExitsTwoAndBadUsageSixtyFour() async throws {
        let root = try Self.store()
        defer { try? FileManager.default.removeItem(at: root) }
        let missing = try await Binary.run(["diff", Self.fall, "Fixtures/snapshots/nope.json"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("Fixtures/snapshots/nope.json: cannot read: No such file or directory"))
        let notACatalog = try await Binary.run(["diff", Self.fall, "Fixtures/pipeline.json"])
        #expect(notACatalog.status == 2)
        #expect(notACatalog.stderr.contains("Fixtures/pipeline.json: not a snapshot or catalog"))
        let lonely = root.appendingPathComponent("lonely")
        try FileManager.default.createDirectory(at: lonely, withIntermediateDirectories: true)
        let one = try await Binary.run(["diff", "--snapshots", lonely.path])
        #expect(one.status == 2)
        #expect(one.stderr.contains("has 0 snapshot(s); a diff needs two"))
        let nowhere = try await Binary.run(["diff", "--snapshots", root.appendingPathComponent("nowhere").path])
        #expect(nowhere.status == 2)
        #expect(nowhere.stderr.contains("nowhere: no such directory"))
        let aFile = try await Binary.run(["diff", "--snapshots", Self.fall])
        #expect(aFile.status == 2)
        #expect(aFile.stderr.contains("\(Self.fall): not a directory"))
        for words in [["diff", Self.fall], ["diff", "--only", "moved", Self.fall, Self.winter], ["diff", "--json", "--markdown", Self.fall, Self.winter],
                      ["diff", "--snapshots", "x", Self.fall, Self.winter]] {
            let outcome = try await Binary.run(words)
            #expect(outcome.status == 64, "\(words)")
            #expect(outcome.stderr.contains("Usage: gvingest diff"), "\(words)")
        }
        let help = try await Binary.run(["diff", "--help"])
        #expect(help.status == 0 && help.stdout.contains("Bad usage exits 64"))
    }

    @Test(.needs(.script)) func aTerminalGetsColoursUnlessNoColorIsSet() async throws {
        try OptionalTool.script.require()
        // script(1) gives the binary a pseudo-terminal for its standard output.
        let command = "\(Binary.url.path) diff \(Self.fall) \(Self.winter)"
        let coloured = try await Binary.run(["-qec", command, "/dev/null"], environment: ["NO_COLOR": ""],
                                      executable: URL(fileURLWithPath: "/usr/bin/script"))
        #expect(coloured.stdout.contains("\u{1B}[31m[-4-]\u{1B}[0m\u{1B}[32m{+5+}\u{1B}[0m"))
        let plain = try await Binary.run(["-qec", command, "/dev/null"], environment: ["NO_COLOR": "1"],
                                   executable: URL(fileURLWithPath: "/usr/bin/script"))
        #expect(plain.stdout.contains("Credits: [-4-]{+5+}"))
        #expect(!plain.stdout.contains("\u{1B}["))
    }
}
