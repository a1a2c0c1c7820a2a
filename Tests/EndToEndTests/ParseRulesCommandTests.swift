import Foundation
import Testing

/// `gvingest parse --rules FILE`: a catalog's declarative rules read real pages.
@Suite struct ParseRulesCommandTests {
    static let config = """
    {"schemaVersion": 1,
     "catalogs": [{"id": "umd", "name": "UM-Dearborn", "system": "courseleaf",
       "source": {"http": {"startUrls": ["https://catalog.umd.umich.edu/undergraduate/coursesaz/cis/"]}},
       "rules": {"course": "//div[@class='courseblock']", "code": ".//p[contains(@class, 'courseblocktitle')]",
                 "description": ".//p[contains(@class, 'courseblockdesc')]",
                 "labels": {"Pre-?req.*": "prerequisite", "Co-?req.*": "corequisite"},
                 "listing": {"courses": "//div[@id='atozindex']//a[contains(@href, '/coursesaz/')]"}}}]}
    """

    /// Writes the configuration into a new directory; the caller removes the directory.
    static func writeConfig() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("pipeline.json")
        try Data(config.utf8).write(to: file)
        return file
    }

    @Test func rulesReadACourseLeafPage() async throws {
        let file = try Self.writeConfig()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let page = Binary.realworld.appendingPathComponent("courseleaf-umdearborn/umdearborn-cis-courses.html")
        let outcome = try await Binary.run(["parse", "--rules", file.path, page.path, "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let records = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [[String: Any]])
        #expect(records.count == 71)
        #expect(records.allSatisfy { ($0["credits"] as? Int) != nil && !(($0["title"] as? String) ?? "").isEmpty })
        let cs1 = try #require(records.first { $0["name"] as? String == "CIS 150" })
        #expect(cs1["title"] as? String == "Computer Science I")
        #expect(cs1["prerequisiteCourses"] as? [String] == ["MATH 113", "MATH 115"])
        #expect(cs1["corequisiteCourses"] as? [String] == ["CIS 150L"])
        #expect(cs1["system"] as? String == "courseleaf")

        let index = Binary.realworld.appendingPathComponent("courseleaf-umdearborn/umdearborn-undergrad-coursesaz-index.html")
        let listing = try await Binary.run(["parse", "--rules", file.path, index.path])
        #expect(listing.status == 0, "\(listing.stderr)")
        #expect(listing.stdout.contains("the catalog's rules"))
        #expect(listing.stdout.contains("-> file:///undergraduate/coursesaz/acc/"))
    }

    @Test func rulesNeedAConfigurationWithRules() async throws {
        let file = try Self.writeConfig()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        #expect(try await Binary.run(["parse", "--rules", file.path, "--system", "gvsu", "x.html"]).status == 64)
        #expect(try await Binary.run(["parse", "--rules", file.path, "--catalog", "nope", "x.html"]).status == 64)
        #expect(try await Binary.run(["parse", "--catalog", "umd", "x.html"]).status == 64)
        #expect(try await Binary.run(["parse", "--rules", "/nonexistent/pipeline.json", "x.html"]).status == 66)
        let noRules = try await Binary.run(["parse", "--rules", "Fixtures/pipeline.json", "x.html"])
        #expect(noRules.status == 64)
        #expect(noRules.stderr.contains("Fixtures/pipeline.json has no catalogs with rules"))
    }
}
