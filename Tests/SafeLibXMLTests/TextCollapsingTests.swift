@testable import SafeLibXML
import Testing

/// The String overloads take shortcuts (text already collapsed comes back uncopied; ASCII answers `isBlank` from
/// the bytes); they must give what the general versions give.
struct TextCollapsingTests {
    static let samples = [
        "", " ", "  ", "a", "a b", "a  b", " a", "a ", "a\tb", "a\nb", "a\r\nb", "a\u{A0}b", "\u{A0}", "é", "café au lait",
        "a\u{2003}b", "a\u{3000}b", "\u{1680}", "a\u{2028}b", "a\u{85}b", "© 2024 Catalog", "“quoted” – dash", "x\u{200B}y",
        "CIS 162 - Computer Science I", "Prerequisite:  CIS 162\u{A0}and MTH 122.",
    ]

    @Test(arguments: samples)
    func theStringShortcutsAgreeWithTheGeneralVersions(_ text: String) {
        #expect(TextCollapsing.collapse(text) == TextCollapsing.collapse(text[...]))
        #expect(TextCollapsing.isBlank(text) == TextCollapsing.isBlank(text[...]))
    }

    @Test func collapsingCollapsesAndTrims() {
        #expect(TextCollapsing.collapse("  a \u{A0}\t b  ") == "a b")
        #expect(TextCollapsing.collapse("a b") == "a b")
        #expect(TextCollapsing.isBlank(" \u{A0}\u{3000}\n"))
        #expect(!TextCollapsing.isBlank(" \u{A0}x"))
    }
}
