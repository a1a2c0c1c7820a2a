import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import CatalogKit

/// News items from a diff, the news file, the Atom feed and the run digest: pure functions over plain values.
@Suite struct NewsTests {
    typealias Support = SnapshotTestSupport

    static func fixtureNews(_ settings: NewsSettings) throws -> [NewsItem] {
        let fall = try Support.fixture("fall.json"), winter = try Support.fixture("winter.json")
        return NewsBuilder.items(diff: CatalogDiff.between(old: fall.courses, new: winter.courses), previous: fall, current: winter,
                                 settings: settings)
    }

    @Test func aNewCourseBecomesANewsItemInTheAppsShape() throws {
        let items = try Self.fixtureNews(NewsSettings(featuredSubjects: ["CIS"]))
        #expect(items.map(\.id) == ["gvsu-fixture:added:bio-610:20240901T060000Z", "gvsu-fixture:added:cis-380:20240901T060000Z"])
        let item = try #require(items.last)
        #expect(item.title == "New course: CIS 380 — Machine Learning")
        #expect(item.description == "Supervised and unsupervised learning.")
        #expect(item.featured)
        #expect(items.first?.featured == false)
        #expect(item.createdAt == "2025-01-06T06:00:00Z")
        #expect(item.thumbnail == nil)
        #expect(item.link == "https://www.gvsu.edu/catalog/course/cis-380.htm")
        #expect(item.content == """
        Supervised and unsupervised learning. Students build models in Python.

        - **Credits:** 3 credits
        - **Level:** Undergraduate
        - **Prerequisites:** [CIS 163](https://www.gvsu.edu/catalog/course/cis-163.htm) and STA 215.
        - **Offered:** winter semester

        [CIS 380 in the catalog](https://www.gvsu.edu/catalog/course/cis-380.htm)
        """)
        guard case let .object(json) = JSONValue(encoding: item) else { Issue.record("not an object"); return }
        for key in ["id", "title", "description", "thumbnail", "content", "featured", "createdAt"] { #expect(json[key] != nil, "\(key)") }
        #expect(try NewsFile.decode(NewsFile.encoded([item])) == [item])
    }

    @Test func removedChangedAndRenumberedCoursesAreAnnouncedOnlyWhenAsked() throws {
        #expect(try Self.fixtureNews(NewsSettings()).allSatisfy { $0.kind == .added })
        let items = try Self.fixtureNews(NewsSettings(announceRemoved: true, announceChanged: true))
        #expect(items.map(\.kind) == [.added, .added, .renumbered, .changed, .removed])
        #expect(items[2].title == "Course renumbered: CIS 267 is now CIS 367 — Computer Graphics")
        #expect(items[2].content.contains("- Offered: ~~winter~~ fall semester"))
        #expect(items[3].title == "Course updated: MTH 201 — Calculus I")
        #expect(items[3].description == "Changed: Credits, Prerequisites, Repeatability.")
        #expect(items[4].title == "Course removed: CIS 101 — Legacy Computing")
        #expect(items[4].id == "gvsu-fixture:removed:cis-101:20240901T060000Z")
        #expect(Set(items.map(\.id)).count == items.count)
    }

    @Test(arguments: [
        ("Study of organisms. Field trips on Saturdays.", "Study of organisms."),
        ("Topics in the U.S. economy, e.g. trade. More text.", "Topics in the U.S. economy, e.g. trade."),
        ("Taught by J. Smith. Lab included.", "Taught by J. Smith."),
        ("Version 2.0 of the course. Next.", "Version 2.0 of the course."),
        ("No full stop at all", "No full stop at all"),
        ("First paragraph without a stop\n\nSecond paragraph.", "First paragraph without a stop"),
        ("Is it worth it? Yes.", "Is it worth it?"),
        ("Ends with a quote \"like this.\" Then more.", "Ends with a quote \"like this.\""),
    ])
    func theDescriptionIsTheFirstSentence(_ text: String, _ expected: String) {
        #expect(NewsBuilder.firstSentence(text) == expected)
    }

    @Test func theNewsFileKeepsTheFirstItemOfAnIdAndSortsNewestFirst() throws {
        func item(_ id: String, _ time: String, _ title: String = "t") -> NewsItem {
            NewsItem(id: id, title: title, description: "d", content: "c", featured: false, createdAt: time, kind: .added, courseId: id, link: nil)
        }
        let existing = [item("a", "2024-01-01T00:00:00Z", "first")]
        let merged = NewsFile.merge(existing: existing, new: [item("b", "2024-02-01T00:00:00Z"), item("a", "2024-03-01T00:00:00Z", "again"),
                                                              item("c", "2024-02-01T00:00:00Z")])
        #expect(merged.map(\.id) == ["b", "c", "a"])
        #expect(merged.last?.title == "first")
        #expect(try NewsFile.decode(NewsFile.encoded(merged)) == merged)
        #expect(throws: FormatError.self) { try NewsFile.decode(Array(#"{"schemaVersion": 1, "news": [{"id": 1}]}"#.utf8)) }
    }

    /// The feed parsed back: the elements each path holds and the text of each.
    final class FeedReader: NSObject, XMLParserDelegate {
        var path: [String] = []
        var texts: [String: [String]] = [:]
        var text = ""

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            path.append(name)
            text = ""
            for (key, value) in attributes { texts[(path + ["@" + key]).joined(separator: "/"), default: []].append(value) }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            texts[path.joined(separator: "/"), default: []].append(text)
            text = ""
            path.removeLast()
        }

        static func read(_ xml: String) -> FeedReader? {
            let reader = FeedReader()
            let parser = XMLParser(data: Data(xml.utf8))
            parser.delegate = reader
            return parser.parse() ? reader : nil
        }
    }

    @Test func theAtomFeedHasWhatRFC4287Requires() throws {
        let items = try Self.fixtureNews(NewsSettings(featuredSubjects: ["CIS"], announceRemoved: true))
        let settings = NewsSettings(feedTitle: "GVSU: new courses", feedID: "urn:gvingest:gvsu:news")
        let xml = AtomFeed.render(items, settings: settings, emptyUpdated: "2000-01-01T00:00:00Z")
        let feed = try #require(FeedReader.read(xml), "not well-formed:\n\(xml)")
        #expect(feed.texts["feed/id"] == ["urn:gvingest:gvsu:news"])
        #expect(feed.texts["feed/title"] == ["GVSU: new courses"])
        #expect(feed.texts["feed/updated"] == ["2025-01-06T06:00:00Z"])
        #expect(feed.texts["feed/author/name"] == ["GVSU: new courses"])
        #expect(feed.texts["feed/entry"]?.count == 3)
        for element in ["id", "title", "updated", "content", "summary"] {
            #expect(feed.texts["feed/entry/\(element)"]?.count == 3, "\(element)")
        }
        #expect(feed.texts["feed/entry/id"]?.first == "urn:gvingest:gvsu:news#gvsu-fixture:added:bio-610:20240901T060000Z")
        #expect(feed.texts["feed/entry/updated"]?.allSatisfy { Timestamp.date($0) != nil } == true)
        #expect(feed.texts["feed/entry/content/@type"] == ["html", "html", "html"])
        let html = NewsHTML.render(items[1].content)
        #expect(feed.texts["feed/entry/content"]?.contains(html) == true)
        #expect(html.contains("<li><strong>Credits:</strong> 3 credits</li>"), "\(html)")
        #expect(html.contains("<strong>Prerequisites:</strong> <a href=\"https://www.gvsu.edu/catalog/course/cis-163.htm\">CIS 163</a> and STA 215."))
        #expect(feed.texts["feed/entry/category/@term"]?.contains("featured") == true)
        // No news: still a valid feed, dated by the fallback.
        let empty = try #require(FeedReader.read(AtomFeed.render([], settings: settings, emptyUpdated: "2000-01-01T00:00:00Z")))
        #expect(empty.texts["feed/updated"] == ["2000-01-01T00:00:00Z"])
    }

    @Test func aHostileTitleIsEscapedInTheFeedAndInMarkdown() throws {
        let hostile = #"<script>alert("x")</script> & ]]> "double" 'single' *bold* [link](javascript:x)"#
        let before = Support.capture([Support.course("CIS 162", title: "CS I")], at: 1_700_000_000).snapshot
        let (after, diff) = Support.capture([Support.course("CIS 162", title: "CS I"),
                                             Support.course("CIS 666", title: hostile, description: hostile + ". Second <b>sentence</b>.")],
                                            previous: before, at: 1_700_086_400)
        let items = NewsBuilder.items(diff: diff, previous: before, current: after, settings: NewsSettings())
        let item = try #require(items.first)
        #expect(item.title == "New course: CIS 666 — " + hostile.replacingOccurrences(of: " ]", with: "]"))

        let xml = AtomFeed.render(items, settings: NewsSettings(feedTitle: hostile), emptyUpdated: after.capturedAt)
        #expect(!xml.contains("<script>") && !xml.contains("]]>") && !xml.contains("<b>"))
        #expect(xml.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; ]]&gt; &quot;double&quot; &apos;single&apos;"))
        let feed = try #require(FeedReader.read(xml), "not well-formed:\n\(xml)")
        #expect(feed.texts["feed/title"] == [hostile])
        #expect(feed.texts["feed/entry/title"] == [item.title])
        let html = NewsHTML.render(item.content)
        #expect(feed.texts["feed/entry/content"] == [html])
        // In the HTML the catalog's markup is text again, and its would-be link no link.
        #expect(html.hasPrefix("<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; ]]&gt; &quot;double&quot; &apos;single&apos; *bold* [link](javascript:x)"), "\(html)")
        #expect(!html.contains("<script") && !html.contains("<b>") && !html.contains("href=\"javascript"))

        let escaped = #"\<script\>alert("x")\</script\> \&\]\]\> "double" 'single' \*bold\* \[link\](javascript:x)"#
        #expect(item.content.hasPrefix(escaped + ". Second \\<b\\>sentence\\</b\\>."))
        let digest = RunDigest.markdown(current: after, previous: before, diff: diff, news: items)
        #expect(digest.contains("**New course: CIS 666 — \(escaped)**"))
        #expect(digest.contains("- **CIS 666** — \(escaped)"))
        for markdown in [item.content, digest] {
            #expect(!markdown.contains("<script>") && !markdown.contains(" [link](javascript"), "\(markdown)")
        }
    }

    @Test func controlCharactersCannotBreakTheFeed() throws {
        let item = NewsItem(id: "x", title: "bell \u{07} and form feed \u{0C}", description: "d", content: "c", featured: false,
                            createdAt: "2024-01-01T00:00:00Z", kind: .added, courseId: "x", link: nil)
        let xml = AtomFeed.render([item], settings: NewsSettings(), emptyUpdated: "2024-01-01T00:00:00Z")
        let feed = try #require(FeedReader.read(xml))
        #expect(feed.texts["feed/entry/title"] == ["bell \u{FFFD} and form feed \u{FFFD}"])
    }

    @Test func theDigestOfAFirstRunSaysItIsTheBaseline() {
        let (snapshot, diff) = Support.capture([Support.course("CIS 162", title: "CS I")], at: 1_700_000_000)
        let digest = RunDigest.markdown(current: snapshot, previous: nil, diff: diff, news: [])
        #expect(digest.contains("first snapshot"))
        #expect(digest.contains("1 courses from 3 of 3 pages (0 failed)"))
        #expect(!digest.contains("## News"))
    }

    @Test func newsMarkdownBecomesHTMLThatKeepsCatalogTextText() {
        let markdown = "What changed in \\*X\\*:\n\n- Offered: ~~winter~~ fall\n  - nested \\<i\\>\n- **Credits:** 3 credits\n\n"
            + "[CIS 1 in the catalog](https://example.edu/a%28b%29) [not](javascript:alert) **open"
        #expect(NewsHTML.render(markdown) == "<p>What changed in *X*:</p>\n<ul><li>Offered: <del>winter</del> fall<ul><li>nested &lt;i&gt;</li></ul>"
            + "</li><li><strong>Credits:</strong> 3 credits</li></ul>\n<p><a href=\"https://example.edu/a%28b%29\">CIS 1 in the catalog</a> "
            + "[not](javascript:alert) <strong>open</strong></p>")
    }
}
