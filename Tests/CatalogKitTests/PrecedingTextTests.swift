import Foundation
import SafeLibXML
import Testing

/// `HTMLNode.nearestPrecedingText` replaces an XPath that libxml2 evaluates slowly; it must pick the same node.
struct PrecedingTextTests {
    static let xpath = "preceding::text()[contains(., 'Catalog')][not(ancestor::a)][not(ancestor::option)][1]"

    static func pages() -> [URL] {
        let gvsu = TestPaths.files(in: TestPaths.gvsuFixtures.appendingPathComponent("course"), suffix: ".html")
            + TestPaths.files(in: TestPaths.gvsuFixtures.appendingPathComponent("subject"), suffix: ".html")
        let acalog = TestPaths.files(in: TestPaths.fixtures.appendingPathComponent("acalog"), suffix: ".html")
        let lsu = TestPaths.files(in: TestPaths.realworld.appendingPathComponent("acalog-lsu"), suffix: ".html").prefix(100)
        let uh = TestPaths.files(in: TestPaths.realworld.appendingPathComponent("acalog-uh/44"), suffix: ".html").prefix(100)
        return gvsu + acalog + lsu + uh
    }

    @Test func picksTheNodeTheXPathPicksOnRealPages() throws {
        var compared = 0, found = 0
        for page in Self.pages() {
            let document = try HTMLDocument(bytes: Array(try Data(contentsOf: page)), url: page)
            for heading in try document.select("//h1 | //h2 | //h3 | //h4 | //p | //td") {
                let expected = try heading.first(Self.xpath)
                let actual = heading.nearestPrecedingText(containing: "Catalog", outside: ["a", "option"])
                #expect(actual?.path == expected?.path, "\(page.lastPathComponent) \(heading.path)")
                compared += 1
                if expected != nil { found += 1 }
            }
        }
        #expect(compared > 500)
        #expect(found > 100)
    }

    @Test func skipsLinksMenusAndItsOwnText() throws {
        let html = """
        <html><body><p>2024 Catalog</p><select><option>2023 Catalog</option></select>
        <div><a href="/">Catalog Home</a></div><h1>CIS 162 - Catalog of Things</h1></body></html>
        """
        let document = try HTMLDocument(bytes: Array(html.utf8))
        let heading = try #require(try document.first("//h1"))
        #expect(heading.nearestPrecedingText(containing: "Catalog", outside: ["a", "option"])?.text == "2024 Catalog")
        #expect(heading.nearestPrecedingText(containing: "Catalog", outside: [])?.text == "Catalog Home")
        #expect(heading.nearestPrecedingText(containing: "Missing", outside: []) == nil)
    }
}
