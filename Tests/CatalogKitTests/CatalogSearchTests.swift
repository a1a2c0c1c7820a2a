import Foundation
import Testing
@testable import CatalogKit

/// The search over published course records: matching, ranking and filters.
@Suite struct CatalogSearchTests {
    static func course(_ name: String, _ title: String, description: String = "", level: String? = "Undergraduate",
                       credits: (Double, Double)? = (3, 3), requires: [String] = [], coreq: [String] = []) -> SearchableCourse {
        var record = CourseRecord(SnapshotTestSupport.course("CIS 100", title: title, description: description, credits: nil))
        record.name = name
        record.subject = String(name.prefix { $0 != " " })
        record.level = level
        record.prerequisiteCourses = requires
        record.corequisiteCourses = coreq
        record.credits = Int(credits?.0 ?? 0)
        record.creditRange = credits.map { CreditRange(min: $0.0, max: $0.1) }
        return SearchableCourse(record)
    }

    static func catalog() -> [SearchableCourse] {
        [
            course("MTH 201", "Calculus I", description: "Limits and derivatives for computer scientists."),
            course("CIS 263", "Data Structures", description: "Lists and trees.", requires: ["CIS 163"]),
            course("CIS 162", "Computer Science I", credits: (4, 4)),
            course("CIS 163", "Computer Science II", credits: (4, 4), requires: ["CIS 162"]),
            course("CIS 499", "Independent Study", credits: (1, 3)),
            course("CIS 635", "Data Mining", level: "Graduate", coreq: ["CIS 162"]),
            course("COMPUTER 100", "Orientation"),
        ]
    }

    static func names(_ hits: [SearchHit]) -> [String] { hits.map(\.course.name) }

    @Test func codeThenTitleThenDescriptionTiesInCodeOrder() throws {
        let hits = CatalogSearch.search(Self.catalog(), CatalogQuery(text: "COMPUTER"))
        #expect(Self.names(hits) == ["COMPUTER 100", "CIS 162", "CIS 163", "MTH 201"])
        #expect(hits.map(\.match) == [.code, .title, .title, .description])
    }

    @Test func codesMatchWithOrWithoutTheirSpace() throws {
        let catalog = Self.catalog()
        #expect(Self.names(CatalogSearch.search(catalog, CatalogQuery(text: "cis16"))) == ["CIS 162", "CIS 163"])
        #expect(Self.names(CatalogSearch.search(catalog, CatalogQuery(text: "cis 263"))) == ["CIS 263"])
        #expect(CatalogSearch.search(catalog, CatalogQuery(text: "cryptography")).isEmpty)
    }

    @Test func filtersNarrowAndAnEmptyQueryListsWhatPasses() throws {
        let catalog = Self.catalog()
        #expect(Self.names(CatalogSearch.search(catalog, CatalogQuery(level: "GRADUATE"))) == ["CIS 635"])
        #expect(Self.names(CatalogSearch.search(catalog, CatalogQuery(subject: "mth"))) == ["MTH 201"])
        // 2 credits: only a course whose range holds 2.
        #expect(Self.names(CatalogSearch.search(catalog, CatalogQuery(credits: 2))) == ["CIS 499"])
        #expect(Self.names(CatalogSearch.search(catalog, CatalogQuery(subject: "CIS", credits: 4))) == ["CIS 162", "CIS 163"])
        #expect(Self.names(CatalogSearch.search(catalog, CatalogQuery(text: "data", level: "undergraduate"))) == ["CIS 263"])
        #expect(CatalogSearch.search(catalog, CatalogQuery(level: "graduate")).allSatisfy { $0.match == .filters })
    }

    @Test func requiresLooksAtPrerequisitesAndCorequisites() throws {
        let hits = CatalogSearch.search(Self.catalog(), CatalogQuery(requires: CourseCode(parsing: "cis162")))
        #expect(Self.names(hits) == ["CIS 163", "CIS 635"])
    }

    @Test func creditsWithoutARangeCompareWithTheCredits() {
        var record = Self.course("ART 100", "Drawing", credits: nil).record
        record.credits = 2
        let drawing = SearchableCourse(record)
        #expect(drawing.subject == "ART")
        #expect(Self.names(CatalogSearch.search([drawing], CatalogQuery(credits: 2))) == ["ART 100"])
        #expect(CatalogSearch.search([drawing], CatalogQuery(credits: 3)).isEmpty)
    }

    /// A catalog document as `catalog.json` has it, with the first course's members replaced.
    static func document(_ members: [String: JSONValue]) -> [UInt8] {
        guard case var .object(record) = JSONValue(encoding: Self.catalog()[0].record) else { return [] }
        record.merge(members) { $1 }
        return Array(JSONValue.object(["schemaVersion": .int(1), "courses": .array([.object(record)])]).serialized().utf8)
    }

    @Test func publishedDocumentsAreReadAndOthersRefused() throws {
        #expect(try CatalogSearch.courses(in: Self.document([:])).map(\.name) == ["MTH 201"])
        #expect(throws: FormatError.self) { try CatalogSearch.courses(in: Array(#"{"news": []}"#.utf8)) }
        #expect(throws: FormatError.self) { try CatalogSearch.courses(in: Array(#"{"courses": [{"title": "x"}]}"#.utf8)) }
    }

    /// Reading a catalog is decoding its records: a member of another type is refused by its JSON path, never read
    /// as absent (which would drop the course from a filter with nothing said).
    @Test func aMemberOfAnotherTypeIsRefusedByItsPath() throws {
        let misfits: [(String, JSONValue)] = [("title", .int(5)), ("level", .bool(true)), ("credits", .string("three")),
                                              ("creditRange", .object(["min": .int(1)])), ("prerequisiteCourses", .array([.int(162)])),
                                              ("corequisiteCourses", .string("CIS 162")), ("name", .null)]
        for (key, value) in misfits {
            let error = #expect(throws: FormatError.self) { try CatalogSearch.courses(in: Self.document([key: value])) }
            #expect(error?.message.hasPrefix("courses[0].\(key)") == true, "\(key): \(error?.message ?? "")")
        }
        let read = try CatalogSearch.courses(in: Self.document(["level": .null, "creditRange": .null]))
        #expect(read.first?.level == nil && read.first?.record.creditRange == nil)
        #expect(Self.catalog().count == 7)
    }
}

/// The one ranking `gvingest search` and the site share (issue 38): exact code, start of a code, exact title, start
/// of the title, every word in the title, every word anywhere; ties to the shorter title, then code order.
@Suite struct SearchRankingTests {
    static let catalog = [
        CatalogSearchTests.course("MATH 2414", "Calculus II"),
        CatalogSearchTests.course("MATH 1431", "Calculus II SEP Workshop"),
        CatalogSearchTests.course("MATH 1430", "Calculus I SEP Workshop"),
        CatalogSearchTests.course("MATH 2413", "Calculus I"),
        CatalogSearchTests.course("MATH 3333", "Intermediate Analysis", description: "Rigorous calculus, in one variable."),
        CatalogSearchTests.course("MATH 1314", "Business Calculus I"),
        CatalogSearchTests.course("CALC 1", "Calculators in Ćlassrooms"),
    ]

    static func names(_ text: String) -> [String] { CatalogSearch.search(catalog, CatalogQuery(text: text)).map(\.course.name) }

    @Test func theExactTitleComesBeforeLongerTitlesStartingWithIt() {
        let hits = CatalogSearch.search(Self.catalog, CatalogQuery(text: "calculus i"))
        #expect(hits.map(\.course.name) == ["MATH 2413", "MATH 2414", "MATH 1430", "MATH 1431", "MATH 1314", "MATH 3333"])
        #expect(hits.map(\.tier) == [.exactTitle, .titlePrefix, .titlePrefix, .titlePrefix, .titleWords, .anywhere])
    }

    @Test func codesComeFirstAndWordsMatchTheStartsOfWords() {
        // "calc 1" is CALC 1's code; then the courses with a word starting "calc" and one starting "1", the shorter
        // title first.
        #expect(Self.names("calc 1") == ["CALC 1", "MATH 1314", "MATH 1430", "MATH 1431"])
        #expect(Self.names("calc").first == "CALC 1")
        #expect(CatalogSearch.search(Self.catalog, CatalogQuery(text: "calc")).first?.tier == .codePrefix)
        // "ulus" is inside a word, not at its start.
        #expect(Self.names("ulus").isEmpty)
        // Accents and punctuation fold away: "classrooms" finds "Ćlassrooms", "Calculus-I" reads "calculus i".
        #expect(Self.names("classrooms") == ["CALC 1"])
        #expect(Self.names("Calculus-I").first == "MATH 2413")
        #expect(SearchKeys.fold("  Calculus—I, (Honors) ") == "calculus i honors")
    }

    @Test func creditsReadAsPeopleSayThem() {
        #expect(CourseRecord.creditsPhrase("1") == "1 credit")
        #expect(CourseRecord.creditsPhrase("2") == "2 credits")
        #expect(CourseRecord.creditsPhrase("1-3") == "1–3 credits")
        #expect(CourseRecord.creditsPhrase("1.5") == "1.5 credits")
        #expect(CourseRecord.creditsPhrase("Variable") == "Variable")
        var record = CatalogSearchTests.course("ART 1", "Drawing", credits: (2, 2)).record
        #expect(record.creditsPhrase == "2 credits")
        record.creditRange = CreditRange(min: 1, max: 1)
        #expect(record.creditsPhrase == "1 credit")
    }
}
