import Foundation
import Testing
@testable import CatalogKit

/// Acalog page layouts written for the tests: the full course page and a paged listing.
@Suite struct AcalogFixtureTests {
    static let folder = TestPaths.fixtures.appendingPathComponent("acalog")

    static func parse(_ name: String, system: SystemChoice = .auto) throws -> PageResult {
        let url = folder.appendingPathComponent(name)
        return PageParser(system: system).parse(bytes: Array(try Data(contentsOf: url)), sourceURL: url, input: name)
    }

    @Test func theFullCoursePageYieldsEveryLabelledField() throws {
        let result = try Self.parse("preview_course_nopop-catoid-10-coid-4242.html")
        #expect(result.system == .acalog)
        #expect(result.listing == nil)
        let course = try #require(result.courses.first)
        #expect(result.courses.count == 1)
        #expect(course.code.description == "CIS 162")
        #expect(course.title == "Computer Science I")
        #expect(course.catalogName == "2024-2025 Undergraduate Catalog")
        #expect(course.creditsText == "4")
        #expect(course.offered == "Fall, Winter, Spring/Summer")
        #expect(course.description == "Introduction to computer science and programming with Java: problem solving, algorithms, data types, control structures, arrays and objects. Students write, test and debug programs.")
        #expect(course.prerequisiteText == "MTH 110 with a grade of C or better, or placement.")
        #expect(course.prerequisiteLinks == [CourseLink(code: "MTH 110", text: "MTH 110",
                                                        url: "https://catalog.example.edu/preview_course_nopop.php?catoid=10&coid=4100")])
        #expect(course.corequisiteText == "CIS 162L")
        #expect(course.corequisiteLinks.map(\.code) == ["CIS 162L"])
        #expect(course.fields.map(\.label) == ["Lecture Hours", "Lab Hours", "Repeatability", "General Education"])
        #expect(course.field("General Education") == "Mathematical Sciences & Logic")
        #expect(course.provenance["code"]?.contains("h1#course_preview_title") == true)
        #expect(course.provenance["prerequisite"]?.contains("label \"Prerequisite(s):\" in <strong>") == true)
        // Hidden helpers and the page tools after the course are not part of it.
        let everything = ([course.description] + course.notes + course.fields.map(\.value)).joined(separator: " ")
        #expect(!everything.contains("Hidden helper"))
        #expect(!everything.contains("Tooltip"))
        #expect(!everything.contains("Back to Top"))
    }

    @Test func theListingGivesCourseLinksAndThePagerCount() throws {
        let result = try Self.parse("content-catoid-10-navoid-600-page-2.html")
        #expect(result.system == .acalog)
        #expect(result.courses.isEmpty)
        let listing = try #require(result.listing)
        #expect(listing.pageCount == 7)
        #expect(listing.courses.map(\.code) == ["CIS 162", "CIS 162L", "CIS 163", "CIS 241"])
        #expect(listing.courses.map(\.url) == [4242, 4243, 4250, 4260].map {
            "https://catalog.example.edu/preview_course_nopop.php?catoid=10&coid=\($0)"
        })
        #expect(listing.pageLinks.count == 5)
        #expect(listing.pageLinks.allSatisfy { $0.hasPrefix("https://catalog.example.edu/content.php?catoid=10&navoid=600&filter") })
        #expect(AcalogParser().pagerPage(of: listing.pageLinks[2]) == 4)
    }

    @Test func pagerNumbersAreReadInBothSpellings() {
        #expect(AcalogParser().pagerPage(of: "content.php?catoid=1&filter%5Bcpage%5D=12#x") == 12)
        #expect(AcalogParser().pagerPage(of: "content.php?catoid=1&filter[cpage]=3") == 3)
        #expect(AcalogParser().pagerPage(of: "content.php?catoid=1&navoid=2") == nil)
    }

    @Test func theGVSUParserFindsNoListingInAnAcalogPage() throws {
        let result = try Self.parse("content-catoid-10-navoid-600-page-2.html", system: .fixed(.gvsu))
        #expect(result.courses.isEmpty)
        #expect(result.listing == nil)
    }
}
