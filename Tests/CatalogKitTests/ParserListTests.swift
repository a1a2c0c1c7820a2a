import Foundation
import Testing
@testable import CatalogKit

/// The list of parsers is the one place a catalog system is named: the rest follows from it.
@Suite struct ParserListTests {
    @Test func everySystemHasOneParserAndTheSchemaNamesThemAll() throws {
        let listed = CatalogParsers.all.map(\.system.rawValue)
        #expect(Set(listed) == Set(CatalogSystem.allCases.map(\.rawValue)))
        #expect(Set(listed).count == listed.count)
        for system in CatalogSystem.allCases { #expect(CatalogParsers.parser(for: system).system == system) }
        // Every "system" enum in the published catalog's schema is exactly the list.
        let schema = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("schemas/catalog.schema.json"), encoding: .utf8)
        let enums = schema.components(separatedBy: "\"system\": {\"enum\": [").dropFirst().map { rest in
            rest.prefix { $0 != "]" }.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \"")) }
        }
        #expect(enums.count == 2)
        for names in enums { #expect(names.sorted() == listed.sorted()) }
    }

    /// The crawler completes a pager through the parser that read its page: Acalog numbers its pages, the
    /// others have no numbered pager.
    @Test func pagersAreTheParsersBusiness() throws {
        let page = "https://c.edu/content.php?catoid=10&navoid=600&filter%5Bcpage%5D=3"
        #expect(AcalogParser().pagerPage(of: page) == 3)
        #expect(AcalogParser().pagerKey(try #require(URL(string: "https://c.edu/content.php?catoid=10&navoid=600&filter[cpage]=3")))
                == "https://c.edu/content.php?catoid=10&navoid=600")
        for parser in CatalogParsers.all where parser.system != .acalog {
            #expect(parser.pagerPage(of: page) == nil)
            #expect(parser.pagerURL(page, page: 2) == nil)
        }
    }
}
