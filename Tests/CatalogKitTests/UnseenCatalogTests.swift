import Foundation
import Testing
@testable import CatalogKit

/// UH's graduate catalog 40, read with no configuration as a new user would: four-digit numbering, numbers
/// with letters, and codes that two pages share.
@Suite struct UnseenCatalogTests {
    static func catalog40(reversed: Bool = false) async -> [Course] {
        var results = await RealPageTests.parseAll(RealPageTests.uh.appendingPathComponent("40"))
        if reversed { results.reverse() }
        return Normalizer().normalize(catalog: results.flatMap(\.courses))
    }

    @Test func sharedCodesComeOutTheSameWhateverThePageOrder() async throws {
        let courses = await Self.catalog40()
        let reversed = await Self.catalog40(reversed: true)
        #expect(courses == reversed)
        #expect(Set(courses.map(\.id)).count == courses.count)
        let byCode = Dictionary(grouping: courses, by: { $0.code.description })
        let shared = byCode.filter { $0.value.count > 1 }
        // Two titles under one code are two courses, each with its own id and a warning naming the other.
        for code in ["MANA 7334", "CIVE 6398", "MIS 7375", "MUSI 6298"] {
            let pair = try #require(shared[code], "\(code) is shared by two different courses")
            #expect(pair.count == 2)
            #expect(Set(pair.map(\.title)).count == 2)
            #expect(pair.allSatisfy { course in course.warnings.contains { $0.contains("\(code) is also the code of a different course") } })
        }
        // The same course on two pages is one course, the other page named.
        for code in ["FINA 7397", "LAW 7397", "MATH 8199", "SOCW 7372", "MANA 6A32", "MECE 6397"] {
            let one = try #require(byCode[code])
            #expect(one.count == 1, "\(code): \(one.map(\.id))")
            #expect(one.first?.id == CourseCode(parsing: code)?.id)
            #expect(one.first?.warnings.contains { $0.contains("listed again at") } == true)
        }
        // Every course with a shared code is named in some warning; no course was dropped in silence.
        #expect(courses.count == 4068 - 6)
    }

    @Test func levelsFollowTheCatalogsOwnNumbering() async throws {
        let courses = await Self.catalog40()
        let byName = Dictionary(courses.map { ($0.code.description, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byName["FINA 7A20"]?.level == .graduate)
        #expect(byName["FINA 7A20"]?.code.numericValue == 7020)
        #expect(byName["PHOP 8X98"]?.level == .doctoral)
        for course in courses {
            let source = try #require(course.levelSource, "\(course.code) has no level")
            if course.level == .doctoral {
                // Doctoral only where the catalog says so.
                #expect(course.title.lowercased().contains("doctora"), "\(course.code) \(course.title)")
            } else if course.code.numericValue >= 5000 {
                #expect(course.level == .graduate, "\(course.code): \(source)")
            }
            #expect(source.contains("four-digit numbering") || source.contains("the page's"), "\(course.code): \(source)")
        }
    }
}
