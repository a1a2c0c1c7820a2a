import Foundation
import Testing
@testable import CatalogKit
import SafeLibXML

/// CourseLeaf's newer markup and the credit phrases that end its headings.
@Suite struct CourseLeafParserTests {
    static func parse(_ body: String, system: SystemChoice = .auto) -> PageResult {
        let html = "<html><head><script src=\"/js/courseleaf.js\"></script></head><body>\(body)</body></html>"
        return PageParser(system: system).parse(bytes: Array(html.utf8), sourceURL: URL(string: "https://catalog.example.edu/courses/acct/")!,
                                                input: "page")
    }

    @Test func detailSpansGiveCodeTitleAndCredits() throws {
        let result = Self.parse("""
        <div class="courseblock">
          <p class="courseblocktitle"><strong><span class="text courseblockcode detail-code">ACCT&#160;2301</span>
            <span class="text detail-title">Principles of Financial Accounting</span>
            <span class="text detail-hours_html">(3 Credits)</span></strong></p>
          <p class="courseblockdesc">Accounting concepts for decision makers.</p>
          <div class="courseblockextra"><span class="detail-prereqs"><strong>Prerequisite(s):</strong>
            <a href="/search/?P=MATH%201314" class="bubblelink code">MATH&#160;1314</a> and
            <a href="/search/?P=ENGL%201301" class="bubblelink code">Composition I</a></span></div>
        </div>
        <div class="courseblock">
          <div class="cols"><span class="detail-code">ACCT 2302</span><span class="detail-title">Managerial Accounting</span>
            <span class="detail-hours_html">1-3 Credit Hours</span></div>
          <p class="courseblockdesc">Costs.</p>
        </div>
        """)
        #expect(result.system == .courseleaf)
        #expect(result.courses.count == 2)
        let course = try #require(result.courses.first)
        #expect(course.code.description == "ACCT 2301")
        #expect(course.title == "Principles of Financial Accounting")
        #expect(course.creditsText == "3")
        #expect(course.provenance["credits"]?.hasPrefix("span.detail-hours_html") == true)
        #expect(course.description == "Accounting concepts for decision makers.")
        #expect(course.prerequisiteText == "MATH 1314 and Composition I")
        // A link whose text is no code still names its course in CourseLeaf's search URL.
        #expect(course.prerequisiteLinks.map(\.code) == ["MATH 1314", "ENGL 1301"])
        let second = try #require(result.courses.last)
        #expect(second.code.description == "ACCT 2302")
        #expect(second.title == "Managerial Accounting")
        #expect(second.creditsText == "1-3")
        #expect(second.description == "Costs.")
    }

    @Test(arguments: [
        ("Computer Literacy/Info Mgmt 3 Credit Hours", "Computer Literacy/Info Mgmt", "3"),
        ("Topics in Computer Science II 1 to 3 Credit Hours", "Topics in Computer Science II", "1 to 3"),
        ("Operating Systems 3 or 4 Credit Hours", "Operating Systems", "3 or 4"),
        ("Internship 1 Credit Hour", "Internship", "1"),
        ("Calculus 2 4.000 Credit hours", "Calculus 2", "4.000"),
        ("Accounting (3 Credits)", "Accounting", "3"),
    ])
    func creditPhrasesEndingTitlesAreSplitOff(_ text: String, _ title: String, _ credits: String) throws {
        let split = try #require(CourseHeading.trailingCreditPhrase(text))
        #expect(split.rest == title)
        #expect(split.credits == credits)
    }

    @Test(arguments: ["Computer Science I", "Hours of Darkness", "Topics 1900 Credits", "Seminar 3", "Credit Hours"])
    func titlesWithoutCreditPhrasesAreLeftAlone(_ text: String) {
        #expect(CourseHeading.trailingCreditPhrase(text) == nil)
    }

    @Test func aBlockWithoutACourseHeadingIsSkipped() {
        let result = Self.parse("<div class=\"courseblock\"><p class=\"courseblocktitle\">Notes for students</p></div>")
        #expect(result.system == .courseleaf)
        #expect(result.courses.isEmpty)
    }
}
