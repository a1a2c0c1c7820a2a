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
