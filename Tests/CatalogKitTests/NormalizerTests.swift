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
        #expect(course.levelSource?.contains("three-digit numbering, read from the catalog's course numbers") == true)
    }

    @Test func aFourDigitCatalogIsReadAsOneWithNoConfiguration() {
        let parsed = ["ACCT 2301", "COSC 1336", "FINA 7A20", "DANC 2303", "MATH 0300", "PHOP 8X98", "CIS 162"].map { code in
            Self.parsed(code, title: code == "PHOP 8X98" ? "Doctoral Research" : "T")
        }
        let catalog = Normalizer().normalize(catalog: parsed)
        func level(_ id: String) -> CourseLevel? { catalog.first { $0.id == id }?.level }
        #expect(level("danc-2303") == .undergraduate)
        #expect(level("fina-7a20") == .graduate)
        #expect(level("math-0300") == .developmental)
        // Doctoral only where the catalog's own words say so, not by a range.
        #expect(level("phop-8x98") == .doctoral)
        #expect(catalog.first { $0.id == "phop-8x98" }?.levelSource?.contains("the title's word \"Doctoral\"") == true)
        // The odd three-digit code of a four-digit catalog is read by the catalog's scheme.
        #expect(level("cis-162") == .developmental)
        #expect(catalog.first { $0.id == "danc-2303" }?.levelSource
            == "number 2303 in 1000…4999 (four-digit numbering, read from the catalog's course numbers)")
    }

    @Test func aFourPlaceNumberInAThreeDigitCatalogIsReadAsFourDigit() {
        // A catalog moving to four-digit numbers (UM-Dearborn's CIS listing): three-digit ranges would make CIS 1501
        // doctoral.
        let parsed = ["CIS 150", "CIS 200", "CIS 350", "CIS 1501", "CIS 4962"].map { Self.parsed($0) }
        let catalog = Normalizer().normalize(catalog: parsed)
        func course(_ id: String) -> Course? { catalog.first { $0.id == id } }
        #expect(course("cis-1501")?.level == .undergraduate)
        #expect(course("cis-4962")?.level == .undergraduate)
        #expect(course("cis-1501")?.levelSource == "number 1501 in 1000…4999 (four-digit numbering, read from the catalog's course numbers)")
        #expect(course("cis-350")?.levelSource == "number 350 in 100…499 (three-digit numbering, read from the catalog's course numbers)")
    }

    @Test func configuredLevelsWinOverTheCatalogsNumbering() {
        let rules = NormalizationRules(levels: [LevelRange(from: 0, to: nil, level: .graduate)])
        let catalog = Normalizer(rules: rules).normalize(catalog: [Self.parsed("DANC 2303"), Self.parsed("PHOP 8X98", title: "Doctoral Research")])
        #expect(catalog.allSatisfy { $0.level == .graduate })
        #expect(catalog.allSatisfy { $0.levelSource?.hasSuffix("(normalize.levels)") == true })
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

    @Test(arguments: [("1.5", 1.5, 1.5, 1), ("1-6", 1, 6, 1), ("1 to 3", 1, 3, 1), ("0.5-1.5", 0.5, 1.5, 0), ("3 or 4", 3, 4, 3),
                      ("1-6 (variable)", 1, 6, 1)] as [(String, Double, Double, Int)])
    func creditsAsWritten(_ written: String, _ low: Double, _ high: Double, _ app: Int) {
        let course = Normalizer().normalize(Self.parsed("CIS 499", credits: written))
        #expect(course.credits == CreditRange(min: low, max: high))
        #expect(course.appCredits == app)
        #expect(course.creditsText == written)
        #expect(course.warnings.isEmpty)
    }

    @Test(arguments: ["Variable", "VAR", "Variable credit"])
    func variableCreditsWithNoNumberAreUnderstoodNotGuessed(_ written: String) {
        let course = Normalizer().normalize(Self.parsed("CIS 499", credits: written))
        #expect(course.credits == nil)
        #expect(course.appCredits == 0)
        #expect(course.creditsText == written)
        #expect(course.warnings.isEmpty)
    }

    /// A number no course carries is no credit value; one past `Int`'s range once stopped the whole run.
    @Test(arguments: ["99999999999999999999", "1000", "2024 credits"])
    func implausibleCreditNumbersAreNotUnderstood(_ written: String) {
        let course = Normalizer().normalize(Self.parsed("CIS 499", credits: written))
        #expect(course.credits == nil)
        #expect(course.appCredits == 0)
        #expect(course.warnings.contains("credits \"\(written)\" not understood; kept as written"))
        #expect(Normalizer().normalize(Self.parsed("CIS 499", credits: "999")).appCredits == 999)
    }

    @Test func wholeNumbersPastExactnessStayDoubles() {
        #expect(3.0.exactWholeNumber == 3)
        #expect((-2.0).exactWholeNumber == -2)
        #expect(2.5.exactWholeNumber == nil)
        #expect(1e20.exactWholeNumber == nil)
        #expect(Double.infinity.exactWholeNumber == nil)
        #expect(Double.nan.exactWholeNumber == nil)
        #expect(CreditRange(min: 1e20, max: 1e20).appCredits == 0)
        #expect(JSONValue.double(1e20).serialized() == "1e+20")
        #expect(JSONValue.double(12).serialized() == "12")
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

    @Test func theCatalogGetsReverseLinksAndMissingReferences() {
        let catalog = Normalizer().normalize(catalog: [
            Self.parsed("CIS 163", prerequisite: "CIS 162."),
            Self.parsed("CIS 162", prerequisite: "MTH 110 or placement."),
            Self.parsed("CIS 241", prerequisite: "CIS 162 and CIS 163."),
        ])
        #expect(catalog.map(\.id) == ["cis-162", "cis-163", "cis-241"])
        let intro = catalog[0]
        #expect(intro.prerequisiteFor == ["CIS 163", "CIS 241"])
        #expect(intro.missingReferences == ["MTH 110"])
        #expect(catalog[1].prerequisiteMarkdown == "[CIS 162](https://www.gvsu.edu/catalog/course/cis-162.htm).")
        #expect(catalog[2].missingReferences.isEmpty)
    }

    static func copy(_ course: ParsedCourse, at url: String, title: String? = nil, description: String? = nil) -> ParsedCourse {
        var copy = course
        copy.sourceURL = url
        if let title { copy.title = title }
        if let description { copy.description = description }
        return copy
    }

    @Test func aCourseListedTwiceIsOneCourseWhateverThePageOrder() {
        var first = Self.parsed("SOCW 7372", title: "Global Social Justice")
        first.description = "Analysis of international political economy."
        // The same course on a second page: "&" for "and", other spacing and punctuation.
        let second = Self.copy(first, at: "file:///a/first.html", description: " Analysis of international  political economy ")
        for order in [[first, second], [second, first]] {
            let catalog = Normalizer().normalize(catalog: order)
            #expect(catalog.map(\.id) == ["socw-7372"])
            // The copy read from the first URL stands for both, and the other page is named.
            #expect(catalog[0].parsed.sourceURL == "file:///a/first.html")
            #expect(catalog[0].warnings.contains { $0.contains("listed again at file:///x/SOCW 7372.html") })
        }
    }

    @Test func differentCoursesSharingACodeKeepDistinctStableIds() {
        var management = Self.parsed("MANA 7334", title: "Management Development & Career Planning")
        management.description = "Career stages."
        let learning = Self.copy(management, at: "file:///b/7334.html", title: "Learning Systems & Management Development",
                                 description: "Training practices.")
        // Same title, different description: the description tells them apart.
        let learningAgain = Self.copy(learning, at: "file:///c/7334.html", description: "Another text entirely.")
        let runs = [[management, learning, learningAgain], [learningAgain, management, learning], [learning, learningAgain, management]]
            .map { Normalizer().normalize(catalog: $0) }
        #expect(runs.allSatisfy { $0.map(\.id) == runs[0].map(\.id) })
        #expect(runs.allSatisfy { $0 == runs[0] })
        let ids = runs[0].map(\.id)
        #expect(ids.count == 3 && Set(ids).count == 3)
        #expect(ids.contains("mana-7334-management-development-and-career-planning"))
        #expect(ids.filter { $0.hasPrefix("mana-7334-learning-systems-and-management-development-") }.count == 2)
        // Every such course names the others in its warnings, which the run logs.
        for course in runs[0] {
            #expect(course.warnings.contains { $0.contains("MANA 7334 is also the code of a different course") })
            #expect(course.code.description == "MANA 7334")
        }
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
