import Testing
import SafeLibXML

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
