import Foundation
import Testing

/// `gvingest search` over the catalog `gvingest run` publishes from the recorded GVSU catalog.
@Suite(.serialized) struct SearchCommandTests {
    /// One published catalog for the suite: built once, read by every test. One fixed folder (emptied
    /// first) keeps test runs from piling up copies in the temporary directory.
    static let published: URL? = {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-search-tests")
        try? FileManager.default.removeItem(at: out)
        guard let outcome = try? Binary.runBlocking(["run", "--source", "Fixtures/gvsu", "--out", out.path, "--quiet"]),
              outcome.status == 0 else { return nil }
        return out.appendingPathComponent("catalog.json")
    }()

    static func records() throws -> [[String: Any]] {
        let catalog = try #require(published)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: catalog)) as? [String: Any])
        return try #require(document["courses"] as? [[String: Any]])
    }

    static func search(_ arguments: [String]) async throws -> Binary.Outcome {
        let catalog = try #require(published)
        return try await Binary.run(["search", "--catalog", catalog.path] + arguments)
    }

    static func names(_ json: String) throws -> [String] {
        let records = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        return records.compactMap { $0["name"] as? String }
    }

    @Test func codeMatchesComeBeforeTitleAndDescriptionMatches() async throws {
        let outcome = try await Self.search(["computer", "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let records = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [[String: Any]])
        let matches = records.compactMap { $0["match"] as? String }
        #expect(matches.contains("title") && matches.contains("description"))
        #expect(matches == matches.sorted { ["code", "title", "description"].firstIndex(of: $0)! < ["code", "title", "description"].firstIndex(of: $1)! })
        // Every course whose title or description says "computer" (any case), and no other.
        let expected = try Self.records().filter { record in
            ["title", "description"].contains { ((record[$0] as? String) ?? "").lowercased().contains("computer") }
        }
        #expect(Set(records.compactMap { $0["name"] as? String }) == Set(expected.compactMap { $0["name"] as? String }))
        let human = try await Self.search(["cis162"])
        #expect(human.stdout.hasPrefix("CIS 162  Computer Science I  (4 credits, Undergraduate; matched code)"))
    }

    @Test func requiresListsTheCoursesNamingACourse() async throws {
        let expected = try Self.records().filter { record in
            ((record["prerequisiteCourses"] as? [String]) ?? []).contains("CIS 162")
                || ((record["corequisiteCourses"] as? [String]) ?? []).contains("CIS 162")
        }.compactMap { $0["name"] as? String }.sorted()
        #expect(expected.count >= 2)
        for spelling in [["--requires", "CIS", "162"], ["--requires", "cis162"], ["--requires=CIS 162"]] {
            let outcome = try await Self.search(spelling + ["--json"])
            #expect(outcome.status == 0, "\(spelling): \(outcome.stderr)")
            #expect(try Self.names(outcome.stdout) == expected, "\(spelling)")
        }
    }

    @Test func filtersWithoutAQueryListEveryMatchingCourse() async throws {
        let graduate = try await Self.search(["--level", "graduate", "--subject", "cis", "--json"])
        let expected = try Self.records().filter { ($0["level"] as? String) == "Graduate" && ($0["subject"] as? String) == "CIS" }
        #expect(!expected.isEmpty)
        #expect(try Self.names(graduate.stdout).count == expected.count)
        let variable = try await Self.search(["--credits", "2", "--json"])
        let twoCredits = try Self.records().filter { record in
            guard let range = record["creditRange"] as? [String: Any], let min = range["min"] as? Double, let max = range["max"] as? Double
            else { return false }
            return min <= 2 && 2 <= max
        }.compactMap { $0["name"] as? String }
        #expect(!twoCredits.isEmpty)
        #expect(Set(try Self.names(variable.stdout)) == Set(twoCredits))
    }

    /// A catalog is a file anyone can edit: a number past `Int`'s range is no crash. Where the record has a number
    /// it is printed as one; where it has an integer (the app's credits) it is refused by its JSON path.
    @Test func aHugeNumberInTheCatalogIsNotFatal() async throws {
        let catalog = try #require(Self.published)
        var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: catalog)) as? [String: Any])
        var courses = try #require(document["courses"] as? [[String: Any]])
        let name = try #require(courses.first?["name"] as? String)
        courses[0]["creditRange"] = ["min": 1, "max": 1e20]
        document["courses"] = courses
        let edited = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-search-huge-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: edited) }
        try JSONSerialization.data(withJSONObject: document).write(to: edited)
        let json = try await Binary.run(["search", "--catalog", edited.path, "--format", "jsonl", name])
        #expect(json.status == 0)
        #expect(json.stdout.contains("1e+20"))
        courses[0]["credits"] = 1e20
        document["courses"] = courses
        try JSONSerialization.data(withJSONObject: document).write(to: edited)
        let refused = try await Binary.run(["search", "--catalog", edited.path, "--format", "csv", name])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("not a catalog: courses[0].credits: "), "\(refused.stderr)")
    }

    @Test func exitStatusesSayWhatWentWrong() async throws {
        let none = try await Self.search(["no such words anywhere"])
        #expect(none.status == 0)
        #expect(none.stdout.isEmpty)
        #expect(none.stderr.contains("no courses match"))
        let missing = try await Binary.run(["search", "--catalog", "/nonexistent/catalog.json", "cis"])
        #expect(missing.status == 66)
        let notCatalog = try await Binary.run(["search", "--catalog", "Package.swift", "cis"])
        #expect(notCatalog.status == 65)
        #expect(notCatalog.stderr.contains("not a catalog"))
        // The published catalog with its second course's credits made a string: refused by name, not read as absent.
        let catalog = try #require(Self.published)
        var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: catalog)) as? [String: Any])
        var courses = try #require(document["courses"] as? [[String: Any]])
        courses[1]["credits"] = "three"
        document["courses"] = courses
        let mistyped = catalog.deletingLastPathComponent().appendingPathComponent("mistyped.json")
        try JSONSerialization.data(withJSONObject: document).write(to: mistyped)
        let refused = try await Binary.run(["search", "--catalog", mistyped.path, "--credits", "3"])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains(#"mistyped.json: not a catalog: courses[1].credits: expected an integer, got a string"#), "\(refused.stderr)")
        await #expect(try Self.search([]).status == 64)
        await #expect(try Self.search(["--credits", "many"]).status == 64)
        await #expect(try Self.search(["cis", "--credits", "-1"]).stderr.contains("--credits needs a number of credits, 0 or more, not '-1'"))
        await #expect(try Self.search(["--requires", "nonsense"]).status == 64)
        let level = try await Self.search(["cis", "--level", "masters"])  // no level: not "no courses match"
        #expect(level.status == 64)
        #expect(level.stderr.contains("--level must be developmental, undergraduate, graduate or doctoral, not 'masters'"))
        let help = try await Binary.run(["help", "search"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--requires CODE"))
    }
}
