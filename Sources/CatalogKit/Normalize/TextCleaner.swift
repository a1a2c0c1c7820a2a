import SafeLibXML

/// Cleans catalog prose for publishing and comparison: what differs only in invisible or typographic
/// characters must compare equal, or every run would report changes that are not there.
public enum TextCleaner {
    /// Drops soft hyphens, zero-width, control and bidirectional formatting characters (a title's U+202E would turn
    /// the text after it around in every feed and page), makes quotes and primes ASCII, collapses spaces but not breaks,
    /// and takes the space out before closing and after opening punctuation (`tightened`).
    public static func clean(_ text: String) -> String {
        // Most text has nothing to remove or replace and no breaks: collapsing is all it needs. Printable ASCII
        // and spaces without a line feed is such text, seen from its bytes.
        if isPlainASCIIWithoutLineFeed(text) { return tightened(TextCollapsing.collapse(text)) }
        if !text.unicodeScalars.contains(where: { $0 == "\n" || isDropped($0) || replacement($0) != nil }) {
            return tightened(TextCollapsing.collapse(text))
        }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !isDropped(scalar) {
            scalars.append(replacement(scalar) ?? scalar)
        }
        let paragraphs = String(scalars).components(separatedBy: "\n\n").map { paragraph in
            paragraph.split(separator: "\n", omittingEmptySubsequences: true)
                .map { tightened(TextCollapsing.collapse($0)) }
                .filter { !$0.isEmpty }
                .joined(separator: "\n")
        }
        return paragraphs.filter { !$0.isEmpty }.joined(separator: "\n\n")
    }

    /// Soft hyphen, zero-width space and joiners, word joiner, BOM; controls but the white space ones (tab to
    /// carriage return, NEL); the bidirectional marks, embeddings, overrides and isolates.
    static func isDropped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x08, 0x0E...0x1F, 0x7F...0x84, 0x86...0x9F: true
        case 0x00AD, 0x061C, 0x200B...0x200F, 0x202A...0x202E, 0x2060, 0x2066...0x2069, 0xFEFF: true
        default: false
        }
    }

    static func replacement(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        switch scalar.value {
        case 0x2018, 0x2019, 0x201A, 0x201B, 0x2032: "'"
        case 0x201C, 0x201D, 0x201E, 0x201F, 0x2033: "\""
        default: nil
        }
    }

    /// Whether every byte is printable ASCII or white space other than a line feed.
    static func isPlainASCIIWithoutLineFeed(_ text: String) -> Bool {
        // Over the contiguous bytes: through the UTF-8 view, each byte was an index step of its own.
        var text = text
        return text.withUTF8 { bytes in bytes.allSatisfy { $0 < 0x7F && ($0 >= 0x20 || ($0 >= 0x09 && $0 <= 0x0D && $0 != 0x0A)) } }
    }

    /// One line: every break folded into a space (titles, requisite strings).
    public static func cleanLine(_ text: String) -> String {
        tightened(TextCollapsing.collapse(clean(text)))
    }

    /// A collapsed line without the space before `.,;:!?)]` or after `([`. Pages that put a course link and the
    /// punctuation after it on lines of their own read "ENGL 1302 ." once collapsed, while the edition before read
    /// "ENGL 1302.": the same text to a reader, and no change. A full stop followed by a letter or digit starts a
    /// word (".NET", ".5 credits") and keeps its space.
    public static func tightened(_ line: String) -> String {
        var line = line
        return line.withUTF8 { bytes -> String? in
            func closes(_ byte: UInt8) -> Bool {
                switch byte {
                case UInt8(ascii: ")"), UInt8(ascii: "]"): true
                case UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "!"), UInt8(ascii: "?"): true
                default: false
                }
            }
            func opens(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "(") || byte == UInt8(ascii: "[") }
            /// Whether the space at `index` goes: an opener before it, or a closing mark after it.
            func loose(_ index: Int) -> Bool {
                if index > 0, opens(bytes[index - 1]) { return true }
                guard index + 1 < bytes.count, closes(bytes[index + 1]) else { return false }
                guard bytes[index + 1] == UInt8(ascii: "."), index + 2 < bytes.count else { return true }
                // After the full stop: a space or more punctuation ("ENGL 1302 .)"), not a word's letters.
                let next = bytes[index + 2]
                return !(next >= 0x80 || (next >= UInt8(ascii: "0") && next <= UInt8(ascii: "9"))
                    || (next | 0x20 >= UInt8(ascii: "a") && next | 0x20 <= UInt8(ascii: "z")))
            }
            guard bytes.indices.contains(where: { bytes[$0] == 0x20 && loose($0) }) else { return nil }
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count)
            for index in bytes.indices where !(bytes[index] == 0x20 && loose(index)) { output.append(bytes[index]) }
            return String(decoding: output, as: UTF8.self)
        } ?? line
    }
}
