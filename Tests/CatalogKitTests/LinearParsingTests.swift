import Foundation
import SafeLibXML
import Testing
@testable import CatalogKit

/// Parsing takes time in proportion to the page (issue 19): each test times the same work at n and 4n within
/// one run, taking the best of three, and fails only when 4n costs more than ten times n: linear work costs
/// about four times, quadratic sixteen. The time is this thread's CPU time, not the wall clock: what other processes
/// and suites take of a loaded machine does not count, and n and 4n take turns, so a burst of load hits both alike.
@Suite(.serialized) struct LinearParsingTests {
    static func bestOfThree(small: () -> Void, large: () -> Void) -> (small: Double, large: Double) {
        var best = (small: Double.infinity, large: Double.infinity)
        for _ in 0..<3 {
            best.small = min(best.small, threadSeconds(small))
            best.large = min(best.large, threadSeconds(large))
        }
        return best
    }

    /// The CPU time this thread spends on `work` (the parsers run on the calling thread).
    static func threadSeconds(_ work: () -> Void) -> Double {
        var start = timespec(), end = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start)
        work()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end)
        return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
    }

    /// A listing in Acalog's own layout: every course link inside the one `td.block_content`, generated here from
    /// the shape of a real listing (`realworld/acalog-lsu/lsu-ee-course-list-page2-trimmed.html`).
    static func acalogListing(links: Int) -> [UInt8] {
        var html = "<html><body><table><tr><td class=\"block_content\"><h1 id=\"acalog-content\">Electrical Engineering</h1><ul>"
        for index in 0..<links {
            html += "<li><a href=\"preview_course_nopop.php?catoid=35&amp;coid=\(200_000 + index)\">EE \(1000 + index % 9000) Topic \(index) (3)</a></li>\n"
        }
        return Array((html + "</ul></td></tr></table></body></html>").utf8)
    }

    static func listingCount(_ bytes: [UInt8]) -> Int {
        let url = URL(string: "https://catalog.lsu.edu/content.php?catoid=35&navoid=3")!
        return PageParser(system: .fixed(.acalog)).parse(bytes: bytes, sourceURL: url, input: "listing").listing?.courses.count ?? -1
    }

    @Test func anAcalogListingParsesInLinearTime() {
        let small = Self.acalogListing(links: 5_000), large = Self.acalogListing(links: 20_000)
        // Every link is a listing entry (distinct URLs); none is taken for a course's own text.
        #expect(Self.listingCount(small) == 5_000)
        #expect(Self.listingCount(large) == 20_000)
        let time = Self.bestOfThree(small: { _ = Self.listingCount(small) }, large: { _ = Self.listingCount(large) })
        #expect(time.large < time.small * 10, "5,000 links \(time.small) s, 20,000 links \(time.large) s of CPU")
    }

    @Test func linksInACoursesOwnTextAreStillNotListingEntries() throws {
        let html = """
        <html><body><table><tr><td class="block_content"><h1 id="course_preview_title">EE 2000 - Circuits</h1>
        <p>Prerequisite: <a href="preview_course_nopop.php?catoid=35&amp;coid=1">EE 1000 Basics</a></p></td></tr>
        <tr><td class="coursepadding"><h3>EE 2100 - Logic</h3><a href="preview_course_nopop.php?catoid=35&amp;coid=3">EE 1100 Sets</a></td></tr>
        <tr><td class="block_content"><a href="preview_course_nopop.php?catoid=35&amp;coid=4">EE 4000 Waves</a></td></tr></table>
        <ul><li><a href="preview_course_nopop.php?catoid=35&amp;coid=2">EE 3000 Fields</a></li></ul></body></html>
        """
        let url = try #require(URL(string: "https://catalog.lsu.edu/content.php?catoid=35&navoid=3"))
        let page = PageContext(document: try HTMLDocument(bytes: Array(html.utf8), url: url), sourceURL: url)
        let listing = try AcalogParser().listing(in: page)
        #expect(listing?.courses.map(\.url) == ["https://catalog.lsu.edu/preview_course_nopop.php?catoid=35&coid=4",
                                                "https://catalog.lsu.edu/preview_course_nopop.php?catoid=35&coid=2"])
    }

    @Test func garbageParsesInLinearTime() {
        let small = HostileInputTests.garbage(count: 256 << 10), large = HostileInputTests.garbage(count: 1 << 20)
        let time = Self.bestOfThree(small: { _ = HostileInputTests.parse(small) }, large: { _ = HostileInputTests.parse(large) })
        #expect(time.large < time.small * 10, "256 KiB of garbage \(time.small) s, 1 MiB \(time.large) s of CPU")
    }

    static func prerequisite(courses: Int, joinedBy separator: String) -> String {
        (0..<courses).map { "CS \(100 + $0 % 800)" }.joined(separator: separator)
    }

    @Test(arguments: [", ", " and ", " or "])
    func aLongPrerequisiteParsesInLinearTime(_ separator: String) {
        let small = Self.prerequisite(courses: 5_000, joinedBy: separator)
        let large = Self.prerequisite(courses: 20_000, joinedBy: separator)
        // Every course is kept: 800 distinct codes, each repeated.
        #expect(RequisiteParser.parse(large)?.courses.count == 800)
        let time = Self.bestOfThree(small: { _ = RequisiteParser.parse(small) }, large: { _ = RequisiteParser.parse(large) })
        #expect(time.large < time.small * 10, "5,000 courses \(time.small) s, 20,000 courses \(time.large) s of CPU")
    }

    /// The linear fold builds exactly the tree that combining one operand at a time built.
    @Test func foldingIsCombiningOneAtATime() {
        let leaves: [Requisite] = [.text("a"), .text("b"), .permission("consent"), .text("c")]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let first = leaves.randomElement(using: &generator)!
            let steps = (0..<Int.random(in: 1...7, using: &generator)).map { _ in
                RequisiteTreeBuilder.Step(op: Bool.random(using: &generator) ? .all : .any,
                                          node: Bool.random(using: &generator) ? leaves.randomElement(using: &generator)!
                                              : .any([.text("x"), .text("y")], connective: "or"),
                                          connective: ["and", "or", "both and", nil].randomElement(using: &generator)!)
            }
            let oneAtATime = steps.reduce(first) {
                RequisiteTreeBuilder.group($1.op, [$0, $1.node], connective: $1.connective) ?? $0
            }
            #expect(RequisiteTreeBuilder.fold(first, steps) == oneAtATime)
        }
    }
}
