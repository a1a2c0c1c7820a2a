@testable import CatalogKit
import Testing

struct TextCleanerTests {
    /// The byte test must see a line feed, a control character or a non-ASCII byte at every offset of a word, and
    /// let the white space that collapsing handles (tab, carriage return, vertical tab) pass.
    @Test(arguments: ["\n", "é", "\u{A0}", "\u{2019}", "\u{7F}", "\r", "\u{0}", "\u{0B}", "\u{09}"])
    func theByteTestAgreesWithAByteByByteOneAtEveryOffset(_ special: String) {
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 31] {
            for offset in 0...length {
                let text = String(repeating: "a", count: offset) + special + String(repeating: "b", count: length - offset)
                let expected = !text.utf8.contains { $0 == 0x0A || $0 >= 0x7F || $0 < 0x09 }
                #expect(TextCleaner.isPlainASCIIWithoutLineFeed(text) == expected, "\(offset) of \(length)")
            }
        }
        #expect(TextCleaner.isPlainASCIIWithoutLineFeed(""))
    }

    @Test func cleaningFoldsQuotesDropsInvisiblesAndKeepsParagraphs() {
        #expect(TextCleaner.clean("  Intro \u{2018}to\u{2019}  \u{201C}CS\u{201D}\u{AD} \n\n\n second\u{200B} line \n third ") == "Intro 'to' \"CS\"\n\nsecond line\nthird")
        #expect(TextCleaner.clean("plain   ascii  text ") == "plain ascii text")
        #expect(TextCleaner.cleanLine("one\ntwo\n\nthree") == "one two three")
    }

    /// Issue 38: no space before `.,;:!?)]` or after `([`, where pages put a link and the mark after it on lines of
    /// their own; a full stop that starts a word keeps its space.
    @Test(arguments: [("ENGL 1302 .", "ENGL 1302."), ("ACCT 3366 , or ACCT 3367 ; and", "ACCT 3366, or ACCT 3367; and"),
                      ("( 3-0 )", "(3-0)"), ("see [ MATH 1314 ] : now ! Why ?", "see [MATH 1314]: now! Why?"),
                      ("CIVE 4369 ,and", "CIVE 4369,and"), ("ASP .NET and .5 credits", "ASP .NET and .5 credits"),
                      ("end .) more", "end.) more"), ("a\u{A0}.\u{A0}b", "a. b"), ("plain text.", "plain text.")])
    func spaceAroundPunctuationGoes(_ text: String, _ expected: String) {
        #expect(TextCleaner.cleanLine(text) == expected)
        #expect(TextCleaner.clean(text) == expected)
        #expect(TextCleaner.cleanLine(expected) == expected)
        #expect(TextCleaner.clean("First \(text)\n\nSecond ( one ) .") == "First \(expected)\n\nSecond (one).")
    }

    /// Issue 31: control and bidirectional formatting characters reach no output; white space stays white space.
    @Test func controlAndBidirectionalCharactersAreRemoved() {
        #expect(TextCleaner.cleanLine("Evil\u{202E}gnp.exe\u{202C} course") == "Evilgnp.exe course")
        #expect(TextCleaner.cleanLine("Bell\u{07}\u{7F} and\u{1B}[31m red\u{9B}") == "Bell and[31m red")
        #expect(TextCleaner.cleanLine("a\u{2066}b\u{2069}\u{200E}c\u{061C}") == "abc")
        #expect(TextCleaner.clean("tab\there\r \nnext\u{85}line") == "tab here\nnext line")
        #expect(TextCleaner.cleanLine("caf\u{E9} \u{4E2D}\u{6587}") == "caf\u{E9} \u{4E2D}\u{6587}")
    }

    /// Every text of a published record is cleaned, labels and contact hours too.
    @Test func aRecordCarriesNoControlCharacters() throws {
        var parsed = ParsedCourse(code: try #require(CourseCode(parsing: "CIS 162")), title: "Intro\u{202E}duction\u{1B}",
                                  sourceURL: "file:///x.html", system: .gvsu)
        parsed.contactHours = "3-0-0\u{07}"
        parsed.fields = [LabelledField(label: "Fee\u{202D}", value: "Y\u{0}es")]
        parsed.notes = ["note\u{2067}"]
        let record = CourseRecord(Normalizer().normalize(parsed))
        let json = String(decoding: JSONFile.encoded(record), as: UTF8.self)
        #expect(record.title == "Introduction" && record.contactHours == "3-0-0" && record.fields == ["Fee": "Yes"])
        #expect(!json.unicodeScalars.contains { TextCleaner.isDropped($0) }, "\(json)")
    }
}
