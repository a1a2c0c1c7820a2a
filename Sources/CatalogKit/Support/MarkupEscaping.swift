/// Escaping for the text written into Markdown and XML: course text comes from web pages and may hold anything.
public enum MarkupEscaping {
    /// Text for Markdown that renders as itself: markup characters backslash-escaped, and those that would start a
    /// heading, list or quote at a line's start (`inline`: the text continues a line, so its start is none).
    public static func markdown(_ text: String, inline: Bool = true) -> String {
        // Most catalog text needs no escape at all; checking the bytes first spares building a copy.
        if inline, !text.utf8.contains(where: { $0 == 0x0A || isMarkdownSpecial($0) }) { return text }
        var output = String.UnicodeScalarView()
        var atLineStart = !inline
        var lineDigits = 0
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                output.append(scalar)
                atLineStart = true
                lineDigits = 0
                continue
            }
            let ascii = scalar.isASCII ? UInt8(scalar.value) : 0
            if isMarkdownSpecial(ascii) || (atLineStart && (ascii == UInt8(ascii: "-") || ascii == UInt8(ascii: "+") || ascii == UInt8(ascii: "=")))
                || (lineDigits > 0 && (ascii == UInt8(ascii: ".") || ascii == UInt8(ascii: ")"))) {
                output.append("\\")
            }
            // "1. " at a line's start is a list item; count the leading digits to catch it.
            let isDigit = ascii >= UInt8(ascii: "0") && ascii <= UInt8(ascii: "9")
            lineDigits = (atLineStart || lineDigits > 0) && isDigit ? lineDigits + 1 : 0
            if !(atLineStart && scalar == " ") { atLineStart = false }
            output.append(scalar)
        }
        return String(output)
    }

    /// The characters Markdown reads as markup anywhere in a line: \ ` * _ [ ] < > & | ~ #
    private static func isMarkdownSpecial(_ byte: UInt8) -> Bool { "\\`*_[]<>&|~#".utf8.contains(byte) }

    /// A URL as a Markdown link target: the characters that would end or break it percent-encoded.
    public static func markdownLinkTarget(_ url: String) -> String {
        // Compared byte by byte: every link of every requisite comes through here, and most need nothing.
        guard url.utf8.contains(where: { $0 == UInt8(ascii: "(") || $0 == UInt8(ascii: ")") || $0 == UInt8(ascii: " ")
            || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }) else { return url }
        let encoded: [Character: String] = ["(": "%28", ")": "%29", " ": "%20", "<": "%3C", ">": "%3E"]
        return url.reduce(into: "") { output, character in output += encoded[character] ?? String(character) }
    }

    /// Text for XML: the five special characters as entities, characters XML 1.0 does not allow as U+FFFD.
    public static func xml(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&apos;"
            case "\t", "\n", "\r": output.unicodeScalars.append(scalar)
            default:
                let value = scalar.value
                if value < 0x20 || value == 0xFFFE || value == 0xFFFF {
                    output += "\u{FFFD}"
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output
    }
}
