import Foundation
import Testing
@testable import CatalogKit

/// Every recorded GVSU page against the hand-written golden file beside it.
@Suite struct GoldenFixtureTests {
    struct CourseGolden: Decodable, Equatable {
        struct Link: Decodable, Equatable {
            var code: String
            var url: String
        }

        var catalog: String?
        var subject: String
        var number: String
        var suffix: String?
        var title: String
        var credits: String?
        var contactHours: String?
        var offered: String?
        var description: String
        var prerequisite: String?
        var corequisite: String?
        var prerequisiteLinks: [Link]
        var fields: [String: String]
    }

    struct SubjectGolden: Decodable, Equatable {
        struct Course: Decodable, Equatable {
            var code: String
            var title: String
            var url: String
        }

        var subject: String
        var code: String
        var courses: [Course]
    }

    static let coursePages = TestPaths.files(in: TestPaths.gvsuFixtures.appendingPathComponent("course"), suffix: ".html")
        .map(\.lastPathComponent)
    static let subjectPages = TestPaths.files(in: TestPaths.gvsuFixtures.appendingPathComponent("subject"), suffix: ".html")
        .map(\.lastPathComponent)

    static func parse(_ url: URL) throws -> PageResult {
        let bytes = Array(try Data(contentsOf: url))
        return PageParser(system: .fixed(.gvsu)).parse(bytes: bytes, sourceURL: url, input: url.lastPathComponent)
    }

    static func golden<T: Decodable>(_ page: URL, as type: T.Type) throws -> T {
        let goldenURL = page.deletingPathExtension().appendingPathExtension("golden.json")
        return try JSONDecoder().decode(T.self, from: Data(contentsOf: goldenURL))
    }

    @Test func theRecordedCatalogIsLargeAndVaried() {
        #expect(Self.coursePages.count >= 60)
        #expect(Self.subjectPages.count >= 3)
        let subjects = Set(Self.coursePages.map { $0.split(separator: "-")[0] })
        #expect(subjects.count >= 6)
    }

    @Test(arguments: coursePages)
    func coursePageMatchesItsGolden(_ name: String) throws {
        let page = TestPaths.gvsuFixtures.appendingPathComponent("course").appendingPathComponent(name)
        let expected = try Self.golden(page, as: CourseGolden.self)
        let result = try Self.parse(page)
        #expect(result.failure == nil)
        try #require(result.courses.count == 1, "\(name): expected one course, got \(result.courses.count)")
        let course = result.courses[0]
        let actual = CourseGolden(
            catalog: course.catalogName, subject: course.code.subject, number: course.code.number,
            suffix: course.code.suffix, title: course.title, credits: course.creditsText,
            contactHours: course.contactHours, offered: course.offered, description: course.description,
            prerequisite: course.prerequisiteText, corequisite: course.corequisiteText,
            prerequisiteLinks: course.prerequisiteLinks.map { .init(code: $0.code ?? "?", url: $0.url ?? "?") },
            fields: Dictionary(course.fields.map { ($0.label, $0.value) }, uniquingKeysWith: { $0 + "\n" + $1 }))
        #expect(actual == expected, "\(name)")
        // Every field that has a value says where it came from.
        #expect(course.provenance["title"] != nil)
        if course.creditsText != nil { #expect(course.provenance["credits"] != nil) }
        if course.prerequisiteText != nil { #expect(course.provenance["prerequisite"] != nil) }
    }

    @Test(arguments: subjectPages)
    func subjectPageMatchesItsGolden(_ name: String) throws {
        let page = TestPaths.gvsuFixtures.appendingPathComponent("subject").appendingPathComponent(name)
        let expected = try Self.golden(page, as: SubjectGolden.self)
        let result = try Self.parse(page)
        #expect(result.courses.isEmpty)
        let listing = try #require(result.listing)
        #expect(listing.heading == expected.subject)
        #expect(listing.subjectCode == expected.code)
        #expect(listing.courses.map(\.code) == expected.courses.map(\.code))
        #expect(listing.courses.map(\.title) == expected.courses.map(\.title))
        #expect(listing.courses.map(\.url) == expected.courses.map(\.url))
    }

    @Test func autoDetectionPicksGVSUForTheRecordedPages() throws {
        let page = TestPaths.gvsuFixtures.appendingPathComponent("course/cis-452.html")
        let result = PageParser(system: .auto).parse(bytes: Array(try Data(contentsOf: page)), sourceURL: page, input: "cis-452")
        #expect(result.system == .gvsu)
        #expect(result.courses.first?.code.description == "CIS 452")
    }
}
