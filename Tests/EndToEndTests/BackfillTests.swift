import CatalogKit
import Foundation
import Testing

/// Issue 34: `gvingest backfill` over real editions, cut short and resumed, and `gvingest history`.
@Suite(.serialized) struct BackfillTests {
    static let uh = Binary.realworld.appendingPathComponent("acalog-uh")

    final class Project {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-backfill-\(UUID().uuidString)")
        var out: URL { root.appendingPathComponent("out") }
        var store: URL { out.appendingPathComponent("snapshots/uh") }

        init(system: String = "acalog") throws {
            try FileManager.default.createDirectory(at: root.appendingPathComponent("pages"), withIntermediateDirectories: true)
            try Data("""
            {"schemaVersion": 1, "catalogs": [{"id": "uh", "name": "UH", "system": "\(system)", "source": {"directory": "pages"}}],
             "outputs": {"directory": "out"}}
            """.utf8).write(to: root.appendingPathComponent("pipeline.json"))
        }

        deinit { try? FileManager.default.removeItem(at: root) }

        func courses() throws -> [[String: Any]] {
            let catalog = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("catalog.json"))) as? [String: Any]
            return try #require(catalog?["courses"] as? [[String: Any]])
        }

        func newestSnapshot() throws -> Data {
            let names = try FileManager.default.contentsOfDirectory(atPath: store.path).filter { $0.hasPrefix("snapshot-") }.sorted()
            return try Data(contentsOf: store.appendingPathComponent(try #require(names.last)))
        }
    }

    static let editions = ["2021-2022=\(uh.appendingPathComponent("41").path)", "2022-2023=\(uh.appendingPathComponent("44").path)"]

    /// Every course in both editions keeps 41's label, every course new in 44 gets 44's, renumbered ones their origin.
    @Test func theUHEditionsGiveEachCourseItsFirstEdition() async throws {
        let project = try Project()
        let backfill = try await Binary.run(["backfill"] + Self.editions, in: project.root)
        #expect(backfill.status == 0, "\(backfill.stderr)")
        #expect(backfill.stderr.contains("gvingest backfill [backfill] edition 2 of 2: 2022-2023 (2022-08-01)"))
        let in41 = try Self.codes(Self.uh.appendingPathComponent("41.csv")), in44 = try Self.codes(Self.uh.appendingPathComponent("44.csv"))
        let courses = try project.courses()
        var counts: [String: Int] = [:]
        for course in courses {
            let name = try #require(course["name"] as? String), first = course["firstEdition"] as? String
            let history = (course["history"] as? [[String: Any]]) ?? []
            counts[first ?? "none", default: 0] += 1
            if let from = history.first(where: { $0["kind"] as? String == "renumbered" })?["from"] as? String {
                #expect(first == "2021-2022" && in41.contains(from), "\(name) renumbered from \(from)")
            } else if in41.contains(name) {
                #expect(first == "2021-2022" && course["createdAt"] as? String == "2021-08-01T00:00:00Z", "\(name)")
            } else {
                #expect(first == "2022-2023" && history.map { $0["kind"] as? String } == ["added"], "\(name)")
            }
        }
        #expect(counts["2022-2023", default: 0] > 100 && counts["2021-2022", default: 0] > 3_000 && counts["none"] == nil, "\(counts)")
        #expect(Set(courses.compactMap { $0["name"] as? String }).isSubset(of: in44))
        let news = try JSONSerialization.jsonObject(with: Data(contentsOf: project.out.appendingPathComponent("news.json"))) as? [String: Any]
        #expect((news?["news"] as? [Any])?.isEmpty == true, "a backfill announces nothing")

        let renumbered = try #require(courses.first { ($0["history"] as? [[String: Any]])?.contains { $0["kind"] as? String == "renumbered" } == true })
        let name = try #require(renumbered["name"] as? String)
        let history = try await Binary.run(["history", name], in: project.root)
        #expect(history.status == 0, "\(history.stderr)")
        #expect(history.stdout.contains("first edition: 2021-2022, created 1 Aug 2021"), "\(history.stdout)")
        #expect(history.stdout.contains("  2021-2022     added\n  2022-2023     renumbered from "), "\(history.stdout)")
        #expect(try await Binary.run(["history", "ZZZ 999"], in: project.root).status == 65)

        // A later run goes on from the newest edition: nothing new, every first edition as it was.
        let run = try await Binary.run(["run", "--config", "pipeline.json", "--source", Self.uh.appendingPathComponent("44").path,
                                        "--system", "acalog", "--catalog", "uh", "--quiet"], in: project.root)
        #expect(run.status == 0, "\(run.stderr)")
        let after = try project.courses()
        #expect(after.map { $0["firstEdition"] as? String } == courses.map { $0["firstEdition"] as? String })
        #expect(after.map { $0["createdAt"] as? String } == courses.map { $0["createdAt"] as? String })
    }

    /// A backfill killed after its first edition, run again, gives the history of one that was never stopped.
    @Test func aBackfillKilledMidwayAndRunAgainGivesTheSameHistory() async throws {
        let whole = try Project(), cut = try Project()
        #expect(try await Binary.run(["backfill"] + Self.editions, in: whole.root).status == 0)
        let process = Process()
        process.executableURL = Binary.url
        process.arguments = ["backfill"] + Self.editions
        process.currentDirectoryURL = cut.root
        process.standardError = FileHandle.nullDevice
        try process.run()
        let first = cut.store.appendingPathComponent("snapshot-000001-20210801T000000Z.json")
        for _ in 0..<6_000 where !FileManager.default.fileExists(atPath: first.path) && process.isRunning {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        kill(process.processIdentifier, SIGKILL)
        try await Binary.offThePool { process.waitUntilExit() }
        #expect(process.terminationReason == .uncaughtSignal)
        let again = try await Binary.run(["backfill"] + Self.editions, in: cut.root)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try cut.newestSnapshot() == whole.newestSnapshot())
    }

    /// A history that is not this backfill's is refused, and with --rebuild set aside, never deleted.
    @Test func anotherHistoryIsRefusedOrSetAside() async throws {
        let project = try Project(system: "gvsu")
        let run = try await Binary.run(["run", "--replay", Binary.fixtures.appendingPathComponent("gvsu").path, "--quiet"], in: project.root)
        #expect(run.status == 0, "\(run.stderr)")
        let editions = ["2019-2020=\(Binary.fixtures.appendingPathComponent("gvsu").path)",
                        "2020-2021=\(Binary.fixtures.appendingPathComponent("gvsu-next").path)"]
        let refused = try await Binary.run(["backfill"] + editions, in: project.root)
        #expect(refused.status == 65 && refused.stderr.contains("rebuild"), "\(refused.stderr)")
        let rebuilt = try await Binary.run(["backfill", "--rebuild"] + editions, in: project.root)
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        let folders = try FileManager.default.contentsOfDirectory(atPath: project.out.appendingPathComponent("snapshots").path)
        let aside = try #require(folders.first { $0.hasPrefix("uh.before-backfill-") })
        #expect(try FileManager.default.contentsOfDirectory(atPath: project.out.appendingPathComponent("snapshots/\(aside)").path).count == 1)
        let courses = try project.courses()
        let new = courses.filter { $0["firstEdition"] as? String == "2020-2021" }
        #expect(!new.isEmpty && new.count < courses.count / 2, "\(new.count) of \(courses.count)")
        #expect(courses.allSatisfy { ["2019-2020", "2020-2021"].contains($0["firstEdition"] as? String ?? "") })
        #expect(try await Binary.run(["backfill", "2020=\(Binary.fixtures.path)", "2019=\(Binary.fixtures.path)"], in: project.root).status == 64)
    }

    /// The codes of a UH manifest: its last column, "ACCT 2301 -  Principles of Financial Accounting".
    static func codes(_ csv: URL) throws -> Set<String> {
        Set(try String(contentsOf: csv, encoding: .utf8).split(separator: "\n").dropFirst().compactMap { line in
            line.split(separator: ",", maxSplits: 5).last.flatMap {
                CourseCode.leading(in: $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")))?.code.description
            }
        })
    }
}
