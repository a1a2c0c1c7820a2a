import Foundation
@testable import CatalogKit
import FuzzHarness
import Testing

/// Every word of real prerequisite prose ends up in the tree (see `Requisite.missingWords(of:)`).
struct LosslessTests {
    @Test func sharedSentences() throws {
        let sentences = try TestData.prereqSentences()
        #expect(sentences.count == 70)
        for sentence in sentences {
            let tree = RequisiteParser.parse(sentence)
            if sentence.trimmingCharacters(in: .whitespaces) == "None" {
                #expect(tree == nil)
                continue
            }
            let missing = tree?.missingWords(of: sentence) ?? Requisite.words(of: sentence)
            #expect(missing.isEmpty, "\(sentence) lost \(missing)")
        }
    }

    @Test func houstonRequisites() throws {
        let entries = try TestData.uhEntries()
        #expect(entries.count == 7_692)
        var failures: [String] = []
        for entry in entries {
            let tree = RequisiteParser.parse(entry.text)
            guard let tree else {
                // Only empty text and "None" may have no tree.
                let words = Requisite.words(of: entry.text)
                if words != ["none"], !words.isEmpty { failures.append(entry.text) }
                continue
            }
            let missing = tree.missingWords(of: entry.text)
            if !missing.isEmpty { failures.append("\(entry.text) lost \(missing)") }
        }
        #expect(failures.isEmpty, "\(failures.count) lossy: \(failures.prefix(5))")
    }
}
