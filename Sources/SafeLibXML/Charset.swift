import Foundation

/// Which character encoding a page is decoded with, and what decided it. Chosen here, not by libxml2, whose guess
/// treats an undeclared page as ISO-8859-1 and garbles UTF-8.
public struct CharsetChoice: Sendable, Equatable {
    /// What decided the charset, in the order it is consulted.
    public enum Source: String, Sendable, Equatable {
        case httpHeader = "HTTP Content-Type header"
        case byteOrderMark = "byte order mark"
        case metaTag = "<meta> declaration"
        case defaultUTF8 = "default (UTF-8)"
    }

    /// Canonical lower-case name: `utf-8`, `windows-1252`, `utf-16le`, `utf-16be`, or another label as declared.
    public var name: String
    public var source: Source
}

/// Chooses a page's charset: HTTP header when known, then byte order mark, then a `<meta>` prescan, then UTF-8.
public enum CharsetDetector {
    /// How many leading bytes the `<meta>` prescan reads: HTML asks for 1024, but saved pages' heads run longer.
    static let prescanLimit = 4096

    public static func choose(bytes: [UInt8], contentType: String?) -> CharsetChoice {
        if let header = contentType, let label = charsetParameter(in: header), let name = canonicalName(label) {
            return CharsetChoice(name: name, source: .httpHeader)
        }
        if let bom = byteOrderMark(bytes) { return CharsetChoice(name: bom.name, source: .byteOrderMark) }
        if let label = prescanMeta(bytes), let name = canonicalName(label) {
            // A page cannot be UTF-16 if its <meta> was readable as ASCII (HTML's rule).
            let effective = name.hasPrefix("utf-16") ? "utf-8" : name
            return CharsetChoice(name: effective, source: .metaTag)
        }
        return CharsetChoice(name: "utf-8", source: .defaultUTF8)
    }

    /// The `charset` parameter of a Content-Type value (`text/html; charset="Windows-1252"`).
    static func charsetParameter(in contentType: String) -> String? {
        for part in contentType.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2,
                  trim(pair[0], extra: []).lowercased() == "charset" else { continue }
            let value = trim(pair[1], extra: ["\"", "'"])
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// A charset label's name here, by the WHATWG rules where they matter (`latin1`, `us-ascii`: windows-1252).
    static func canonicalName(_ label: String) -> String? {
        let key = trim(Substring(label), extra: []).lowercased()
        guard !key.isEmpty, key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.:".contains($0)) }) else {
            return nil
        }
        // A label not in the table is handed to libxml2 (iconv) by name.
        return names[key] ?? key
    }

    private static let names: [String: String] = [
        ("utf-8", ["utf-8", "utf8", "unicode-1-1-utf-8", "x-unicode20utf8"]),
        ("windows-1252", ["windows-1252", "cp1252", "x-cp1252", "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "l1",
                          "us-ascii", "ascii", "ansi_x3.4-1968", "cp819", "ibm819", "iso-ir-100"]),
        ("utf-16le", ["utf-16le", "utf-16", "unicode", "ucs-2"]),
        ("utf-16be", ["utf-16be", "unicodefffe"]),
    ].reduce(into: [:]) { names, entry in for label in entry.1 { names[label] = entry.0 } }

    static func byteOrderMark(_ bytes: [UInt8]) -> (name: String, length: Int)? {
        let marks: [(name: String, bytes: [UInt8])] = [
            ("utf-8", [0xEF, 0xBB, 0xBF]), ("utf-16le", [0xFF, 0xFE]), ("utf-16be", [0xFE, 0xFF]),
        ]
        return marks.first { bytes.starts(with: $0.bytes) }.map { ($0.name, $0.bytes.count) }
    }

    /// HTML's prescan, simplified: `<meta charset>` or `<meta http-equiv=content-type content="…; charset=…">`.
    static func prescanMeta(_ bytes: [UInt8]) -> String? {
        let end = min(bytes.count, prescanLimit)
        var index = 0
        while index < end {
            guard let tag = bytes[index..<end].firstIndex(of: UInt8(ascii: "<")) else { return nil }
            index = tag
            if matches(bytes, at: index, "<!--") {
                index = bytes[min(index + 4, end)..<end].firstRange(of: Array("-->".utf8))?.upperBound ?? end
                continue
            }
            if matches(bytes, at: index, "<meta"), index + 5 < end, isSpaceOrSlash(bytes[index + 5]) {
                let (attributes, next) = readAttributes(bytes, from: index + 5, end: end)
                index = next
                if let charset = attributes["charset"], !charset.isEmpty { return charset }
                // The content's parameters are what follows its first semicolon, or the whole of it without one.
                if attributes["http-equiv"]?.lowercased() == "content-type", let content = attributes["content"],
                   let parameters = content.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).last,
                   let charset = charsetParameter(in: "x;" + parameters) {
                    return charset
                }
                continue
            }
            index += 1
        }
        return nil
    }

    private static let asciiSpace: Set<Character> = [" ", "\t", "\n", "\r", "\u{0C}"]

    private static func trim(_ text: Substring, extra: Set<Character>) -> String {
        let drop: (Character) -> Bool = { asciiSpace.contains($0) || extra.contains($0) }
        guard let first = text.firstIndex(where: { !drop($0) }),
              let last = text.lastIndex(where: { !drop($0) }) else { return "" }
        return String(text[first...last])
    }

    private static func matches(_ bytes: [UInt8], at index: Int, _ literal: String) -> Bool {
        bytes[index...].prefix(literal.utf8.count).lazy.map(lowercase).elementsEqual(literal.utf8)
    }

    private static func lowercase(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }

    private static func isSpace(_ byte: UInt8) -> Bool { " \t\n\r\u{0C}".utf8.contains(byte) }

    private static func isSpaceOrSlash(_ byte: UInt8) -> Bool { isSpace(byte) || byte == UInt8(ascii: "/") }

    /// Reads attributes up to the closing `>`; returns them lower-cased by name and the index after the tag.
    private static func readAttributes(_ bytes: [UInt8], from start: Int, end: Int) -> ([String: String], Int) {
        var attributes: [String: String] = [:]
        var index = start
        // The bytes from `index` on for which `test` holds, with `index` moved past them.
        func take(while test: (UInt8) -> Bool) -> ArraySlice<UInt8> {
            let from = index
            while index < end, test(bytes[index]) { index += 1 }
            return bytes[from..<index]
        }
        while index < end {
            _ = take(while: isSpaceOrSlash)
            guard index < end, bytes[index] != UInt8(ascii: ">") else { return (attributes, index + 1) }
            let name = take { !isSpace($0) && !"=>/".utf8.contains($0) }.map(lowercase)
            _ = take(while: isSpace)
            var value: ArraySlice<UInt8> = []
            if index < end, bytes[index] == UInt8(ascii: "=") {
                index += 1
                _ = take(while: isSpace)
                if index < end, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                    let quote = bytes[index]
                    index += 1
                    value = take { $0 != quote }
                    index += 1
                } else {
                    value = take { !isSpace($0) && $0 != UInt8(ascii: ">") }
                }
            }
            let key = String(decoding: name, as: UTF8.self)
            if !key.isEmpty, attributes[key] == nil { attributes[key] = String(decoding: value, as: UTF8.self) }
        }
        return (attributes, end)
    }
}

/// Turns page bytes into UTF-8 for libxml2, so its encoding guesswork never runs.
enum Transcoder {
    enum Output {
        /// The bytes are valid UTF-8 already (after `offset`, which skips a BOM).
        case utf8(offset: Int)
        case converted([UInt8], replaced: Int)
        /// A charset Swift does not decode here; libxml2 decodes it through iconv.
        case passThrough(encoding: String)
    }

    static func toUTF8(_ bytes: [UInt8], charset: String) -> Output {
        let start = CharsetDetector.byteOrderMark(bytes).flatMap { $0.name == charset ? $0.length : nil } ?? 0
        switch charset {
        case "utf-8":
            let (repaired, replaced) = bytes.withUnsafeBufferPointer { buffer in
                repairUTF8(UnsafeBufferPointer(rebasing: buffer[start...]))
            }
            guard let repaired else { return .utf8(offset: start) }
            return .converted(repaired, replaced: replaced)
        case "windows-1252":
            return .converted(windows1252ToUTF8(bytes), replaced: 0)
        case "utf-16le", "utf-16be":
            let bigEndian = charset == "utf-16be"
            let units = stride(from: start, to: bytes.count - 1, by: 2).map { index in
                let first = UInt16(bytes[index]), second = UInt16(bytes[index + 1])
                return bigEndian ? (first << 8 | second) : (second << 8 | first)
            }
            return .converted(Array(String(decoding: units, as: UTF16.self).utf8), replaced: 0)
        default:
            return .passThrough(encoding: charset)
        }
    }

    /// Broken UTF-8 copied with each maximal invalid subpart replaced by U+FFFD (nil when valid), and how many were.
    static func repairUTF8(_ input: UnsafeBufferPointer<UInt8>) -> (bytes: [UInt8]?, replaced: Int) {
        guard String(validating: input, as: UTF8.self) == nil else { return (nil, 0) }
        let repaired = Array(String(decoding: input, as: UTF8.self).utf8)
        // A U+FFFD (EF BF BD) the page itself holds is not a replacement: count the ones decoding added.
        return (repaired, repaired.ranges(of: [0xEF, 0xBF, 0xBD]).count - input.ranges(of: [0xEF, 0xBF, 0xBD]).count)
    }

    /// Windows-1252's 0x80–0x9F block; every other byte is the Latin-1 code point of the same value.
    private static let high: [Unicode.Scalar] = ([
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ] as [UInt32]).compactMap(Unicode.Scalar.init)

    static func windows1252ToUTF8(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 8)
        for byte in bytes {
            if byte < 0x80 { output.append(byte); continue }
            UTF8.encode(byte < 0xA0 ? high[Int(byte - 0x80)] : Unicode.Scalar(byte)) { output.append($0) }
        }
        return output
    }
}
