@testable import SafeLibXML
import Testing

/// The String overloads take shortcuts (text already collapsed comes back uncopied; ASCII answers `isBlank` from
/// the bytes); they must give what the general versions give.
struct TextCollapsingTests {
    static let samples = [
        "", " ", "  ", "a", "a b", "a  b", " a", "a ", "a\tb", "a\nb", "a\r\nb", "a\u{A0}b", "\u{A0}", "é", "café au lait",
        "a\u{2003}b", "a\u{3000}b", "\u{1680}", "a\u{2028}b", "a\u{85}b", "© 2024 Catalog", "“quoted” – dash", "x\u{200B}y",
        "CIS 162 - Computer Science I", "Prerequisite:  CIS 162\u{A0}and MTH 122.",
        "a\u{7F}b", "a\u{1}b \u{1F}", "longer visible runs then  two spaces", " é\u{A0}é ", "x\u{2009}\u{2009}y",
    ]

    /// Collapsing as its contract says, scalar by scalar: runs of `isCollapsibleSpace` become one space, none at
    /// either end. The byte-level version (runs of visible ASCII copied whole) must agree, and so must `isCollapsed`.
    @Test(arguments: samples)
    func collapsingAgreesWithTheScalarByScalarReading(_ text: String) {
        let reference = text.unicodeScalars.split(whereSeparator: TextCollapsing.isCollapsibleSpace)
            .map { String(String.UnicodeScalarView($0)) }.joined(separator: " ")
        #expect(TextCollapsing.collapse(text) == reference)
        var copy = text
        #expect(copy.withUTF8 { TextCollapsing.isCollapsed($0) } == (reference == text))
    }

    @Test(arguments: samples)
    func theStringShortcutsAgreeWithTheGeneralVersions(_ text: String) {
        #expect(TextCollapsing.collapse(text) == TextCollapsing.collapse(text[...]))
        #expect(TextCollapsing.isBlank(text) == text.unicodeScalars.allSatisfy(TextCollapsing.isCollapsibleSpace))
    }

    @Test func collapsingCollapsesAndTrims() {
        #expect(TextCollapsing.collapse("  a \u{A0}\t b  ") == "a b")
        #expect(TextCollapsing.collapse("a b") == "a b")
        #expect(TextCollapsing.isBlank(" \u{A0}\u{3000}\n"))
        #expect(!TextCollapsing.isBlank(" \u{A0}x"))
    }
}
