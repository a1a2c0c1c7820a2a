import SafeLibXML

/// Cleans catalog prose for publishing and comparison: what differs only in invisible or typographic
/// characters must compare equal, or every run would report changes that are not there.
public enum TextCleaner {
    /// Drops soft hyphens and zero-width characters, makes quotes and primes ASCII, collapses spaces but not breaks.
    public static func clean(_ text: String) -> String {
        // Most text has nothing to remove or replace and no breaks: collapsing is all it needs. ASCII text
        // without a line feed is such text (what is removed or replaced is not ASCII), seen from its bytes.
        if isASCIIWithoutLineFeed(text) { return TextCollapsing.collapse(text) }
        if !text.unicodeScalars.contains(where: { $0 == "\n" || $0.value == 0x00AD || (0x2018...0x2060).contains($0.value) || $0.value == 0xFEFF }) {
            return TextCollapsing.collapse(text)
        }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x00AD, 0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF:
                continue // soft hyphen, zero-width space/joiners, word joiner, BOM
            case 0x2018, 0x2019, 0x201A, 0x201B, 0x2032:
                scalars.append("'")
            case 0x201C, 0x201D, 0x201E, 0x201F, 0x2033:
                scalars.append("\"")
            default:
                scalars.append(scalar)
            }
        }
        let paragraphs = String(scalars).components(separatedBy: "\n\n").map { paragraph in
            paragraph.split(separator: "\n", omittingEmptySubsequences: true)
                .map { TextCollapsing.collapse($0) }
                .filter { !$0.isEmpty }
                .joined(separator: "\n")
        }
        return paragraphs.filter { !$0.isEmpty }.joined(separator: "\n\n")
    }

    /// Whether every byte is ASCII and none a line feed.
    static func isASCIIWithoutLineFeed(_ text: String) -> Bool {
        // Over the contiguous bytes: through the UTF-8 view, each byte was an index step of its own.
        var text = text
        return text.withUTF8 { bytes in bytes.allSatisfy { $0 < 0x80 && $0 != 0x0A } }
    }

    /// One line: every break folded into a space (titles, requisite strings).
    public static func cleanLine(_ text: String) -> String {
        TextCollapsing.collapse(clean(text))
    }
}
