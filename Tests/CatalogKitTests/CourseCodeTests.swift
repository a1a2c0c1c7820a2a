import Testing
@testable import CatalogKit

@Suite struct CourseCodeTests {
    @Test(arguments: [
        ("cis162", "CIS 162"), ("CIS-162", "CIS 162"), ("C S 235", "CS 235"), ("CIS 162L", "CIS 162L"),
        ("MATH 006A", "MATH 006A"), ("  cis 162 ", "CIS 162"), ("BUSI B011", "BUSI B011"), ("A&S 101", "A&S 101"),
    ])
    func writtenFormsMapToOneCanonicalForm(_ written: String, _ canonical: String) throws {
        let code = try #require(CourseCode(parsing: written))
        #expect(code.description == canonical)
    }

    @Test(arguments: ["3000-4000", "CIS", "162", "CIS 1", "CIS 123456", "CISCOSC 101", "junior standing", "CIS 162 and"])
    func nonCodesAreRejected(_ text: String) {
        #expect(CourseCode(parsing: text) == nil)
    }

    @Test func idNumberAndSuffixForTheApp() throws {
        let lab = try #require(CourseCode(parsing: "bio 120l"))
        #expect(lab.id == "bio-120l")
        #expect(lab.numericValue == 120)
        #expect(lab.suffix == "L")
        #expect(try #require(CourseCode(parsing: "WRT 098")).numericValue == 98)
        #expect(try #require(CourseCode(parsing: "WRT 098")).number == "098")
        #expect(CourseCode(subject: "BUSI", number: "B011").numericValue == 11)
        // No digits, or more than an Int holds: 0, as the app's `number` had it before.
        #expect(CourseCode(subject: "X", number: "").numericValue == 0)
        #expect(CourseCode(subject: "X", number: String(repeating: "9", count: 30)).numericValue == 0)
        #expect(CourseCode(subject: "X", number: String(Int.max)).numericValue == Int.max)
        // A digit carrying a combining mark is no digit (a character, not a byte, is tested).
        #expect(CourseCode(subject: "X", number: "1\u{301}2").numericValue == 2)
    }

    @Test(arguments: [
        ("ACCT 4A05", "ACCT 4A05", "acct-4a05", 4005), ("PHOP 6X57", "PHOP 6X57", "phop-6x57", 6057),
        ("BUSI B011", "BUSI B011", "busi-b011", 11), ("HON 101H", "HON 101H", "hon-101h", 101),
        ("BIOL 1301L", "BIOL 1301L", "biol-1301l", 1301), ("MUS 299A", "MUS 299A", "mus-299a", 299),
        ("ENG 460D1", "ENG 460D1", "eng-460d1", 460), ("ENG 460D2", "ENG 460D2", "eng-460d2", 460),
        ("CS 163", "CS 163", "cs-163", 163), ("MT 126", "MT 126", "mt-126", 126), ("fina 7a20", "FINA 7A20", "fina-7a20", 7020),
    ] as [(String, String, String, Int)])
    func numbersAsCatalogsWriteThem(_ written: String, _ canonical: String, _ id: String, _ appNumber: Int) throws {
        let code = try #require(CourseCode(parsing: written))
        #expect(code.description == canonical)
        #expect(code.id == id)
        #expect(code.numericValue == appNumber)
        let heading = try #require(CourseHeading.parse("\(canonical) - Professional Program in Accountancy Colloquium 1"))
        #expect(heading.code == code)
        #expect(heading.title == "Professional Program in Accountancy Colloquium 1")
    }

    @Test(arguments: ["ACCT 4A", "ACCT 4AB05", "ACCT 4A05B7C8", "MATH 1A", "ACCT 4A05xyz"])
    func lettersInsideANumberNeedDigitsAround(_ text: String) {
        #expect(CourseCode(parsing: text) == nil)
    }

    @Test func widthsShowTheNumberingScheme() throws {
        #expect(try #require(CourseCode(parsing: "MATH 0300")).numberWidth == 4)
        #expect(try #require(CourseCode(parsing: "FINA 7A20")).numberWidth == 4)
        #expect(try #require(CourseCode(parsing: "WRT 098")).numberWidth == 3)
        #expect(try #require(CourseCode(parsing: "ENG 460D1")).numberWidth == 3)
    }

    @Test func codesSortBySubjectThenNumber() throws {
        let codes = try ["CIS 500", "CIS 162L", "BIO 120", "CIS 162", "CIS 99"].map { try #require(CourseCode(parsing: $0)) }
        #expect(codes.sorted().map(\.description) == ["BIO 120", "CIS 99", "CIS 162", "CIS 162L", "CIS 500"])
        // Equal as numbers, then as written: "098" before "98".
        let padded = [CourseCode(subject: "WRT", number: "98"), CourseCode(subject: "WRT", number: "098")]
        #expect(padded.sorted().map(\.number) == ["098", "98"])
        #expect(!(padded[0] < padded[0]))
    }

    @Test func aLeadingCodeNeedsUpperCaseAndAWordBoundary() {
        #expect(CourseCode.leading(in: "CIS 452 - Operating Systems")?.code.description == "CIS 452")
        #expect(CourseCode.leading(in: "cis 452 - x") == nil)
        #expect(CourseCode.leading(in: "CIS 162Lab")?.code.description == "CIS 162")
    }
}

@Suite struct CourseHeadingTests {
    @Test(arguments: [
        ("CIS 452 - Operating Systems Concepts", "CIS 452", "Operating Systems Concepts", nil),
        ("ACCT 2301 -  Principles of Financial Accounting", "ACCT 2301", "Principles of Financial Accounting", nil),
        ("CIS 499: Independent Study", "CIS 499", "Independent Study", nil),
        ("WRT 380 Special Topics", "WRT 380", "Special Topics", nil),
        ("CHEM 1101 Principles of Chemistry I ", "CHEM 1101", "Principles of Chemistry I", nil),
        ("THTR 7900 Research and Writing for Theatre Studies (3)", "THTR 7900", "Research and Writing for Theatre Studies", "3"),
        ("EE 8000 Thesis Research (1-12 per sem.)", "EE 8000", "Thesis Research", "1-12 per sem."),
        ("MUSI 4361 - Music of the Romantic Period I (1800 - 1848)", "MUSI 4361", "Music of the Romantic Period I (1800 - 1848)", nil),
        ("MTH 225 - Discrete Structures: Computer Science 1", "MTH 225", "Discrete Structures: Computer Science 1", nil),
        ("BIO 120L \u{2013} Lab", "BIO 120L", "Lab", nil),
    ] as [(String, String, String, String?)])
    func headingsSplitIntoCodeTitleAndCredits(_ heading: String, _ code: String, _ title: String, _ credits: String?) throws {
        let parsed = try #require(CourseHeading.parse(heading))
        #expect(parsed.code.description == code)
        #expect(parsed.title == title)
        #expect(parsed.credits == credits)
    }

    @Test(arguments: ["Catalog Entries", "Computer Information Systems (CIS)", "2024-2025 Catalog", "Detailed Course Information"])
    func otherHeadingsAreNotCourses(_ heading: String) {
        #expect(CourseHeading.parse(heading) == nil)
    }
}

@Suite struct CreditRangeTests {
    @Test(arguments: [
        ("3", 3.0, 3.0), ("3.0", 3, 3), ("1-3", 1, 3), ("1 to 3", 1, 3), ("3 or 4", 3, 4), ("1-12 per sem.", 1, 12),
        ("(3-0-0)", 3, 3), ("4 Credit Hours", 4, 4), ("1 \u{2013} 4", 1, 4), ("0.5", 0.5, 0.5),
    ] as [(String, Double, Double)])
    func creditTextsBecomeRanges(_ text: String, _ min: Double, _ max: Double) throws {
        let range = try #require(CreditRange(parsing: text))
        #expect(range.min == min)
        #expect(range.max == max)
    }

    @Test(arguments: ["Variable", "TBA", "", "see department", "3 lecture hours and a lab"])
    func otherTextIsNotUnderstood(_ text: String) {
        #expect(CreditRange(parsing: text) == nil)
    }

    @Test func theAppGetsTheMinimum() throws {
        #expect(try #require(CreditRange(parsing: "3 or 4")).appCredits == 3)
        #expect(try #require(CreditRange(parsing: "0.5")).appCredits == 0)
    }
}
