import Foundation
import Testing
@testable import CatalogKit

/// The search over published course records: matching, ranking and filters.
@Suite struct CatalogSearchTests {
    static func course(_ name: String, _ title: String, description: String = "", level: String? = "Undergraduate",
                       credits: (Double, Double)? = (3, 3), requires: [String] = [], coreq: [String] = []) throws -> SearchableCourse {
        var record: [String: JSONValue] = [
            "name": .string(name), "subject": .string(String(name.prefix { $0 != " " })), "title": .string(title),
            "description": .string(description), "level": .from(level, JSONValue.string),
            "prerequisiteCourses": .array(requires.map(JSONValue.string)), "corequisiteCourses": .array(coreq.map(JSONValue.string)),
        ]
        if let credits {
            record["credits"] = .int(Int(credits.0))
            record["creditRange"] = .object(["min": .double(credits.0), "max": .double(credits.1)])
        }
        return try SearchableCourse(record: .object(record))
    }

    static func catalog() throws -> [SearchableCourse] {
        [
            try course("MTH 201", "Calculus I", description: "Limits and derivatives for computer scientists."),
            try course("CIS 263", "Data Structures", description: "Lists and trees.", requires: ["CIS 163"]),
            try course("CIS 162", "Computer Science I", credits: (4, 4)),
            try course("CIS 163", "Computer Science II", credits: (4, 4), requires: ["CIS 162"]),
            try course("CIS 499", "Independent Study", credits: (1, 3)),
            try course("CIS 635", "Data Mining", level: "Graduate", coreq: ["CIS 162"]),
            try course("COMPUTER 100", "Orientation"),
        ]
    }

    static func names(_ hits: [SearchHit]) -> [String] { hits.map(\.course.name) }

    @Test func codeThenTitleThenDescriptionTiesInCodeOrder() throws {
        let hits = CatalogSearch.search(try Self.catalog(), CatalogQuery(text: "COMPUTER"))
        #expect(Self.names(hits) == ["COMPUTER 100", "CIS 162", "CIS 163", "MTH 201"])
        #expect(hits.map(\.match) == [.code, .title, .title, .description])
    }

    @Test func codesMatchWithOrWithoutTheirSpace() throws {
        let catalog = try Self.catalog()
        #expect(Self.names(CatalogSearch.search(catalog, CatalogQuery(text: "cis16"))) == ["CIS 162", "CIS 163"])
        #expect(Self.names(CatalogSearch.search(catalog, CatalogQuery(text: "cis 263"))) == ["CIS 263"])
        #expect(CatalogSearch.search(catalog, CatalogQuery(text: "cryptography")).isEmpty)
    }

    @Test func filtersNarrowAndAnEmptyQueryListsWhatPasses() throws {
        let catalog = try Self.catalog()
        #expect(Self.names(CatalogSearch.search(catalog, CatalogQuery(level: "GRADUATE"))) == ["CIS 635"])
        #expect(Self.names(CatalogSearch.search(catalog, CatalogQuery(subject: "mth"))) == ["MTH 201"])
        // 2 credits: only a course whose range holds 2.
        #expect(Self.names(CatalogSearch.search(catalog, CatalogQuery(credits: 2))) == ["CIS 499"])
        #expect(Self.names(CatalogSearch.search(catalog, CatalogQuery(subject: "CIS", credits: 4))) == ["CIS 162", "CIS 163"])
        #expect(Self.names(CatalogSearch.search(catalog, CatalogQuery(text: "data", level: "undergraduate"))) == ["CIS 263"])
        #expect(CatalogSearch.search(catalog, CatalogQuery(level: "graduate")).allSatisfy { $0.match == .filters })
    }

    @Test func requiresLooksAtPrerequisitesAndCorequisites() throws {
        let hits = CatalogSearch.search(try Self.catalog(), CatalogQuery(requires: CourseCode(parsing: "cis162")))
        #expect(Self.names(hits) == ["CIS 163", "CIS 635"])
    }

    @Test func creditsWithoutARangeCompareWithTheCredits() throws {
        var record: [String: JSONValue] = ["name": .string("ART 100"), "title": .string("Drawing"), "credits": .int(2)]
        let drawing = try SearchableCourse(record: .object(record))
        #expect(drawing.subject == "ART")
        #expect(Self.names(CatalogSearch.search([drawing], CatalogQuery(credits: 2))) == ["ART 100"])
        #expect(CatalogSearch.search([drawing], CatalogQuery(credits: 3)).isEmpty)
        record["name"] = .int(5)
        #expect(throws: FormatError.self) { try SearchableCourse(record: .object(record)) }
    }

    @Test func publishedDocumentsAreReadAndOthersRefused() throws {
        let text = #"{"schemaVersion": 1, "catalog": {"id": "x"}, "courseCount": 1, "courses": [{"name": "CIS 162", "title": "CS I"}]}"#
        let courses = try CatalogSearch.courses(in: Array(text.utf8))
        #expect(courses.map(\.name) == ["CIS 162"])
        #expect(throws: FormatError.self) { try CatalogSearch.courses(in: Array(#"{"news": []}"#.utf8)) }
        #expect(throws: FormatError.self) { try CatalogSearch.courses(in: Array(#"{"courses": [{"title": "x"}]}"#.utf8)) }
    }

    @Test func aMemberOfAnotherTypeIsRefusedByNameNotReadAsAbsent() throws {
        let misfits: [(String, JSONValue, String)] = [
            ("title", .int(5), #"expected "title" as a string or null, got 5"#),
            ("level", .bool(true), #"expected "level" as a string or null, got true"#),
            ("credits", .string("three"), #"expected "credits" as a number or null, got "three""#),
            ("creditRange", .object(["min": .int(1)]), #"expected "creditRange" as an object with numbers "min" and "max" or null, got an object"#),
            ("prerequisiteCourses", .array([.int(162)]), #"expected "prerequisiteCourses" as an array of strings or null, got an array"#),
            ("corequisiteCourses", .string("CIS 162"), #"expected "corequisiteCourses" as an array of strings or null, got "CIS 162""#),
        ]
        for (key, value, message) in misfits {
            let record: [String: JSONValue] = ["name": .string("CIS 162"), key: value]
            #expect(throws: FormatError(message: message)) { try SearchableCourse(record: .object(record)) }
        }
        let nulls = Dictionary(uniqueKeysWithValues: misfits.map { ($0.0, JSONValue.null) }).merging(["name": .string("CIS 162")]) { $1 }
        #expect(try SearchableCourse(record: .object(nulls)).title == "")
        #expect(try Self.catalog().count == 7)
    }
}
