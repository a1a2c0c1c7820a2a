import Foundation
import Testing
@testable import CatalogKit

@Suite struct NormalizerTests {
    static func parsed(_ code: String, title: String = "T", credits: String? = "3", prerequisite: String? = nil,
                       fields: [LabelledField] = []) -> ParsedCourse {
        var course = ParsedCourse(code: CourseCode(parsing: code) ?? CourseCode(subject: "X", number: "0"), title: title,
                                  sourceURL: "file:///x/\(code).html", system: .gvsu)
        course.creditsText = credits
        course.prerequisiteText = prerequisite
        course.fields = fields
        course.pageURL = "https://www.gvsu.edu/catalog/course/\(code.lowercased().replacingOccurrences(of: " ", with: "-")).htm"
        return course
    }

    @Test(arguments: [(50, CourseLevel.developmental), (98, .developmental), (100, .undergraduate), (499, .undergraduate),
                      (500, .graduate), (699, .graduate), (700, .doctoral), (980, .doctoral)])
    func levelsComeFromGVSUNumberRanges(_ number: Int, _ level: CourseLevel) {
        let course = Normalizer().normalize(Self.parsed("CIS \(String(format: "%03d", number))"))
        #expect(course.level == level)
        #expect(course.levelSource?.contains("normalize.levels") == true)
    }

    @Test func aLevelTheStatesWins() {
        let course = Normalizer().normalize(Self.parsed("CIS 450", fields: [LabelledField(label: "Level", value: "Graduate")]))
        #expect(course.level == .graduate)
        #expect(course.level?.displayName == "Graduate")
        #expect(course.levelSource == "the page's \"Level\" field")
    }

    @Test func subjectAliasesRenameCoursesAndTheirRequisites() {
        let rules = NormalizationRules(subjects: SubjectAliases(["CS": "CIS", "Computer Information Systems": "CIS"]),
                                       knownSubjects: ["CIS", "MTH"])
        let course = Normalizer(rules: rules).normalize(Self.parsed("CS 162", prerequisite: "CS 150 and MTH 110."))
        #expect(course.code.description == "CIS 162")
        #expect(course.id == "cis-162")
        #expect(course.prerequisiteCourses == ["CIS 150", "MTH 110"])
        #expect(course.warnings.isEmpty)
        let unknown = Normalizer(rules: rules).normalize(Self.parsed("PHY 220"))
        #expect(unknown.code.description == "PHY 220")
        #expect(unknown.warnings == ["unknown subject PHY (not in normalize.knownSubjects); kept"])
    }

    @Test func creditsBecomeARangeAndTheAppInteger() {
        let variable = Normalizer().normalize(Self.parsed("CIS 499", credits: "1-3"))
        #expect(variable.credits == CreditRange(min: 1, max: 3))
        #expect(variable.appCredits == 1)
        var old = Self.parsed("MTH 345", credits: nil)
        old.contactHours = "3-0-0"
        #expect(Normalizer().normalize(old).credits == CreditRange(min: 3, max: 3))
        let odd = Normalizer().normalize(Self.parsed("CIS 100", credits: "see department"))
        #expect(odd.credits == nil)
        #expect(odd.creditsText == "see department")
        #expect(odd.warnings.contains("credits \"see department\" not understood; kept as written"))
    }

    @Test func textIsCleanedButParagraphsStay() {
        var course = Self.parsed("CIS 162", title: "Data\u{00AD}bases \u{201C}One\u{201D}\u{200B}")
        course.description = "First\u{A0} para\u{2019}s  text.\n\nSecond\u{FEFF} para."
        let cleaned = Normalizer().normalize(course)
        #expect(cleaned.title == "Databases \"One\"")
        #expect(cleaned.description == "First para's text.\n\nSecond para.")
    }

    @Test func requisitesGetCanonicalTextMarkdownAndCourses() {
        var course = Self.parsed("CIS 452", prerequisite: "cis241; and CIS 351 or (EGR 326 and EGR major standing).")
        course.prerequisiteLinks = [CourseLink(code: "CIS 241", text: "cis241", url: "https://x.edu/cis-241")]
        let normalized = Normalizer().normalize(course)
        #expect(normalized.prerequisiteString == "CIS 241; and CIS 351 or (EGR 326 and EGR major standing).")
        #expect(normalized.prerequisiteCourses == ["CIS 241", "CIS 351", "EGR 326"])
        #expect(normalized.prerequisiteMarkdown == "[CIS 241](https://x.edu/cis-241); and CIS 351 or (EGR 326 and EGR major standing).")
        #expect(normalized.prerequisite?.courses == ["CIS 241", "CIS 351", "EGR 326"])
    }

    /// Text between codes is copied by index: multi-byte characters before, between and after codes stay whole.
    @Test func markdownLinksCodesInTextBeyondASCII() {
        let markdown = RequisiteMarkdown.render("Élève: CIS 162 ou MTH 110 — et “CIS 163”é", links: ["CIS 162": "u1", "CIS 163": "u2"])
        #expect(markdown == "Élève: [CIS 162](u1) ou MTH 110 — et “[CIS 163](u2)”é")
        #expect(RequisiteMarkdown.render("😀CIS 162", links: ["CIS 162": "u"]) == "😀[CIS 162](u)")
    }

    @Test func markdownEscapesMarkupAndLinksKnownCodes() {
        let markdown = RequisiteMarkdown.render("CIS 162 [Min Grade: C] *or* MTH_110", links: ["CIS 162": "https://x.edu/a_(b)"])
        #expect(markdown == "[CIS 162](https://x.edu/a_%28b%29) \\[Min Grade: C\\] \\*or\\* MTH\\_110")
    }

    @Test func keepingMovesTheChosenCoursesIntoTheirOrder() {
        let courses = (0..<12).map { Normalizer().normalize(Self.parsed("CIS \(100 + $0)")) }
        // Every order of a few picks, including none, all, and picks that leave courses behind.
        for kept in [[], [0], [11, 0], [3, 7, 1, 10], [5, 4, 3, 2, 1, 0], Array((0..<12).reversed()), [2, 9, 0, 6, 11, 4, 8]] {
            var moved = courses
            Normalizer.keep(kept, of: &moved)
            #expect(moved.map(\.id) == kept.map { courses[$0].id })
        }
    }

    @Test func theCatalogGetsReverseLinksMissingReferencesAndOneRecordPerId() {
        let catalog = Normalizer().normalize(catalog: [
            Self.parsed("CIS 163", prerequisite: "CIS 162."),
            Self.parsed("CIS 162", prerequisite: "MTH 110 or placement."),
            Self.parsed("CIS 241", prerequisite: "CIS 162 and CIS 163."),
            Self.parsed("CIS 162", title: "Duplicate"),
        ])
        #expect(catalog.map(\.id) == ["cis-162", "cis-163", "cis-241"])
        let intro = catalog[0]
        #expect(intro.title == "T")
        #expect(intro.prerequisiteFor == ["CIS 163", "CIS 241"])
        #expect(intro.missingReferences == ["MTH 110"])
        #expect(intro.warnings.contains { $0.contains("also found at") })
        #expect(catalog[1].prerequisiteMarkdown == "[CIS 162](https://www.gvsu.edu/catalog/course/cis-162.htm).")
        #expect(catalog[2].missingReferences.isEmpty)
    }

    @Test func theFixtureCatalogNormalizesWithoutSurprises() throws {
        let index = try MirrorIndex.load(from: TestPaths.gvsuFixtures)
        let parsed = try index.pages.values.filter { $0.file.hasPrefix("course/") }.map(\.file).sorted().flatMap { file in
            let url = TestPaths.gvsuFixtures.appendingPathComponent(file)
            return PageParser(system: .fixed(.gvsu)).parse(bytes: Array(try Data(contentsOf: url)), sourceURL: url, input: file).courses
        }
        let catalog = Normalizer().normalize(catalog: parsed)
        #expect(catalog.count == 71)
        #expect(catalog.filter { $0.level == .graduate }.count >= 6)
        let lab = try #require(catalog.first { $0.id == "bio-120l" })
        #expect(lab.code.numericValue == 120)
        #expect(catalog.allSatisfy { $0.level != nil })
        let intro = try #require(catalog.first { $0.id == "cis-162" })
        #expect(intro.prerequisiteFor.contains("CIS 163"))
    }
}
