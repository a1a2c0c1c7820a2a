import Foundation
import Testing
@testable import CatalogKit
import SafeLibXML

/// Declarative parse rules: read from pipeline.json with every problem at its path, then applied to pages.
@Suite struct RuleParserTests {
    static func config(rules: String) -> String {
        """
        {"schemaVersion": 1, "catalogs": [{"id": "x", "name": "X", "system": "courseleaf",
          "source": {"http": {"startUrls": ["https://catalog.example.edu/courses/"]}}, "rules": \(rules)}]}
        """
    }

    static func rules(_ json: String) throws -> ParseRules {
        let config = try PipelineConfig.parse(Data(config(rules: json).utf8), file: URL(fileURLWithPath: "/project/pipeline.json"))
        return try #require(config.catalogs.first?.rules)
    }

    static func issues(_ json: String) -> [String] {
        do {
            _ = try PipelineConfig.parse(Data(config(rules: json).utf8), file: URL(fileURLWithPath: "/project/pipeline.json"))
            return []
        } catch {
            return error.issues.map(\.description)
        }
    }

    static let page = """
    <html><body><h1>Accounting</h1>
    <div class="entry"><h4>ACCT 2301: Principles of Accounting</h4><span class="hrs">3 Credits</span>
      <p>Concepts for decision makers.</p>
      <p><b>Needs:</b> <a href="/c/math-1314">MATH 1314</a> or consent.</p>
      <p><b>Season:</b> Fall</p></div>
    <div class="entry"><h4>ACCT 2302</h4><span class="t">Managerial Accounting</span>
      <p class="req">Prerequisite: <a href="/c/acct-2301">ACCT 2301</a></p></div>
    <div class="entry"><h4>Notes</h4></div>
    </body></html>
    """

    static func parse(_ html: String, rules: ParseRules) -> PageResult {
        PageParser(system: .rules(rules, .courseleaf)).parse(bytes: Array(html.utf8), sourceURL: URL(string: "https://catalog.example.edu/acct/")!,
                                                             input: "page")
    }

    @Test func fieldsComeFromXPathsAndLabelPatterns() throws {
        let rules = try Self.rules("""
        {"course": "//div[@class='entry']", "code": "h4", "title": "span[@class='t']", "credits": "span[@class='hrs']",
         "description": "p[1]", "prerequisite": "p[@class='req']", "labels": {"needs?": "prerequisite", "season": "offered"}}
        """)
        let result = Self.parse(Self.page, rules: rules)
        #expect(result.system == .courseleaf)
        #expect(result.systemRule == "the catalog's rules")
        #expect(result.courses.map(\.code.description) == ["ACCT 2301", "ACCT 2302"])
        let first = try #require(result.courses.first)
        #expect(first.title == "Principles of Accounting")
        #expect(first.creditsText == "3")
        #expect(first.provenance["credits"]?.hasPrefix("rules.credits") == true)
        // The body is still read by label; the XPaths pick what labels cannot (the hours span, the first paragraph).
        #expect(first.description == "Concepts for decision makers.")
        #expect(first.provenance["description"]?.hasPrefix("rules.description p[1]") == true)
        #expect(first.prerequisiteText == "MATH 1314 or consent.")
        #expect(first.prerequisiteLinks.map(\.code) == ["MATH 1314"])
        #expect(first.provenance["prerequisite"]?.contains("rules.labels") == true)
        #expect(first.offered == "Fall")
        let second = try #require(result.courses.last)
        #expect(second.title == "Managerial Accounting")
        #expect(second.prerequisiteText == "ACCT 2301")
        #expect(second.prerequisiteLinks.map(\.url) == ["https://catalog.example.edu/c/acct-2301"])
    }

    /// Numbers with letters read in rules as everywhere, and an element whose code cannot be read is named, not
    /// dropped in silence.
    @Test func letteredNumbersAreReadAndUnreadableCodesAreWarnings() throws {
        let rules = try Self.rules(#"{"course": "//tr[@class='c']", "code": "td[1]", "title": "td[2]"}"#)
        let result = Self.parse("""
        <html><body><table>
        <tr class="c"><td>ENG 460D1</td><td>Senior Thesis, first half</td></tr>
        <tr class="c"><td>ENG 460D2</td><td>Senior Thesis, second half</td></tr>
        <tr class="c"><td>FINA 7A20</td><td>Capital Markets</td></tr>
        <tr class="c"><td>Topics TBA</td><td>Announced each term</td></tr>
        </table></body></html>
        """, rules: rules)
        #expect(result.courses.map(\.code.description) == ["ENG 460D1", "ENG 460D2", "FINA 7A20"])
        #expect(result.courses.map(\.title) == ["Senior Thesis, first half", "Senior Thesis, second half", "Capital Markets"])
        #expect(result.unreadableCourses.count == 1)
        let warning = try #require(result.unreadableCourseWarnings.first)
        #expect(warning.hasPrefix("page: the code (rules.code) of a course (rules.course) at "))
        #expect(warning.hasSuffix("holds no course code: \"Topics TBA\""))
    }

    @Test func aListingRuleGivesTheLinks() throws {
        let rules = try Self.rules("""
        {"course": "//div[@class='course']", "code": "h2", "listing": {"courses": "//li/a", "pages": "//a[@rel='next']"}}
        """)
        let result = Self.parse("""
        <html><body><h1>Courses</h1><ul><li><a href="/c/cis-162">CIS 162 - Computer Science I</a></li>
        <li><a href="/c/cis-163">CIS 163 - Computer Science II</a></li></ul><a rel="next" href="?page=2">Next</a></body></html>
        """, rules: rules)
        #expect(result.courses.isEmpty)
        let listing = try #require(result.listing)
        #expect(listing.courses.map(\.code) == ["CIS 162", "CIS 163"])
        #expect(listing.courses.first?.url == "https://catalog.example.edu/c/cis-162")
        #expect(listing.pageLinks == ["https://catalog.example.edu/acct/?page=2"])
    }

    @Test func problemsAreReportedAtTheirPaths() {
        let found = Self.issues("""
        {"course": "//div[", "titel": "h4", "labels": {"(": "prerequisite", "Hours": "hours"}, "listing": {}}
        """)
        #expect(found.contains { $0.hasPrefix("catalogs[0].rules.course: expected an XPath") })
        #expect(found.contains { $0.hasPrefix("catalogs[0].rules.code: expected a string, but it is missing") })
        #expect(found.contains { $0.hasPrefix("catalogs[0].rules.titel: unknown key (did you mean \"title\"?)") })
        #expect(found.contains { $0.hasPrefix("catalogs[0].rules.labels[\"(\"]: expected a regular expression") })
        #expect(found.contains { $0.hasPrefix("catalogs[0].rules.labels[\"Hours\"]: expected one of") })
        #expect(found.contains { $0.hasPrefix("catalogs[0].rules.listing.courses: expected a string") })
        #expect(Self.issues(#"{"course": "//div", "code": "h4"}"#).isEmpty)
    }
}

/// The built-in parsers checked against the same layouts written as rules, where rules can express them:
/// UH's inline Acalog blocks and UM-Dearborn's CourseLeaf blocks. Both readings must agree field by field.
@Suite struct BuiltInParsersAgainstRulesTests {
    static func compare(_ files: [URL], builtIn: SystemChoice, rules: ParseRules, system: CatalogSystem) throws -> (compared: Int, differences: [String]) {
        var compared = 0
        var differences: [String] = []
        for file in files {
            let bytes = Array(try Data(contentsOf: file))
            let expected = PageParser(system: builtIn).parse(bytes: bytes, sourceURL: file, input: file.lastPathComponent).courses
            let actual = PageParser(system: .rules(rules, system)).parse(bytes: bytes, sourceURL: file, input: file.lastPathComponent).courses
            guard expected.count == actual.count else {
                differences.append("\(file.lastPathComponent): \(expected.count) courses built in, \(actual.count) by rules")
                continue
            }
            for (one, other) in zip(expected, actual) {
                compared += 1
                let pairs: [(String, String?, String?)] = [
                    ("code", one.code.description, other.code.description), ("title", one.title, other.title),
                    ("credits", one.creditsText, other.creditsText), ("description", one.description, other.description),
                    ("prerequisite", one.prerequisiteText, other.prerequisiteText), ("corequisite", one.corequisiteText, other.corequisiteText),
                ]
                for (field, left, right) in pairs where left != right {
                    differences.append("\(file.lastPathComponent) \(one.code) \(field): built in \(left ?? "nil"), rules \(right ?? "nil")")
                }
                if one.prerequisiteLinks.map(\.code) != other.prerequisiteLinks.map(\.code) {
                    differences.append("\(file.lastPathComponent) \(one.code) prerequisite links differ")
                }
            }
        }
        return (compared, differences)
    }

    @Test func uhAcalogBlocksReadTheSameByRules() throws {
        let rules = try RuleParserTests.rules("""
        {"course": "//td[contains(concat(' ', normalize-space(@class), ' '), ' coursepadding ')]", "code": "(.//h3)[1]",
         "labels": {"credit hours": "credits", "prerequisites?": "prerequisite", "corequisites?": "corequisite", "description": "description"}}
        """)
        let files = Array(TestPaths.files(in: TestPaths.realworld.appendingPathComponent("acalog-uh/44"), suffix: ".html").prefix(600))
        let (compared, differences) = try Self.compare(files, builtIn: .fixed(.acalog), rules: rules, system: .acalog)
        #expect(compared == 600)
        #expect(differences.isEmpty, "\(differences.prefix(20).joined(separator: "\n"))")
    }

    @Test func courseLeafBlocksReadTheSameByRules() throws {
        let rules = try RuleParserTests.rules("""
        {"course": "//div[contains(concat(' ', normalize-space(@class), ' '), ' courseblock ')]",
         "code": ".//p[contains(@class, 'courseblocktitle')]", "description": ".//p[contains(@class, 'courseblockdesc')]",
         "labels": {"prerequisites?": "prerequisite", "corequisites?": "corequisite"}}
        """)
        let file = TestPaths.realworld.appendingPathComponent("courseleaf-umdearborn/umdearborn-cis-courses.html")
        let (compared, differences) = try Self.compare([file], builtIn: .fixed(.courseleaf), rules: rules, system: .courseleaf)
        #expect(compared == 71)
        #expect(differences.isEmpty, "\(differences.prefix(20).joined(separator: "\n"))")
    }
}
