import Testing
import SafeLibXML

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
