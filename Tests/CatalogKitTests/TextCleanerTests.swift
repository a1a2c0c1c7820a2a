@testable import CatalogKit
import Testing

struct TextCleanerTests {
    /// The eight-bytes-at-a-time test must see a line feed or a non-ASCII byte at every offset of a word, and
    /// nothing else (a NUL, DEL, a carriage return) may count as one.
    @Test(arguments: ["\n", "é", "\u{A0}", "\u{2019}", "\u{7F}", "\r", "\u{0}", "\u{0B}", "\u{09}"])
    func theByteTestAgreesWithAByteByByteOneAtEveryOffset(_ special: String) {
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 31] {
            for offset in 0...length {
                let text = String(repeating: "a", count: offset) + special + String(repeating: "b", count: length - offset)
                let expected = !text.utf8.contains { $0 == 0x0A || $0 >= 0x80 }
                #expect(TextCleaner.isASCIIWithoutLineFeed(text) == expected, "\(offset) of \(length)")
            }
        }
        #expect(TextCleaner.isASCIIWithoutLineFeed(""))
    }

    @Test func cleaningFoldsQuotesDropsInvisiblesAndKeepsParagraphs() {
        #expect(TextCleaner.clean("  Intro \u{2018}to\u{2019}  \u{201C}CS\u{201D}\u{AD} \n\n\n second\u{200B} line \n third ") == "Intro 'to' \"CS\"\n\nsecond line\nthird")
        #expect(TextCleaner.clean("plain   ascii  text ") == "plain ascii text")
        #expect(TextCleaner.cleanLine("one\ntwo\n\nthree") == "one two three")
    }
}

struct ByteLanesTests {
    /// Every byte value in every lane, over a background of other bytes: the word-at-once answers must be the
    /// byte-by-byte ones.
    @Test(arguments: [UInt8(0x41), 0x00, 0xFF, 0x80, 0x20])
    func eachQuestionAgreesWithAskingByteByByte(_ background: UInt8) {
        for lane in 0..<8 {
            for value in 0...255 {
                var bytes = [UInt8](repeating: background, count: 8)
                bytes[lane] = UInt8(value)
                let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                for wanted: UInt8 in [0x0A, 0x22, 0x5C, 0x00, 0xFF] {
                    #expect(ByteLanes.contains(wanted, in: word) == bytes.contains(wanted))
                }
                for limit: UInt8 in [0x20, 0x01, 0x80] {
                    #expect(ByteLanes.containsByte(below: limit, in: word) == bytes.contains { $0 < limit })
                }
                #expect(ByteLanes.containsNonASCII(word) == bytes.contains { $0 >= 0x80 })
            }
        }
    }
}

struct ByteSearchTests {
    @Test func findsAPartWhereverItStandsAndOnlyWhereItStands() {
        let url = "http://publications.uh.edu/preview_course_nopop.php?catoid=44&coid=210894"
        #expect(url.containsBytes("preview_course_nopop.php"))
        #expect(url.containsBytes("http"))
        #expect(url.containsBytes("210894"))
        #expect(url.containsBytes(url))
        #expect(url.containsBytes(""))
        #expect(!url.containsBytes("content.php?catoid="))
        #expect(!url.containsBytes(url + "x"))
        #expect(!"".containsBytes("a"))
        // Case matters, as in a URL's path; non-ASCII text is searched by its UTF-8 bytes.
        #expect(!url.containsBytes("PREVIEW_course_nopop.php"))
        #expect("Café Société".containsBytes("é Soc"))
        #expect(!"Café".containsBytes("e"))
    }
}
