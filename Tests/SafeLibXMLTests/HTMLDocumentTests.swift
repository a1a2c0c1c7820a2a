import Foundation
import Testing
@testable import SafeLibXML

@Suite struct HTMLDocumentTests {
    static func document(_ html: String, url: String? = "https://example.edu/catalog/course/cis-162.htm",
                         contentType: String? = nil) throws -> HTMLDocument {
        try HTMLDocument(bytes: Array(html.utf8), url: url.flatMap(URL.init(string:)), contentType: contentType)
    }

    /// XPath contexts and compiled expressions are pooled across documents: each query must read its own
    /// document, also after the one a pooled context last read is gone, and from several threads at once.
    @Test func pooledXPathContextsReadTheDocumentTheyAreGiven() async throws {
        do {
            let first = try Self.document("<h1 id=t>first</h1><p>one</p>")
            #expect(try first.first("id('t')")?.text == "first")
        }
        let second = try Self.document("<h1 id=t>second</h1><p>two</p><p>three</p>")
        #expect(try second.first("id('t')")?.text == "second")
        #expect(try second.select("//p").map(\.text) == ["two", "three"])
        let heading = try #require(try second.first("//h1"))
        #expect(try heading.first("following-sibling::p[2]")?.text == "three")
        let texts = await withTaskGroup(of: String.self) { group in
            for index in 0..<64 {
                group.addTask {
                    let page = try? Self.document("<div><h1 id=t>page \(index)</h1></div>")
                    return ((try? page?.first("id('t')")) ?? nil)?.text ?? "missing"
                }
            }
            return await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(texts == Set((0..<64).map { "page \($0)" }))
    }

    @Test func textHasEntitiesDecodedAndWhiteSpaceCollapsed() throws {
        let doc = try Self.document("<p id=x>  Data&nbsp;&amp;\n\t Algorithms &eacute;t&#233; &#8212; ok </p>")
        let paragraph = try #require(try doc.first("//p[@id='x']"))
        #expect(paragraph.text == "Data & Algorithms été — ok")
        #expect(paragraph.rawText.contains("\u{A0}"))
    }

    @Test func undeclaredUTF8IsNotGarbled() throws {
        let doc = try Self.document("<html><body><h3>PHIL 6399 - Master’s Thesis — Résumé</h3></body></html>")
        #expect(try doc.first("//h3")?.text == "PHIL 6399 - Master’s Thesis — Résumé")
        #expect(doc.charset.source == .defaultUTF8)
    }

    @Test func windows1252PagesDecodeFromTheirMetaDeclaration() throws {
        var bytes = Array("<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1252\"></head><body><p>".utf8)
        bytes += [0x93, 0x43, 0x61, 0x66, 0xE9, 0x94, 0x20, 0x92]
        bytes += Array("</p></body></html>".utf8)
        let doc = try HTMLDocument(bytes: bytes, url: nil)
        #expect(try doc.first("//p")?.text == "“Café” ’")
        #expect(doc.charset == CharsetChoice(name: "windows-1252", source: .metaTag))
    }

    @Test func theHTTPHeaderCharsetIsUsed() throws {
        let bytes = Array("<p>".utf8) + [0xE9] + Array("</p>".utf8)
        let doc = try HTMLDocument(bytes: bytes, url: nil, contentType: "text/html; charset=iso-8859-1")
        #expect(try doc.first("//p")?.text == "é")
    }

    @Test func invalidUTF8IsReplacedAndReported() throws {
        let bytes = Array("<p>ok ".utf8) + [0xFF, 0xFE, 0xC3] + Array(" end</p>".utf8)
        let doc = try HTMLDocument(bytes: bytes, url: nil)
        #expect(try doc.first("//p")?.text == "ok \u{FFFD}\u{FFFD}\u{FFFD} end")
        #expect(doc.issues.contains { $0.message.contains("replaced") })
    }

    @Test func attributesAndClasses() throws {
        let doc = try Self.document("<td class=' block_content  coursepadding ' data-x='a&amp;b'>x</td>")
        let cell = try #require(try doc.first("//td"))
        #expect(cell.hasClass("coursepadding"))
        #expect(!cell.hasClass("course"))
        #expect(cell.attribute("data-x") == "a&b")
        #expect(cell.attribute("missing") == nil)
        #expect(cell.name == "td")
    }

    @Test func linksResolveAgainstThePageAndItsBase() throws {
        let doc = try Self.document("<a href='../course/cis-163.htm'>a</a><a href='/x?y=1&amp;z=2'>b</a><a href='javascript:void(0)'>c</a>")
        let links = try doc.select("//a").map { $0.link()?.absoluteString }
        #expect(links == ["https://example.edu/catalog/course/cis-163.htm", "https://example.edu/x?y=1&z=2", nil])

        let based = try Self.document("<html><head><base href='https://other.edu/a/'></head><body><a href='b.htm'>x</a></body></html>")
        #expect(try based.first("//a")?.link()?.absoluteString == "https://other.edu/a/b.htm")
        based.rebase(to: URL(string: "https://ignored.edu/")!)
        #expect(try based.first("//a")?.link()?.absoluteString == "https://other.edu/a/b.htm")
    }

    @Test func rebasingAFileResolvesLinksAsOnTheSite() throws {
        let doc = try Self.document("<a href='/catalog/course/cis-241.htm'>CIS 241</a>", url: "file:///tmp/cis-452.html")
        doc.rebase(to: URL(string: "https://www.gvsu.edu/catalog/course/cis-452.htm")!)
        #expect(try doc.first("//a")?.link()?.absoluteString == "https://www.gvsu.edu/catalog/course/cis-241.htm")
    }

    @Test func anInvalidXPathIsAnErrorNotACrashOrAPrint() throws {
        let doc = try Self.document("<p>x</p>")
        #expect(throws: HTMLError.self) { try doc.select("//p[") }
        do {
            _ = try doc.select("//[bad")
            Issue.record("expected an error")
        } catch let error {
            guard case let .invalidXPath(expression, _, code) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(expression == "//[bad")
            #expect(code != 0)
        }
    }

    @Test func parseErrorsAreCollectedNotPrinted() throws {
        let doc = try Self.document("<html><body><p>unclosed <b>bold <i>italic</p></div></span><foo:bar>&bogus;</body>")
        #expect(doc.issueCount > 0)
        #expect(doc.issues.count == min(doc.issueCount, HTMLDocument.issueLimit))
        #expect(doc.issues.allSatisfy { !$0.message.isEmpty })
        #expect(try doc.first("//p")?.text.hasPrefix("unclosed bold italic") == true)
    }

    @Test func emptyAndOversizedInputsAreRefused() {
        #expect(throws: HTMLError.emptyInput) { try HTMLDocument(bytes: [], url: nil) }
        #expect(throws: HTMLError.tooLarge(bytes: 11, limit: 10)) { try HTMLDocument(bytes: Array("<p>hello</p>".utf8.prefix(11)), url: nil, sizeLimit: 10) }
    }

    @Test func aNodeKeepsItsDocumentAlive() throws {
        func heading() throws -> HTMLNode? {
            let doc = try Self.document("<h1>CIS 162 - Computer Science I</h1>")
            return try doc.first("//h1")
        }
        let node = try #require(try heading())
        #expect(node.text == "CIS 162 - Computer Science I")
        #expect(node.path == "/html/body/h1")
    }

    @Test func inlineEventsSkipHiddenContentAndMarkEmphasisLinksAndBreaks() throws {
        let doc = try Self.document("""
        <div><h3>X</h3><strong>Credit Hours:</strong> <em>3</em><br/>
        <a href="preview_course_nopop.php?catoid=1&amp;coid=2">COSC 1336</a><span style="display: none !important">&nbsp;</span>.
        <div class="tooltip" style="display:none">hidden</div><script>var x;</script><p>para</p></div>
        """)
        let div = try #require(try doc.first("//div"))
        let heading = try #require(try doc.first("//h3"))
        let events = div.inlineEvents(after: heading)
        #expect(events.first == .startEmphasis("strong"))
        #expect(events.contains(.text("Credit Hours:")))
        #expect(events.contains(.lineBreak))
        #expect(events.contains(.startLink(href: "preview_course_nopop.php?catoid=1&coid=2",
                                           url: URL(string: "https://example.edu/catalog/course/preview_course_nopop.php?catoid=1&coid=2"))))
        #expect(events.contains(.blockBoundary))
        #expect(!events.contains(.text("hidden")))
        #expect(!events.contains(.text("var x;")))
        #expect(!events.contains(.text("X")))
    }

    @Test func collapsingHandlesEveryKindOfSpace() {
        #expect(TextCollapsing.collapse("\u{A0} a\u{2009}\u{202F}b\n\n c \u{3000}") == "a b c")
        #expect(TextCollapsing.collapse("") == "")
    }

    @Test func manyDocumentsParseConcurrently() async throws {
        let html = (0..<200).map { "<p class='c'>row \($0) &amp; more</p>" }.joined()
        let counts = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    guard let doc = try? HTMLDocument(bytes: Array(html.utf8), url: nil),
                          let nodes = try? doc.select("//p[@class='c']") else { return -1 }
                    return nodes.filter { $0.text.hasSuffix("& more") }.count
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(counts == Array(repeating: 200, count: 16))
    }
}
