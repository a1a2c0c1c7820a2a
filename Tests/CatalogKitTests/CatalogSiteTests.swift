import Foundation
import Testing
@testable import CatalogKit

/// The website renderer as a pure function, and the publisher that writes it.
@Suite struct CatalogSiteTests {
    typealias Support = SnapshotTestSupport

    static let hostile = "<script>alert(\"x\")</script> & 'quotes' &amp; </b>"

    /// CIS 162 → CIS 163 → CIS 263, and a course whose text is markup.
    static func courses(hostileTitle: String = hostile) -> [Course] {
        let parsed = [Support.course("CIS 162", title: "Computer Science I"),
                      Support.course("CIS 163", title: "Computer Science II", prerequisite: "CIS 162."),
                      Support.course("CIS 263", title: "Data Structures", description: "", prerequisite: "CIS 163 and MTH 999."),
                      Support.course("WRT 150", title: hostileTitle, description: hostile)].map(\.parsed)
        return Normalizer().normalize(catalog: parsed)
    }

    static func input(_ snapshots: [Snapshot], report: RunReport? = nil) -> SiteInput {
        SiteInput(catalogName: "Test <catalog>", snapshots: snapshots, news: [], report: report,
                  provenance: ["cis-163": ["title": "course heading <h1>"]], copies: ["catalog.json": Data("{}".utf8)])
    }

    static func text(_ files: [String: Data], _ path: String) throws -> String {
        String(decoding: try #require(files[path], "no \(path) among \(files.keys.sorted())"), as: UTF8.self)
    }

    @Test func requisitesLinkBothWaysAndTheMapDrawsTheChain() throws {
        let files = CatalogSite.render(Self.input([Support.capture(Self.courses(), at: 1_714_560_000).snapshot]))
        let page = try Self.text(files, "course/cis-263.html")
        #expect(page.contains("<a href=\"../course/cis-163.html\">CIS 163</a>"))
        #expect(page.contains("<span class=\"missing\" title=\"not in this catalog\">MTH 999</span>"))
        // The map: both prerequisites drawn above as links, an arrow each, and the same said in words.
        #expect(page.contains("<a href=\"../course/cis-162.html\"><title>CIS 162: Computer Science I</title>"))
        #expect(page.components(separatedBy: "<line ").count - 1 == 3)
        #expect(page.contains("<li><a href=\"../course/cis-163.html\">CIS 163</a> needs <a href=\"../course/cis-162.html\">CIS 162</a></li>"))
        let first = try Self.text(files, "course/cis-162.html")
        #expect(first.contains("<dt>Required by</dt><dd><a href=\"../course/cis-163.html\">CIS 163</a></dd>"))
        #expect(first.contains("Needed by 2 steps away: <a href=\"../course/cis-263.html\">CIS 263</a>"))
        // Every published field with a value, the empty ones named, and the rule a field came from where known.
        let second = try Self.text(files, "course/cis-163.html")
        #expect(second.contains("<dt>prerequisiteCourses</dt><dd>[&quot;CIS 162&quot;]</dd>"))
        #expect(second.contains("<dt>title</dt><dd>Computer Science II <small>read by course heading &lt;h1&gt;</small></dd>"))
        #expect(page.contains("<p>Empty: ") && page.contains("description,"))
    }

    /// Issue 34: a course page shows its first edition and its history, edition by edition.
    @Test func aCoursePageShowsItsFirstEditionAndHistory() throws {
        let first = Snapshot.capture(catalogID: "test", source: .null, pages: Support.pages, courses: Self.courses(), previous: nil,
                                     at: Date(timeIntervalSince1970: 1_627_776_000), edition: "2021-2022").snapshot
        let renamed = Self.courses().map(\.parsed).map { parsed -> ParsedCourse in
            var parsed = parsed
            if parsed.code.description == "CIS 162" { parsed.code = CourseCode(subject: "CS", number: "162") }
            return parsed
        }
        let second = Snapshot.capture(catalogID: "test", source: .null, pages: Support.pages,
                                      courses: Normalizer().normalize(catalog: renamed), previous: first,
                                      at: Date(timeIntervalSince1970: 1_659_312_000), edition: "2022-2023").snapshot
        let page = try Self.text(CatalogSite.render(Self.input([first, second])), "course/cs-162.html")
        #expect(page.contains("<dt>First edition</dt><dd>2021-2022</dd>"), "\(page)")
        #expect(page.contains("<dt>History</dt><dd>2021-2022: added<br>2022-2023: renumbered from CIS 162</dd>"))
    }

    @Test func catalogTextIsEscapedEverywhere() throws {
        let files = CatalogSite.render(Self.input([Support.capture(Self.courses(), at: 1_714_560_000).snapshot]))
        for (path, data) in files where path.hasSuffix(".html") {
            let text = String(decoding: data, as: UTF8.self)
            #expect(!text.contains("<script>alert"), "\(path)")
            #expect(!text.contains("</b>"), "\(path)")
        }
        let page = try Self.text(files, "course/wrt-150.html")
        #expect(page.contains("<h1>WRT 150: &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &apos;quotes&apos; &amp;amp; &lt;/b&gt;</h1>"))
        #expect(try Self.text(files, "index.html").contains("<title>Catalog · Test &lt;catalog&gt;</title>"))
        // The index is a script: "</" would end it, so it is written "<\/".
        let index = try Self.text(files, "assets/search-index.js")
        #expect(index.contains("<\\/script>") && !index.contains("</"))
    }

    /// Issue 38: where the pages were read (a `file:` URL in `sourceUrl`, in `url` when a page named no address of its
    /// own, in a warning) never reaches a public page; the file's name does.
    @Test func noPageShowsAFileURL() throws {
        var courses = Self.courses()
        courses[0].parsed.pageURL = nil
        courses[0].parsed.sourceURL = "file:///home/someone/pages/cis-162.html"
        var report = RunReport(catalog: "test", startedAt: "2024-05-01T10:40:00Z")
        report.warnings = ["normalize: CIS 163: listed again at file:///home/someone/pages/cis-163-copy.html with the same title"]
        let files = CatalogSite.render(Self.input([Support.capture(courses, at: 1_714_560_000).snapshot], report: report))
        for (path, data) in files where path.hasSuffix(".html") {
            #expect(!String(decoding: data, as: UTF8.self).contains("file:"), "\(path)")
        }
        #expect(try Self.text(files, "course/cis-162.html").contains("<dt>Source</dt><dd>cis-162.html</dd>"))
        #expect(try Self.text(files, "health.html").contains("listed again at cis-163-copy.html with the same title"))
        #expect(CatalogSite.withoutFileURLs("at file:///a/b.html, and \"file:/c\"") == "at b.html, and \"c\"")
    }

    @Test func pathsAreSafeAndDistinctForAnyID() {
        let ids = ["cis-162", "cis-162_", "cis-162/..", "ÄB 1", "a b", "a_20b"]
        let names = ids.map(CatalogSite.fileName)
        #expect(Set(names).count == ids.count)
        #expect(names.allSatisfy { $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") } })
        #expect(CatalogSite.fileName("cis-162") == "cis-162")
    }

    @Test func whatChangedAndHealthCompareConsecutiveSnapshots() throws {
        let first = Support.capture(Self.courses(), at: 1_714_560_000).snapshot
        var later = Self.courses().filter { $0.code.description != "CIS 162" }
        later[0].description = ""
        later.append(Support.course("CIS 380", title: "Machine Learning"))
        let second = Support.capture(later, previous: first, at: 1_715_560_000).snapshot
        var report = RunReport(catalog: "test", startedAt: second.capturedAt)
        report.warnings = ["normalize: CIS 163: listed again at file:///a/1.html", "normalize: CIS 263: listed again at file:///a/2.html",
                           "parse: parse gap: https://x/3: no course"]
        let files = CatalogSite.render(Self.input([first, second], report: report))
        let changes = try Self.text(files, "changes/20240513T002640Z.html")
        #expect(changes.contains("<h2>Added (1)</h2>") && changes.contains("<a href=\"../course/cis-380.html\">CIS 380</a>"))
        #expect(changes.contains("<h2>Removed (1)</h2>\n<ul class=\"changes\"><li>CIS 162 Computer Science I</li>"))
        #expect(changes.contains("<th scope=\"row\">Description</th><td><del>A course.</del></td><td><ins>(none)</ins></td>"))
        #expect(try Self.text(files, "changes.html").contains("<a href=\"changes/20240513T002640Z.html\">"))
        let health = try Self.text(files, "health.html")
        #expect(health.contains("<summary>2 × normalize: listed again at …</summary>"))
        #expect(health.contains("<summary>1 × parse: parse gap: … no course</summary>"))
        // CIS: 2 of 3 courses with a description before (CIS 263 has none), 1 of 3 now: the fall is marked.
        #expect(health.contains("<td>3</td><td class=\"drop\">1 (was 2)</td>"))
    }

    @Test func sameInputSameBytes() {
        let snapshot = Support.capture(Self.courses(), at: 1_714_560_000).snapshot
        #expect(CatalogSite.render(Self.input([snapshot])) == CatalogSite.render(Self.input([snapshot])))
    }

    @Test func theMapCutsWideLayersButTheTextListsEveryCourse() {
        let map = PrerequisiteMap(code: "A 1", requires: { $0 == "A 1" ? (1...20).map { "B \($0)" } : [] }, requiredBy: { _ in [] })
        let rule = { (code: String) -> Requisite? in
            code == "A 1" ? .all((1...20).map { .course(CourseRequirement(code: CourseCode(subject: "B", number: "\($0)"))) }) : nil
        }
        let svg = map.svg(title: { _ in nil }, href: { "\($0).html" }, requires: { $0 == "A 1" ? (1...20).map { "B \($0)" } : [] }, rule: rule)
        #expect(svg.contains("+\(20 - PrerequisiteMap.drawnPerLayer) more"))
        #expect(svg.components(separatedBy: "<a href=").count - 1 == PrerequisiteMap.drawnPerLayer)
        let text = map.text(link: { $0 }, rule: rule)
        #expect(text.contains("B 20") && text.contains("B 9"))
    }

    /// Issue 38: the GVSU fixture's CIS 380. MTH 225 needs "MTH 122 or placement; and CIS 160 or CIS 162": the words
    /// say so, not a flat list of courses three steps away, and the picture joins CIS 160 and CIS 162 at "one of".
    @Test func theMapOfCIS380SaysOneOfWhereTheCatalogSaysOr() throws {
        let pages = TestPaths.files(in: TestPaths.fixtures.appendingPathComponent("gvsu-next/course"), suffix: ".html")
        let parsed = try pages.flatMap { url in
            PageParser(system: .fixed(.gvsu)).parse(bytes: Array(try Data(contentsOf: url)), sourceURL: url, input: url.lastPathComponent).courses
        }
        let snapshot = Support.capture(Normalizer().normalize(catalog: parsed), at: 1_714_560_000).snapshot
        let page = try Self.text(CatalogSite.render(Self.input([snapshot])), "course/cis-380.html")
        func link(_ code: String) -> String { "<a href=\"../course/\(code.lowercased().replacingOccurrences(of: " ", with: "-")).html\">\(code)</a>" }
        // CIS 160 has no page in the fixture: named, not linked.
        let missing = "<span class=\"missing\" title=\"not in this catalog\">CIS 160</span>"
        #expect(page.contains("<li>\(link("MTH 225")) needs \(link("MTH 122")) or placement; and one of \(missing), \(link("CIS 162"))</li>"))
        #expect(page.contains("<li>\(link("CIS 380")) needs \(link("CIS 263")) and \(link("STA 215"))</li>"))
        #expect(!page.contains("Needs 3 steps away"))
        // In the picture: MTH 225's alternatives meet at one "one of" mark, whose tooltip says the rule.
        #expect(page.contains("<g class=\"alt\"><title>MTH 225 needs one of CIS 160, CIS 162</title>"))
        #expect(page.contains("<g class=\"alt\"><title>MTH 225 needs MTH 122 or placement</title>"))
        // CIS 160 and CIS 162 are both boxes: "one of"; MTH 122's other alternative, placement, is none: "or …".
        #expect(page.components(separatedBy: ">one of</text>").count - 1 == 1)
        #expect(page.components(separatedBy: ">or …</text>").count - 1 == 2)
        #expect(page.contains("<figure tabindex=\"0\"><svg class=\"map\""))
    }

    @Test func concurrentEnrolmentIsMarkedInThePictureAndTheWords() throws {
        let courses = Normalizer().normalize(catalog: [Support.course("MTH 201", title: "Calculus I"),
                                                       Support.course("PHY 230", title: "Physics", prerequisite: "MTH 201 (may be taken concurrently).")]
            .map(\.parsed))
        let page = try Self.text(CatalogSite.render(Self.input([Support.capture(courses, at: 1_714_560_000).snapshot])), "course/phy-230.html")
        #expect(page.contains("<a href=\"../course/mth-201.html\">MTH 201</a> (may be taken at the same time)</li>"))
        #expect(page.contains("<line class=\"concurrent\" "))
        #expect(page.contains("<title>MTH 201 may be taken at the same time as PHY 230</title>"))
    }

    @Test func thePublisherReplacesItsOwnSiteWholeAndRefusesOtherFolders() throws {
        let root = try Support.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let site = root.appendingPathComponent("site")
        try SitePublisher.write(["index.html": Data("one".utf8), "old/page.html": Data("x".utf8), SitePublisher.marker: Data()], to: site)
        try SitePublisher.write(["index.html": Data("two".utf8), SitePublisher.marker: Data()], to: site)
        #expect(try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8) == "two")
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("old").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["site"])
        // A folder of other files, and a symbolic link, are never written into.
        let other = root.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: other.appendingPathComponent("notes.txt"))
        #expect(throws: FileWriteError.self) { try SitePublisher.write(["index.html": Data()], to: other) }
        #expect(FileManager.default.fileExists(atPath: other.appendingPathComponent("notes.txt").path))
        let link = root.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: site)
        #expect(throws: FileWriteError.self) { try SitePublisher.write(["index.html": Data()], to: link) }
        #expect(try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8) == "two")
    }
}
