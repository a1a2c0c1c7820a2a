import Foundation
import Testing

/// Diagnostics a maintainer can act on: what matched nothing and what was nearest, known course-less pages, unmapped
/// labels that look like a missing field, where rules go, and no raw Foundation text.
@Suite struct DiagnosticsTests {
    static func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-diagnostics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func noCourseFoundNamesTheRulesThatMatchedNothingAndTheNearestCandidate() async throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("odd.html")
        try Data("<html><body><p>2024-2025 Catalog</p><div><h3>CIS 999 - Weird Course</h3><p>Something.</p></div></body></html>".utf8)
            .write(to: page)
        let outcome = try await Binary.run(["parse", page.path, "--system", "acalog"])
        #expect(outcome.status == 65)
        #expect(outcome.stderr.contains("matched nothing: id('course_preview_title')[self::h1] (a course page)"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains(#"nearest candidate: <h3> at /html/body/div/h3: "CIS 999 - Weird Course""#), "\(outcome.stderr)")
    }

    @Test func knownCourseLessPagesSaySo() async throws {
        let realworld = Binary.realworld
        let fragment = realworld.appendingPathComponent("banner/aus-banner9-getCourseDescription-cmp305.html").path
        let index = realworld.appendingPathComponent("courseleaf-umdearborn/umdearborn-undergrad-coursesaz-index.html").path
        let outcome = try await Binary.run(["parse", fragment, index])
        #expect(outcome.status == 65)
        #expect(outcome.stderr.contains("\(fragment): a Banner 9 fragment"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("\(index): a CourseLeaf A–Z index of subjects, which holds no course"), "\(outcome.stderr)")
    }

    @Test func aMissingFieldPointsAtTheUnmappedLabelThatLooksLikeIt() async throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = try String(contentsOf: Binary.fixtures.appendingPathComponent("gvsu/course/cis-162.html"), encoding: .utf8)
        let page = directory.appendingPathComponent("cis-162.html")
        try Data(original.replacingOccurrences(of: "Credits:", with: "Credit Hrs:").utf8).write(to: page)
        let outcome = try await Binary.run(["parse", page.path])
        #expect(outcome.stderr.contains("CIS 162: no credits found"))
        #expect(outcome.stderr.contains(#"CIS 162: label "Credit Hrs:" looks like credits: map it in rules.labels (e.g. "Credit Hrs:?": "credits")"#),
                "\(outcome.stderr)")
        // A page whose credits were found gets no hint.
        #expect(!(try await Binary.run(["parse", "Fixtures/gvsu/course/cis-162.html"])).stderr.contains("hint:"))
    }

    @Test func aBareRulesObjectIsToldWhereRulesGo() async throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("rules.json")
        try Data(#"{"course": "//div[@class='courseblock']", "code": ".//p"}"#.utf8).write(to: file)
        for arguments in [["config", "check", file.path], ["parse", "--rules", file.path, "Fixtures/acalog"]] {
            let outcome = try await Binary.run(arguments)
            #expect(outcome.status == 65)
            #expect(outcome.stderr.contains("looks like a rules object; rules go under catalogs[].rules"), "\(outcome.stderr)")
        }
    }

    @Test func anEmptyDirectoryIsNotAMirrorInPlainWords() async throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try await Binary.run(["fetch", "--replay", directory.path])
        #expect(outcome.status == 66)
        #expect(outcome.stderr.contains("\(directory.path): not a mirror: it has no index.json"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("The operation could not be completed"))
        #expect(!outcome.stderr.contains("doesn’t exist"))
    }
}
