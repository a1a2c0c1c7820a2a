import Testing
@testable import SafeLibXML

@Suite struct CharsetTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func theHTTPHeaderWinsOverEverythingElse() {
        let page = [0xEF, 0xBB, 0xBF] + Self.bytes("<meta charset=utf-8>")
        let choice = CharsetDetector.choose(bytes: page, contentType: "text/html; charset=\"Windows-1252\"")
        #expect(choice == CharsetChoice(name: "windows-1252", source: .httpHeader))
    }

    @Test func aByteOrderMarkComesBeforeTheMetaPrescan() {
        let page = [0xEF, 0xBB, 0xBF] + Self.bytes("<meta charset=windows-1252>")
        #expect(CharsetDetector.choose(bytes: page, contentType: "text/html") == CharsetChoice(name: "utf-8", source: .byteOrderMark))
        #expect(CharsetDetector.choose(bytes: [0xFF, 0xFE, 0x3C, 0x00], contentType: nil).name == "utf-16le")
    }

    @Test(arguments: [
        ("<html><head><meta charset=\"ISO-8859-1\"></head>", "windows-1252"),
        ("<META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=windows-1252\">", "windows-1252"),
        ("<meta content='text/html; charset=utf-8' http-equiv='content-type'>", "utf-8"),
        ("<meta charset=utf-16>", "utf-8"),
        ("<!-- <meta charset=windows-1252> --><meta charset=utf-8>", "utf-8"),
    ])
    func theMetaPrescanReadsTheDeclaration(_ html: String, _ expected: String) {
        let choice = CharsetDetector.choose(bytes: Self.bytes(html), contentType: nil)
        #expect(choice.name == expected)
        #expect(choice.source == .metaTag)
    }

    @Test func anUndeclaredPageIsUTF8() {
        let choice = CharsetDetector.choose(bytes: Self.bytes("<p>Master’s Thesis</p>"), contentType: "text/html")
        #expect(choice == CharsetChoice(name: "utf-8", source: .defaultUTF8))
    }

    @Test func latin1AndASCIILabelsMeanWindows1252() {
        #expect(CharsetDetector.canonicalName("ISO-8859-1") == "windows-1252")
        #expect(CharsetDetector.canonicalName("us-ascii") == "windows-1252")
        #expect(CharsetDetector.canonicalName("UTF8") == "utf-8")
        #expect(CharsetDetector.canonicalName("bogus label with spaces") == nil)
    }

    @Test func windows1252BytesBecomeTheRightCharacters() {
        // 0x93/0x94 are curly double quotes, 0x92 an apostrophe, 0xE9 é, 0x80 the euro sign.
        let utf8 = Transcoder.windows1252ToUTF8([0x93, 0x41, 0x94, 0x92, 0xE9, 0x80])
        #expect(String(decoding: utf8, as: UTF8.self) == "“A”’é€")
    }
}

@Suite struct UTF8RepairTests {
    static func repair(_ bytes: [UInt8]) -> (String, Int) {
        let (repaired, count) = bytes.withUnsafeBufferPointer { Transcoder.repairUTF8($0) }
        return (String(decoding: repaired ?? bytes, as: UTF8.self), count)
    }

    @Test func validTextIsLeftAlone() {
        let bytes = Array("Master’s — é 😀 plain".utf8)
        let (repaired, count) = bytes.withUnsafeBufferPointer { Transcoder.repairUTF8($0) }
        #expect(repaired == nil)
        #expect(count == 0)
    }

    @Test(arguments: [
        ([0x61, 0xFF, 0x62], "a\u{FFFD}b", 1),
        ([0xC3, 0x28], "\u{FFFD}(", 1),
        ([0xE2, 0x82], "\u{FFFD}", 1),                     // truncated three-byte sequence: one maximal subpart
        ([0xED, 0xA0, 0x80], "\u{FFFD}\u{FFFD}\u{FFFD}", 3), // an encoded surrogate is three bad bytes
        ([0xF0, 0x9F, 0x98], "\u{FFFD}", 1),
        ([0xC0, 0xAF], "\u{FFFD}\u{FFFD}", 2),             // overlong
        ([0x41, 0xF4, 0x90, 0x80, 0x80], "A\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}", 4),
    ] as [([UInt8], String, Int)])
    func invalidSequencesBecomeReplacementCharacters(_ bytes: [UInt8], _ expected: String, _ count: Int) {
        let (text, replaced) = Self.repair(bytes)
        #expect(text == expected)
        #expect(replaced == count)
        // The standard library's repair agrees.
        #expect(text == String(decoding: bytes, as: UTF8.self))
        // The bad bytes are caught wherever they fall, after any run of ASCII.
        for lead in 0..<17 {
            let padded = Array(repeating: UInt8(ascii: "x"), count: lead) + bytes + Array("é tail..".utf8)
            let (paddedText, paddedCount) = Self.repair(padded)
            #expect(paddedText == String(decoding: padded, as: UTF8.self))
            #expect(paddedCount == count)
        }
    }
}
