@testable import CatalogKit
import Foundation
import SafeLibXML
import Testing

/// How a saved page's own URL is found: each rule, in order, as the XPath it stands for would find it.
struct PageContextTests {
    static func page(_ html: String) throws -> PageContext {
        let document = try HTMLDocument(bytes: Array(html.utf8), url: URL(fileURLWithPath: "/tmp/saved.html"))
        return PageContext(document: document, sourceURL: URL(fileURLWithPath: "/tmp/saved.html"))
    }

    @Test func aCanonicalLinkWithAnHrefWins() throws {
        // `/html/head/link[@rel='canonical']/@href`: a canonical link without href is passed over.
        let page = try Self.page("""
            <html><head><link rel=canonical><link rel=canonical href=" https://a.edu/x "><meta property=og:url content="https://b.edu/y">
            </head><body><p>x</p></body></html>
            """)
        #expect(page.pageURLText == "https://a.edu/x")
        #expect(page.pageURLRule == "<link rel=canonical>")
        #expect(page.pageURLString == "https://a.edu/x")
    }

    @Test func openGraphComesNext() throws {
        let page = try Self.page("<html><head><meta property=og:url content='https://b.edu/y'></head><body>x</body></html>")
        #expect(page.pageURLText == "https://b.edu/y")
        #expect(page.pageURLRule == "<meta property=og:url>")
    }

    @Test func theArchiveSpanIsTheFirstInDocumentOrderAlsoWhenItsDivsNest() throws {
        // As `//div[@class='edu-uh-publications-metadata']/span[@title='scrape_url']` selects it.
        let page = try Self.page("""
            <div class="edu-uh-publications-metadata"><div class="edu-uh-publications-metadata">
            <span title="scrape_url">https://inner.example/</span></div><span title="scrape_url">https://outer.example/</span></div>
            <div class="other"><span title="scrape_url">https://other.example/</span></div>
            """)
        #expect(page.pageURLText == "https://inner.example/")
        #expect(page.pageURLRule == "archive metadata span[title=scrape_url]")
    }

    @Test func aPageThatDeclaresNothingKeepsItsFile() throws {
        let page = try Self.page("<div class='edu-uh-publications-metadata x'><span title=scrape_url>https://no.example/</span></div>")
        #expect(page.pageURLText == URL(fileURLWithPath: "/tmp/saved.html").absoluteString)
        #expect(page.pageURLString == nil)
        #expect(page.pageURLRule == "the file it was read from")
    }

    @Test func aBaseWithoutHrefDoesNotStopRebasing() throws {
        let page = try Self.page("<html><head><base target=_blank><link rel=canonical href='https://a.edu/dir/x'></head><body>x</body></html>")
        #expect(page.document.resolve("y")?.absoluteString == "https://a.edu/dir/y")
        let based = try Self.page("<html><head><base href='https://c.edu/root/'><link rel=canonical href='https://a.edu/dir/x'></head><body>x</body></html>")
        #expect(based.document.resolve("y")?.absoluteString == "https://c.edu/root/y")
    }
}
