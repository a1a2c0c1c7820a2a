import Foundation
import SafeLibXML
import Testing
@testable import CatalogKit

/// What a web server or a careless edit can throw at the parse and crawl stages: each gives a clear
/// answer, never a crash, a hang or a wrong record.
@Suite struct HostileInputTests {
    static func parse(_ bytes: [UInt8], system: SystemChoice = .auto) -> PageResult {
        PageParser(system: system).parse(bytes: bytes, sourceURL: URL(fileURLWithPath: "/tmp/hostile.html"), input: "hostile.html")
    }

    /// `count` pseudo-random bytes (xorshift64, eight at a time), the same for every call.
    static func garbage(count: Int) -> [UInt8] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var garbage = [UInt8](repeating: 0, count: count)
        garbage.withUnsafeMutableBytes { raw in
            let words = raw.bindMemory(to: UInt64.self)
            for index in words.indices {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                words[index] = state
            }
        }
        return garbage
    }

    /// A megabyte shows what twenty did (they took two minutes of a debug build and eight under AddressSanitizer, the
    /// longest test of the suite): garbage is no course in any parser. That the time grows in proportion to the
    /// garbage, which twenty megabytes only hinted at, LinearParsingTests checks.
    @Test func aMegabyteOfGarbageIsNoCourse() {
        let garbage = Self.garbage(count: 1 << 20)
        for system in [SystemChoice.auto, .fixed(.gvsu), .fixed(.acalog)] {
            let result = Self.parse(garbage, system: system)
            #expect(result.courses.isEmpty)
            #expect(result.listing == nil)
            #expect(!result.yieldedRecord)
        }
    }

    /// Deeper than that, the page is a parse gap that says why, not a course with its fields after that point lost.
    @Test func htmlNestedTenThousandDeepIsAParseGapThatSaysWhy() throws {
        let html = "<html><body><div><h1>CIS 162 - Deep</h1><p>Catalog</p>" + String(repeating: "<div><span><em>", count: 10_000)
            + "x" + String(repeating: "</em></span></div>", count: 10_000) + "<p>Prerequisite: CIS 150</p></div></body></html>"
        let result = Self.parse(Array(html.utf8), system: .fixed(.gvsu))
        #expect(result.courses.isEmpty && !result.unreadable)
        #expect(result.gapReason.hasPrefix("elements nest deeper than 1024 levels"), "\(result.gapReason)")
        let document = try HTMLDocument(bytes: Array(html.utf8), url: nil)
        #expect(document.tooDeep)
        let body = try #require(try document.first("//body"))
        #expect(!body.inlineEvents().isEmpty)
    }

    /// Issue 31: past libxml2's default depth of 256 the description and prerequisite were dropped without a word;
    /// the limit is lifted to `HTMLDocument.maximumDepth`, so a real page wrapped in a thousand divs reads the same.
    @Test(arguments: [300, HTMLDocument.maximumDepth - 30])
    func aPageNestedDeeperThanLibxml2sDefaultKeepsEveryField(_ depth: Int) throws {
        let page = try String(contentsOf: TestPaths.gvsuFixtures.appendingPathComponent("course/cis-162.html"), encoding: .utf8)
        let heading = try #require(page.range(of: "<h1>"))
        let deep = page.replacingCharacters(in: heading, with: String(repeating: "<div>", count: depth) + "<h1>")
        let plain = try #require(Self.parse(Array(page.utf8), system: .fixed(.gvsu)).courses.first)
        let nested = try #require(Self.parse(Array(deep.utf8), system: .fixed(.gvsu)).courses.first)
        #expect(!plain.description.isEmpty && plain.prerequisiteText != nil)
        #expect(nested.description == plain.description && nested.prerequisiteText == plain.prerequisiteText)
    }

    @Test func aPageWithAHundredThousandCourseLinksIsAListingOfThem() {
        var html = "<html><body><h1>Huge (HUG)</h1><ul>"
        for subject in ["HUA", "HUB", "HUC", "HUD", "HUE", "HUF", "HUG", "HUH", "HUI", "HUJ"] {
            for number in 10_000..<20_000 {
                html += "<li><a href=\"/catalog/course/\(subject)-\(number).htm\">\(subject) \(number) - Course</a></li>"
            }
        }
        html += "</ul></body></html>"
        let result = Self.parse(Array(html.utf8), system: .fixed(.gvsu))
        #expect(result.listing?.courses.count == 100_000)
        #expect(result.listing?.subjectCode == "HUG")
    }

    @Test func invalidUTF8IsRepairedAndTheCourseKept() {
        var bytes = Array("<html><body><p>2024 Catalog</p><h1>CIS 162 - Comp".utf8)
        bytes += [0xC3, 0x28, 0xFF]
        bytes += Array("uter Science</h1><p>Text.</p><p><b>Credits:</b> 4</p></body></html>".utf8)
        let result = Self.parse(bytes, system: .fixed(.gvsu))
        let course = result.courses.first
        #expect(course?.code.description == "CIS 162")
        #expect(course?.title.contains("\u{FFFD}") == true)
        #expect(course?.creditsText == "4")
    }

    @Test func aListingThatLinksToItselfEndsTheCrawl() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-cycle-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("pages"), withIntermediateDirectories: true)
        let listing = """
        <html><body><h1>Cycle (CYC)</h1><a href="https://c.edu/catalog/subject/cycle.htm">CYC 100 - Itself</a>
        <a href="https://c.edu/catalog/course/cyc-101.htm">CYC 101 - A course</a></body></html>
        """
        let course = """
        <html><body><p>2025 Catalog</p><h1>CYC 101 - A course</h1><p>It links back.
        Prerequisite: <a href="https://c.edu/catalog/subject/cycle.htm">CYC 100</a>.</p><p><b>Credits:</b> 3</p></body></html>
        """
        try Data(listing.utf8).write(to: directory.appendingPathComponent("pages/listing.html"))
        try Data(course.utf8).write(to: directory.appendingPathComponent("pages/course.html"))
        let index = MirrorIndex(pages: [
            "https://c.edu/catalog/subject/cycle.htm": .init(file: "pages/listing.html", status: 200, contentType: "text/html"),
            "https://c.edu/catalog/course/cyc-101.htm": .init(file: "pages/course.html", status: 200, contentType: "text/html"),
        ], startURLs: ["https://c.edu/catalog/subject/cycle.htm"])
        try index.write(to: directory)
        let mirror = try MirrorSource(directory: directory)
        let crawler = Crawler(source: mirror, parser: PageParser(system: .fixed(.gvsu)), settings: FetchSettings(), honourRobots: false)
        let report = await crawler.crawl(start: [try #require(URL(string: "https://c.edu/catalog/subject/cycle.htm"))])
        #expect(report.pagesExpected == 2)
        #expect(report.pagesFetched == 2)
        #expect(report.coursePages.flatMap(\.courses).map(\.code.description) == ["CYC 101"])
    }

    @Test func aCorruptMirrorIndexIsAClearError() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-badmirror-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("{\"pages\": {\"https://x.edu/a\": {\"file\": \"../../etc/passwd\"}}}".utf8)
            .write(to: directory.appendingPathComponent("index.json"))
        let error = #expect(throws: CatalogError.self) { try MirrorSource(directory: directory) }
        #expect(error.map { "\($0)" }?.contains("expected a relative path inside the mirror") == true)
        #expect(error?.cause == .missingInput)
        try Data("not json".utf8).write(to: directory.appendingPathComponent("index.json"))
        do {
            _ = try MirrorSource(directory: directory)
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".contains("index.json: not valid JSON"))
        }
    }
}

/// Acalog pagers: pages the pager counts but does not link are asked for by number, within reason.
@Suite struct PagerCompletionTests {
    static func listing(page: Int, pagerLinks: [Int], course: Int) -> String {
        let pager = pagerLinks.map { "<a href=\"/content.php?catoid=1&amp;navoid=2&amp;filter%5Bcpage%5D=\($0)\">\($0)</a>" }
            .joined(separator: " | ")
        return """
        <html><body><h1>Courses</h1><table><tr><td><a href="/preview_course_nopop.php?catoid=1&amp;coid=\(course)">ABC \(course) - Course \(course)</a></td></tr>
        <tr><td>Page: <strong>\(page)</strong> \(pager)</td></tr></table></body></html>
        """
    }

    static func course(_ number: Int) -> String {
        """
        <html><body><table><tr><td class="block_content"><h1 id="course_preview_title">ABC \(number) - Course \(number)</h1>
        <hr><strong>Credits:</strong> 3<br>Prose.</td></tr></table></body></html>
        """
    }

    static func mirror(_ pages: [String: String], start: String) throws -> (MirrorSource, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-pager-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("pages"), withIntermediateDirectories: true)
        var index = MirrorIndex(startURLs: [start])
        for (number, (url, html)) in pages.sorted(by: { $0.key < $1.key }).enumerated() {
            try Data(html.utf8).write(to: directory.appendingPathComponent("pages/\(number).html"))
            index.pages[url] = .init(file: "pages/\(number).html", status: 200, contentType: "text/html")
        }
        try index.write(to: directory)
        return (try MirrorSource(directory: directory), directory)
    }

    static let base = "https://c.edu/content.php?catoid=1&navoid=2&filter%5Bcpage%5D="

    @Test func pagesThePagerCountsButDoesNotLinkAreAskedForByNumber() async throws {
        // Page 1 links 2 and (after an ellipsis) 4; page 3 is linked by no page the crawl sees first.
        var pages: [String: String] = [
            Self.base + "1": Self.listing(page: 1, pagerLinks: [2, 4], course: 101),
            Self.base + "2": Self.listing(page: 2, pagerLinks: [1, 4], course: 102),
            Self.base + "3": Self.listing(page: 3, pagerLinks: [1, 2, 4], course: 103),
            Self.base + "4": Self.listing(page: 4, pagerLinks: [1, 2], course: 104),
        ]
        for number in 101...104 { pages["https://c.edu/preview_course_nopop.php?catoid=1&coid=\(number)"] = Self.course(number) }
        let (mirror, directory) = try Self.mirror(pages, start: Self.base + "1")
        defer { try? FileManager.default.removeItem(at: directory) }
        let crawler = Crawler(source: mirror, parser: PageParser(system: .fixed(.acalog)), settings: FetchSettings(), honourRobots: false)
        let report = await crawler.crawl(start: [try #require(URL(string: Self.base + "1"))])
        #expect(report.failures.isEmpty, "\(report.failures)")
        #expect(report.listingPages == 4)
        #expect(report.coursePages.flatMap(\.courses).map(\.code.description).sorted() == ["ABC 101", "ABC 102", "ABC 103", "ABC 104"])
    }

    @Test func aPagerClaimingABillionPagesIsAFailureNotABillionRequests() async throws {
        let pages = [
            Self.base + "1": Self.listing(page: 1, pagerLinks: [1_000_000_000], course: 101),
            "https://c.edu/preview_course_nopop.php?catoid=1&coid=101": Self.course(101),
        ]
        let (mirror, directory) = try Self.mirror(pages, start: Self.base + "1")
        defer { try? FileManager.default.removeItem(at: directory) }
        let crawler = Crawler(source: mirror, parser: PageParser(system: .fixed(.acalog)), settings: FetchSettings(), honourRobots: false)
        let report = await crawler.crawl(start: [try #require(URL(string: Self.base + "1"))])
        #expect(report.pagesExpected == 3)
        #expect(report.failures.contains { $0.reason.hasPrefix("the pager claims 1000000000 pages") })
        #expect(report.coursePages.flatMap(\.courses).map(\.code.description) == ["ABC 101"])
    }
}
