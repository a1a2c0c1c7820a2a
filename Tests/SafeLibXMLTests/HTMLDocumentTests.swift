import CLibXML2
import Foundation
import PublishedPages
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

    /// The tree walks stand in for XPath queries: they must select the same nodes, in the same order.
    static func sameNodes(_ walked: [HTMLNode], _ selected: [HTMLNode]) -> Bool {
        walked.count == selected.count && zip(walked, selected).allSatisfy { $0.isSame(as: $1) }
    }

    @Test func treeWalksSelectWhatTheirXPathSelects() throws {
        let page = try Self.document("""
            <html><head><base href="/x/"><link rel=canonical href=a><title>t</title><link rel=canonical href=b></head>
            <body><table><tr><td class="x coursepadding"><div><h4>A</h4><h3>B <h2>C</h2></h3></div></td>
            <td class="coursepaddingx"><h2>D</h2></td></tr></table><!-- <td>not</td> --><div><td>E</td></div></body></html>
            """)
        #expect(Self.sameNodes(page.elements(named: ["td", "h2"]), try page.select("//td | //h2")))
        #expect(Self.sameNodes(page.elements(named: ["h3"], limit: 1), try page.select("(//h3)[1]")))
        #expect(Self.sameNodes(page.headChildren(named: ["link", "title"]), try page.select("/html/head/link | /html/head/title")))
        for block in page.elements(named: ["td"]) {
            #expect(Self.sameNodes(block.descendants(named: ["h3", "h2", "h4"], limit: 1), try block.select("(.//h3 | .//h2 | .//h4)[1]")))
            #expect(Self.sameNodes(block.descendants(named: ["h2"]), try block.select(".//h2")))
        }
        let body = try #require(try page.first("/html/body"))
        #expect(Self.sameNodes(body.children.filter { ["div", "table"].contains($0.name) }, try body.select("div | table")))
        #expect(try #require(page.headChildren(named: ["base"]).first).hasAttribute("href"))
        #expect(!(try #require(page.headChildren(named: ["title"]).first)).hasAttribute("href"))
        #expect(page.elements(named: ["nothing"]).isEmpty)
    }

    /// A page nested 10,000 deep (libxml2 keeps the first 256 levels or so): the walk goes to the bottom of the
    /// tree libxml2 built and finds what XPath finds.
    @Test func treeWalksSurviveDeepNesting() throws {
        let depth = 10_000
        let page = try Self.document(String(repeating: "<div>", count: depth) + "<span>deep</span>" + String(repeating: "</div>", count: depth))
        let divs = page.elements(named: ["div"])
        #expect(divs.count > 200)
        #expect(Self.sameNodes(divs, try page.select("//div")))
        let top = try #require(divs.first)
        #expect(Self.sameNodes(top.descendants(named: ["div", "span"]), try top.select(".//div | .//span")))
    }

    /// On real catalog pages of every system (Fixtures/realworld.tar.xz): the walks and XPath agree element for element.
    @Test func treeWalksAgreeWithXPathOnRealPages() throws {
        let realworld = PublishedPages.realworld
        let directories = (try? FileManager.default.contentsOfDirectory(atPath: realworld.path)) ?? []
        try #require(!directories.isEmpty, "no pages in \(realworld.path): see scripts/realworld.sh")
        var pages = 0
        for directory in directories.sorted() {
            let folder = realworld.appendingPathComponent(directory)
            guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { continue }
            let files = enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".html") || $0.hasSuffix(".htm") }.sorted()
            for file in files.enumerated().filter({ $0.offset % 97 == 0 }).map(\.element) {
                let bytes = try Array(Data(contentsOf: folder.appendingPathComponent(file)))
                guard let page = try? HTMLDocument(bytes: bytes) else { continue }
                pages += 1
                #expect(Self.sameNodes(page.elements(named: ["td", "div", "a", "h3"]), try page.select("//td | //div | //a | //h3")), "\(directory)/\(file)")
                #expect(Self.sameNodes(page.headChildren(named: ["link", "meta"]), try page.select("/html/head/link | /html/head/meta")))
                for element in page.elements(named: ["td", "div", "a", "h1", "h2", "h3", "span", "p", "strong", "li"]) {
                    #expect(element.path == element.libxml2Path)
                }
                // Text nodes too ("…/span[3]/text()", "…/td/text()[2]"), as the catalog name's provenance has them.
                for text in try page.select("//text()").enumerated().filter({ $0.offset % 7 == 0 }).map(\.element) {
                    #expect(text.path == text.libxml2Path, "\(directory)/\(file)")
                }
                // Inline roles by the packed name, against the lookup by name.
                for element in page.elements(named: ["td", "div", "a", "h1", "h2", "h3", "span", "p", "strong", "li", "em", "b", "br", "script", "table"]) {
                    #expect(InlineEvent.role(of: element.pointer) == InlineEvent.roles[element.name])
                }
                // Classes read off the value's bytes, against XPath's reading of them.
                for name in ["coursepadding", "block_content", "courseblock", "nttitle", "acalog-course", "active", "x"] {
                    let byXPath = try page.select("//*[contains(concat(' ', normalize-space(@class), ' '), ' \(name) ')]")
                    #expect(Self.sameNodes(page.elements(named: ["td", "div", "span", "p", "a", "li", "ul", "table", "h3", "strong"]).filter { $0.hasClass(name) },
                                           byXPath.filter { ["td", "div", "span", "p", "a", "li", "ul", "table", "h3", "strong"].contains($0.name) }), "\(directory)/\(file) .\(name)")
                }
                // Attributes read off the element's own list, against libxml2's `xmlGetProp`/`xmlHasProp`.
                for element in page.elements(named: ["a", "div", "span", "td", "link", "meta", "img", "input", "p"]) {
                    for name in ["href", "class", "id", "title", "style", "hidden", "rel", "content", "property", "src", "value", "nonexistent"] {
                        #expect(element.attribute(name) == element.libxml2Attribute(name), "\(directory)/\(file) @\(name)")
                        #expect(element.hasAttribute(name) == (element.libxml2Attribute(name) != nil))
                    }
                }
                for cell in page.elements(named: ["td", "div"]).prefix(50) {
                    #expect(Self.sameNodes(cell.descendants(named: ["h3", "h2", "h4"], limit: 1), try cell.select("(.//h3 | .//h2 | .//h4)[1]")))
                }
            }
        }
        #expect(pages > 50)
    }

    /// Attribute values as `xmlGetProp` gives them, in the shapes a page can write them: no value, empty,
    /// entities, an entity-like text that is not one, a repeated name (the first wins), upper case names.
    @Test func attributesReadAsLibXML2ReadsThem() throws {
        let page = try Self.document(#"<div><input hidden DISABLED value="" title="a &amp; b &lt;c&gt; &#233;" data-x="&bogus; x" id=one id=two class='  a  b '></div>"#)
        let input = try #require(page.elements(named: ["input"]).first)
        for name in ["hidden", "disabled", "DISABLED", "value", "title", "data-x", "id", "class", "missing", ""] {
            #expect(input.attribute(name) == input.libxml2Attribute(name), "@\(name)")
            #expect(input.hasAttribute(name) == (input.libxml2Attribute(name) != nil), "@\(name)")
        }
        #expect(input.attribute("hidden") == "")
        #expect(input.attribute("title") == "a & b <c> é")
    }

    /// Every element's inline role, by the packed-name lookup and by the name, on names short and long,
    /// custom and unknown.
    @Test func inlineRolesByPackedNameAreTheRolesByName() throws {
        let page = try Self.document("<div><blockquote>q</blockquote><figure><figcaption>c</figcaption></figure><my-element>m</my-element>"
            + "<abcdefghi>x</abcdefghi><h6>h</h6><b2>n</b2><noscript>s</noscript><template>t</template><strong>s</strong><i>i</i><hr><br><a>a</a></div>")
        let names = ["blockquote", "figure", "figcaption", "my-element", "abcdefghi", "h6", "b2", "noscript", "template", "strong", "i", "hr", "br", "a", "div"]
        let elements = page.elements(named: names)
        #expect(Set(elements.map(\.name)) == Set(names))
        for element in elements {
            #expect(InlineEvent.role(of: element.pointer) == InlineEvent.roles[element.name], "\(element.name)")
        }
        #expect(InlineEvent.role(of: try #require(elements.first { $0.name == "blockquote" }).pointer) == .block)
        #expect(InlineEvent.role(of: try #require(elements.first { $0.name == "template" }).pointer) == .skipped)
        #expect(InlineEvent.role(of: try #require(elements.first { $0.name == "abcdefghi" }).pointer) == nil)
    }

    /// Class lists split where XPath's `normalize-space` splits them, carriage returns included.
    @Test func classesSplitAtEveryKindOfWhiteSpace() throws {
        let page = try Self.document("<div><p class=\"a\r\nb\">1</p><p class=\"\tb\tc \">2</p><p class=bb>3</p><p class=\"\">4</p><p>5</p></div>")
        let withB = page.elements(named: ["p"]).filter { $0.hasClass("b") }.map(\.text)
        #expect(withB == ["1", "2"])
        #expect(Self.sameNodes(page.elements(named: ["p"]).filter { $0.hasClass("b") },
                               try page.select("//p[contains(concat(' ', normalize-space(@class), ' '), ' b ')]")))
        #expect(page.elements(named: ["p"]).filter { $0.hasClass("") }.isEmpty)
    }

    /// Hidden content stays out of inline events: `hidden`, and styles that hide, written any way.
    @Test func hiddenElementsAreLeftOut() throws {
        let page = try Self.document(#"<div><p>a<span hidden>b</span><span style="DISPLAY : NONE">c</span><span style="color:red;visibility:  hidden">d</span><span style="display:block">e</span><span style="display:nonè">f</span><span style="DİSPLAY:NONE">g</span><span style="x:1;Display:None">h</span></p></div>"#)
        let paragraph = try #require(page.elements(named: ["p"]).first)
        let text = paragraph.inlineEvents().compactMap { event -> String? in
            if case let .text(value) = event { return value }
            return nil
        }.joined()
        #expect(text == "aefg")
    }

    /// `elements(named:limit:where:)` with a limit of one: the first match in document order, or none.
    @Test func firstElementStopsAtTheFirstMatchInDocumentOrder() throws {
        let page = try Self.document("<div><span title=x>1</span><p><span title=y>2</span></p><span title=y>3</span></div>")
        #expect(page.elements(named: ["span"], limit: 1) { $0.attribute("title") == "y" }.first?.text == "2")
        #expect(page.elements(named: ["span"], limit: 1) { _ in true }.first?.text == "1")
        #expect(page.elements(named: ["span"], limit: 1) { $0.attribute("title") == "z" }.isEmpty)
        var asked = 0
        _ = page.elements(named: ["span"], limit: 1) { _ in asked += 1; return true }
        #expect(asked == 1)
    }

    /// White space between inline elements is text, also after elements libxml2's blank-dropping option does
    /// not list (`sub`, `sup`, `img`): the parse must keep it.
    @Test func whiteSpaceBetweenInlineElementsIsKept() throws {
        let page = try Self.document("<div><p>H<sub>2</sub> <b>O</b> and x<sup>2</sup> <em>y</em>, <img src=a.png> <i>z</i></p></div>")
        let paragraph = try #require(page.elements(named: ["p"]).first)
        let text = paragraph.inlineEvents().compactMap { event -> String? in
            if case let .text(value) = event { return value }
            return nil
        }.joined()
        #expect(TextCollapsing.collapse(text) == "H2 O and x2 y, z")
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

    @Test func aUTF8PageKeepsItsTextWhateverItsMetaSays() throws {
        // The header says UTF-8 and the bytes are; the page's own <meta> says windows-1252. libxml2 is told the
        // bytes are UTF-8 and must not switch on reading the <meta> (HTML_PARSE_IGNORE_ENC), or "é" would come
        // out as "Ã©".
        let bytes = Array("<html><head><meta charset=\"windows-1252\"></head><body><p>Café — “x”</p></body></html>".utf8)
        let doc = try HTMLDocument(bytes: bytes, url: nil, contentType: "text/html; charset=utf-8")
        #expect(doc.charset == CharsetChoice(name: "utf-8", source: .httpHeader))
        #expect(try doc.first("//p")?.text == "Café — “x”")
    }

    @Test func invalidUTF8IsReplacedAndReported() throws {
        let bytes = Array("<p>ok ".utf8) + [0xFF, 0xFE, 0xC3] + Array(" end</p>".utf8)
        let doc = try HTMLDocument(bytes: bytes, url: nil)
        #expect(try doc.first("//p")?.text == "ok \u{FFFD}\u{FFFD}\u{FFFD} end")
        #expect(doc.issues.contains { $0.contains("replaced") })
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
        #expect(doc.issues.allSatisfy { !$0.isEmpty })
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

extension HTMLNode {
    /// `xmlGetProp`'s answer, to hold `attribute` to.
    func libxml2Attribute(_ name: String) -> String? {
        guard pointer.pointee.type == XML_ELEMENT_NODE else { return nil }
        return LibXML.take(xmlGetProp(pointer, name))
    }
}
