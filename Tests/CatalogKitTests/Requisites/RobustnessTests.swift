@testable import CatalogKit
import FuzzHarness
import Testing

/// Hostile input: the parser must return, never trap, and still account for every word.
struct RobustnessTests {
    /// Parses and checks losslessness; returns the tree.
    @discardableResult
    func parseChecked(_ text: String) -> Requisite? {
        let tree = RequisiteParser.parse(text)
        if let tree {
            #expect(tree.missingWords(of: text).isEmpty, "lost words of \(text.prefix(80))")
        }
        return tree
    }

    @Test func unbalancedParentheses() {
        #expect(parseChecked("((CIS 162")?.courses == ["CIS 162"])
        #expect(parseChecked("CIS 162))")?.courses == ["CIS 162"])
        #expect(parseChecked(")(") == nil)
        #expect(parseChecked("(()") == nil)
        #expect(parseChecked(") CIS 162 ( and ( CIS 163 ) ) )")?.courses == ["CIS 162", "CIS 163"])
    }

    /// Found by the requisite fuzzer: a connective before an empty group lost its word.
    @Test func connectiveBeforeAnEmptyGroupKeepsItsWord() {
        #expect(parseChecked("C or()") != nil)
        #expect(parseChecked("CIS 162 or ()")?.courses == ["CIS 162"])
        #expect(parseChecked("CIS 162 and (()) and CIS 163")?.courses == ["CIS 162", "CIS 163"])
        #expect(parseChecked("CIS 162 or ( ) or CIS 163")?.courses == ["CIS 162", "CIS 163"])
    }

    /// Found by the requisite fuzzer: a combining mark after a space is one `Character` with the space,
    /// but the leaf starts at the mark; words are counted by scalar so both sides agree.
    @Test func combiningMarksAndJoinersKeepTheirWords() {
        #expect(parseChecked(" \u{656}n") != nil)
        #expect(parseChecked("CIS 162 and \u{301}n")?.courses == ["CIS 162"])
        #expect(parseChecked("CIS 162\u{200D}x or Mu\u{308}ller")?.courses == ["CIS 162"])
        #expect(Requisite.words(of: " \u{656}n") == ["\u{656}n"])
    }

    @Test func emptyAndPunctuationOnly() {
        #expect(parseChecked("") == nil)
        #expect(parseChecked(".,;:()/[]-–—“”'\"*&") == nil)
        #expect(parseChecked("\u{A0}\t\n") == nil)
    }

    @Test func danglingConnectives() {
        #expect(parseChecked("and") == .text("and"))
        #expect(parseChecked("CIS 162 and")?.courses == ["CIS 162"])
        #expect(parseChecked("or or , and ; both either one of")  != nil)
        #expect(parseChecked("CIS 162, and, or; and CIS 163")?.courses == ["CIS 162", "CIS 163"])
    }

    @Test func deepNesting() {
        let depth = 2_000
        let nested = String(repeating: "(", count: depth) + "CIS 162 or CIS 163" + String(repeating: ")", count: depth)
        #expect(parseChecked(nested)?.withoutProvenance() == anyOf(courseLeaf("CIS 162"), courseLeaf("CIS 163")))
        #expect(parseChecked(String(repeating: "(", count: depth)) == nil)
        #expect(parseChecked(String(repeating: "(CIS 162 and ", count: depth))?.courses == ["CIS 162"])
        #expect(parseChecked(String(repeating: "one of ", count: depth) + "CIS 162") != nil)
        #expect(parseChecked(String(repeating: "CIS 162 ", count: depth) + String(repeating: ")", count: depth)) != nil)
    }

    @Test func garbage() {
        // Deterministic pseudo-random soup of the parser's own vocabulary and punctuation.
        let pieces = ["CIS", "162", "(", ")", "and", "or", ",", ";", ".", "/", "one of", "C-", "or better in", "grade", "of",
                      "[Min Grade:", "]", "junior", "standing", "major", "consent", "of instructor", "formerly", "recommended",
                      "score", "placement", "3000-level", "“", "”", "é", "≥", "&", ":", "both", "either", "may be taken concurrently",
                      "credit or registration in", "MATH108", "C S", "235", "—", "\u{A0}", "None", "(or equivalent)", "a"]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<40 {
            var text = ""
            while text.utf8.count < 5_000 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                text += pieces[Int((state >> 33) % UInt64(pieces.count))]
                if (state >> 20) % 3 != 0 { text += " " }
            }
            parseChecked(text)
        }
        var bytes: [UInt8] = []
        for _ in 0..<5_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes.append(UInt8(truncatingIfNeeded: state >> 40))
        }
        parseChecked(String(decoding: bytes, as: UTF8.self))
        parseChecked(String(repeating: "x", count: 5_000))
        parseChecked(String(repeating: "9", count: 5_000))
    }
}
