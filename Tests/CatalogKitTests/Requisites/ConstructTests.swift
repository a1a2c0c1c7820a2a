import Foundation
@testable import CatalogKit
import FuzzHarness
import Testing

/// One test per construct of issue #4, each with the exact expected tree.
struct ConstructTests {
    @Test func emptyAndNoneHaveNoTree() {
        #expect(RequisiteParser.parse("") == nil)
        #expect(RequisiteParser.parse("   ") == nil)
        #expect(RequisiteParser.parse("None.") == nil)
        #expect(RequisiteParser.parse("None") == nil)
        #expect(RequisiteParser.parse("none.") == nil)
        #expect(RequisiteParser.parse("None required") != nil)
    }

    @Test func singleCourseInEverySpelling() {
        #expect(parsedStructure("CIS 162") == courseLeaf("CIS 162"))
        #expect(parsedStructure("cis162") == courseLeaf("CIS 162"))
        #expect(parsedStructure("CIS-162") == courseLeaf("CIS 162"))
        #expect(parsedStructure("C S 235") == courseLeaf("CS 235"))
        #expect(parsedStructure("CIS 162L.") == courseLeaf("CIS 162L"))
        #expect(parsedStructure("MATH 006A") == courseLeaf("MATH 006A"))
        #expect(RequisiteParser.parse("cis162") == .course(CourseRequirement(code: CourseCode(subject: "CIS", number: "162"), source: "cis162")))
    }

    @Test func implicitSubject() {
        #expect(parsedStructure("CIS 162 and 163") == allOf(courseLeaf("CIS 162"), courseLeaf("CIS 163")))
        #expect(parsedStructure("MATH 1314, 1324 or 2330") == anyOf(courseLeaf("MATH 1314"), courseLeaf("MATH 1324"), courseLeaf("MATH 2330")))
        #expect(parsedStructure("CIS 220 or 225") == anyOf(courseLeaf("CIS 220"), courseLeaf("CIS 225")))
        // A number of another length, or a quantity, is not a course of that subject.
        #expect(parsedStructure("MATH 1314 and 3 hours of BIOL")?.courses == ["MATH 1314"])
        #expect(parsedStructure("MATH 2415 and 12 hours") == allOf(courseLeaf("MATH 2415"), .text("12 hours")))
    }

    @Test func slashesAreAlternatives() {
        #expect(parsedStructure("STA 215/312") == anyOf(courseLeaf("STA 215"), courseLeaf("STA 312")))
        #expect(parsedStructure("COSC 1336/1136") == anyOf(courseLeaf("COSC 1336"), courseLeaf("COSC 1136")))
        #expect(parsedStructure("CIS 343/CIS 361 and MTH 201") == allOf(anyOf(courseLeaf("CIS 343"), courseLeaf("CIS 361")), courseLeaf("MTH 201")))
    }

    @Test func countedChoices() {
        #expect(parsedStructure("One of CIS 162, CIS 163, or CIS 164.") == .atLeast(1, of: [courseLeaf("CIS 162"), courseLeaf("CIS 163"), courseLeaf("CIS 164")]))
        #expect(parsedStructure("Two of the following: MTH 201, MTH 202, MTH 203.") == .atLeast(2, of: [courseLeaf("MTH 201"), courseLeaf("MTH 202"), courseLeaf("MTH 203")]))
        #expect(parsedStructure("CIS 241 and one of CIS 350 or CIS 351")
                == allOf(courseLeaf("CIS 241"), .atLeast(1, of: [courseLeaf("CIS 350"), courseLeaf("CIS 351")])))
        let tree = RequisiteParser.parse("Two of the following: MTH 201, MTH 202, or MTH 203.")
        #expect(jsonText(tree) == #"{"atLeast":2,"connective":"Two of the following or","of":[{"course":"MTH 201"},{"course":"MTH 202"},{"course":"MTH 203"}]}"#)
    }

    @Test func commaListsTakeTheirLastConnective() {
        #expect(parsedStructure("CIS 162, CIS 163, and CIS 164") == allOf(courseLeaf("CIS 162"), courseLeaf("CIS 163"), courseLeaf("CIS 164")))
        #expect(parsedStructure("CIS 162, CIS 163, or CIS 164") == anyOf(courseLeaf("CIS 162"), courseLeaf("CIS 163"), courseLeaf("CIS 164")))
        #expect(parsedStructure("CIS 162, CIS 163 or CIS 164") == anyOf(courseLeaf("CIS 162"), courseLeaf("CIS 163"), courseLeaf("CIS 164")))
        #expect(parsedStructure("CIS 162, CIS 163") == allOf(courseLeaf("CIS 162"), courseLeaf("CIS 163")))
        // Earlier segments take the connective written after them.
        #expect(parsedStructure("COMM 1307, COMM 1303, and junior standing, or consent of instructor.")
                == anyOf(allOf(courseLeaf("COMM 1307"), courseLeaf("COMM 1303"), .standing("junior")), .permission("instructor")))
        #expect(parsedStructure("MTH 124, or both MTH 122 and MTH 123, or placement via the Calculus Readiness Test.")
                == anyOf(courseLeaf("MTH 124"), allOf(courseLeaf("MTH 122"), courseLeaf("MTH 123")), .exam("placement via the Calculus Readiness Test")))
    }

    @Test func semicolonsBindLooserThanCommas() {
        let expected = allOf(courseLeaf("CIS 241"), anyOf(courseLeaf("CIS 351"), allOf(courseLeaf("EGR 326"), .program("EGR major"))))
        #expect(parsedStructure("CIS 241; and CIS 351 or (EGR 326 and EGR major standing)") == expected)
        #expect(parsedStructure("ENGL 1005 or ENGL 2000 or HNRS 2000; CSC 3102.")
                == allOf(anyOf(courseLeaf("ENGL 1005"), courseLeaf("ENGL 2000"), courseLeaf("HNRS 2000")), courseLeaf("CSC 3102")))
        #expect(parsedStructure("MATH 108 and 111; or 140")
                == anyOf(allOf(courseLeaf("MATH 108"), courseLeaf("MATH 111")), courseLeaf("MATH 140")))
    }

    @Test func parenthesesGroup() {
        #expect(parsedStructure("(CIS 200 or IMSE 200) and CIS 275")
                == allOf(anyOf(courseLeaf("CIS 200"), courseLeaf("IMSE 200")), courseLeaf("CIS 275")))
        #expect(parsedStructure("CIS 350 or (ECE 370 and MATH 276)")
                == anyOf(courseLeaf("CIS 350"), allOf(courseLeaf("ECE 370"), courseLeaf("MATH 276"))))
        #expect(parsedStructure("((CIS 162))") == courseLeaf("CIS 162"))
        // Unbalanced: unmatched parentheses are ignored, the rest still parses.
        #expect(parsedStructure("((CIS 162") == courseLeaf("CIS 162"))
        #expect(parsedStructure("CIS 162)) and CIS 163") == allOf(courseLeaf("CIS 162"), courseLeaf("CIS 163")))
        #expect(parsedStructure("(CIS 162 or CIS 163 and MTH 201") == allOf(anyOf(courseLeaf("CIS 162"), courseLeaf("CIS 163")), courseLeaf("MTH 201")))
    }

    @Test func sameOperatorsMergeAndSingleChildrenCollapse() {
        #expect(parsedStructure("CIS 162 and (CIS 163 and CIS 164)") == allOf(courseLeaf("CIS 162"), courseLeaf("CIS 163"), courseLeaf("CIS 164")))
        #expect(parsedStructure("(CIS 162 or CIS 163) or (CIS 164 or CIS 165)")
                == anyOf(courseLeaf("CIS 162"), courseLeaf("CIS 163"), courseLeaf("CIS 164"), courseLeaf("CIS 165")))
        #expect(parsedStructure("(CIS 162)") == courseLeaf("CIS 162"))
    }

    @Test func grades() {
        #expect(parsedStructure("CSIS 210 (minimum grade of C-)") == courseLeaf("CSIS 210", grade: "C-"))
        #expect(parsedStructure("C or better in MATH 105 or MATH 108") == anyOf(courseLeaf("MATH 105", grade: "C"), courseLeaf("MATH 108", grade: "C")))
        #expect(parsedStructure("MATH 2312 with a grade of C- or higher") == courseLeaf("MATH 2312", grade: "C-"))
        #expect(parsedStructure("A grade of C- or better in COSC 2320 or COSC 2436.")
                == anyOf(courseLeaf("COSC 2320", grade: "C-"), courseLeaf("COSC 2436", grade: "C-")))
        #expect(parsedStructure("MA 106 [Min Grade: C] or MA 107") == anyOf(courseLeaf("MA 106", grade: "C"), courseLeaf("MA 107")))
        #expect(parsedStructure("CS 1013 or CS 1213 with a grade of “C” or higher.")
                == anyOf(courseLeaf("CS 1013", grade: "C"), courseLeaf("CS 1213", grade: "C")))
        #expect(parsedStructure("Undergraduate level MATH 1342 Minimum Grade of D- or Undergraduate level CS 2800 Minimum Grade of D-")
                == anyOf(courseLeaf("MATH 1342", grade: "D-"), courseLeaf("CS 2800", grade: "D-")))
        #expect(parsedStructure("ACCT 3367, with minimum grade of C, and ACCT 3371")
                == allOf(courseLeaf("ACCT 3367", grade: "C"), courseLeaf("ACCT 3371")))
        // The grade stops at the first thing that is not a course list.
        #expect(parsedStructure("A grade of C- or better in COSC 2436, and junior standing")
                == allOf(courseLeaf("COSC 2436", grade: "C-"), .standing("junior")))
        #expect(parsedStructure("C or better in each of CIS 2336 , CIS 2348 , and CIS 3347")
                == allOf(courseLeaf("CIS 2336", grade: "C"), courseLeaf("CIS 2348", grade: "C"), courseLeaf("CIS 3347", grade: "C")))
        // The grade before the word "grade" (Langara's order).
        #expect(parsedStructure("A minimum \"C-\" grade in PSYC 1115 and PSYC 1215.")
                == allOf(courseLeaf("PSYC 1115", grade: "C-"), courseLeaf("PSYC 1215", grade: "C-")))
        #expect(parsedStructure("A minimum C grade in MATH 1271 or MATH 1272")
                == anyOf(courseLeaf("MATH 1271", grade: "C"), courseLeaf("MATH 1272", grade: "C")))
    }

    @Test func gradeSourceKeepsThePhrase() {
        let tree = RequisiteParser.parse("CIS 162 with a minimum grade of C")
        #expect(jsonText(tree) == #"{"course":"CIS 162","minGrade":"C","source":"CIS 162 with a minimum grade of C"}"#)
    }

    @Test func concurrency() {
        #expect(parsedStructure("MTH 201 (may be taken concurrently)") == courseLeaf("MTH 201", concurrent: true))
        #expect(parsedStructure("MTH 201, which may be taken concurrently") == courseLeaf("MTH 201", concurrent: true))
        #expect(parsedStructure("credit or registration in MATH 1022 or MATH 1023")
                == anyOf(courseLeaf("MATH 1022", concurrent: true), courseLeaf("MATH 1023", concurrent: true)))
        #expect(parsedStructure("Concurrent enrollment in or credit for PHYS 2325") == courseLeaf("PHYS 2325", concurrent: true))
        #expect(parsedStructure("CSC 1254 or CSC 1351 and credit or concurrent enrollment in CSC 2259 or EE 2741.")
                == allOf(anyOf(courseLeaf("CSC 1254"), courseLeaf("CSC 1351")),
                       anyOf(courseLeaf("CSC 2259", concurrent: true), courseLeaf("EE 2741", concurrent: true))))
        #expect(parsedStructure("A grade of C- or better in COSC 1336, and credit for or concurrent enrollment in MATH 2413.")
                == allOf(courseLeaf("COSC 1336", grade: "C-"), courseLeaf("MATH 2413", concurrent: true)))
    }

    @Test func permission() {
        #expect(parsedStructure("CIS 244 or permission of instructor") == anyOf(courseLeaf("CIS 244"), .permission("instructor")))
        #expect(parsedStructure("Consent of instructor/department.") == .permission("instructor/department"))
        #expect(parsedStructure("consent of department") == .permission("department"))
        #expect(parsedStructure("Approval of department chair.") == .permission("department chair"))
        #expect(parsedStructure("instructor approval") == .permission("instructor"))
        // A trailing "or consent" is an alternative to the whole "and" chain.
        #expect(parsedStructure("HRMA 3341 and HRMA 3361 or consent of instructor.")
                == anyOf(allOf(courseLeaf("HRMA 3341"), courseLeaf("HRMA 3361")), .permission("instructor")))
    }

    @Test func classStanding() {
        #expect(parsedStructure("junior standing") == .standing("junior"))
        #expect(parsedStructure("Senior standing.") == .standing("senior"))
        #expect(parsedStructure("graduate standing") == .standing("graduate"))
        #expect(parsedStructure("sophomore standing or above") == .standing("sophomore"))
        #expect(parsedStructure("Junior or senior standing") == anyOf(.standing("junior"), .standing("senior")))
        #expect(jsonText(RequisiteParser.parse("junior standing")) == #"{"source":"junior standing","standing":"junior"}"#)
    }

    @Test func programAdmission() {
        #expect(parsedStructure("admission to the CIS major") == .program("CIS major"))
        #expect(parsedStructure("CIS major standing.") == .program("CIS major"))
        #expect(parsedStructure("Admitted to CIS major.") == .program("CIS major"))
        #expect(parsedStructure("CS 143  and admission to the BAS IT:CSD program") == allOf(courseLeaf("CS 143"), .program("BAS IT:CSD program")))
        #expect(parsedStructure("MTH 225, CIS 241, and CIS major/minor standing.")
                == allOf(courseLeaf("MTH 225"), courseLeaf("CIS 241"), .program("CIS major/minor")))
    }

    @Test func placementAndExams() {
        #expect(parsedStructure("MTH 122 or placement") == anyOf(courseLeaf("MTH 122"), .exam("placement")))
        #expect(parsedStructure("Math placement score of 3") == .exam("Math placement", score: "3"))
        #expect(parsedStructure("ACT math score of 24") == .exam("ACT math", score: "24"))
        #expect(parsedStructure("SAT math score of 600 or MTH 110") == anyOf(.exam("SAT math", score: "600"), courseLeaf("MTH 110")))
        #expect(parsedStructure("MATH 115 or MPLS with a score of 116") == anyOf(courseLeaf("MATH 115"), .exam("MPLS", score: "116")))
        #expect(parsedStructure("ALEKS score ≥ 40 or passing grade in MTH 099.") == anyOf(.exam("ALEKS", score: "40"), courseLeaf("MTH 099")))
        #expect(parsedStructure("A passing score on the Mathematics Placement Test")
                == .exam("Mathematics Placement Test", score: "passing"))
        // A work, field or clinical placement is a post the student holds, not a test.
        #expect(parsedStructure("COOP 2300 and confirmed co-op work placement")
                == allOf(courseLeaf("COOP 2300"), .text("confirmed co-op work placement")))
        #expect(parsedStructure("a clinical placement") == .text("a clinical placement"))
    }

    @Test func rangesAreNotCourses() {
        #expect(parsedStructure("any 3000-level CIS course") == .text("any 3000-level CIS course"))
        #expect(parsedStructure("MATH 2415 and six additional hours of 3000-4000 level Mathematics.")
                == allOf(courseLeaf("MATH 2415"), .text("six additional hours of 3000-4000 level Mathematics")))
        #expect(parsedStructure("Two CIVE 3000 level courses and ENGI 2304 .")?.courses == ["ENGI 2304"])
    }

    @Test func renameNotesAreNotRequirements() {
        let tree = RequisiteParser.parse("ACCT 2301 (formerly ACCT 2331).")
        #expect(tree?.courses == ["ACCT 2301"])
        #expect(jsonText(tree) == #"{"course":"ACCT 2301","source":"ACCT 2301 (formerly ACCT 2331)"}"#)
        #expect(RequisiteParser.parse("ACCT 2301, formerly ACCT 2331.")?.courses == ["ACCT 2301"])
        #expect(RequisiteParser.parse("ECON 3370 (previously ECON 4365).")?.courses == ["ECON 3370"])
        #expect(RequisiteParser.parse("formerly ACCT 2331") == .text("formerly ACCT 2331"))
    }

    @Test func asidesAreNotRequirements() {
        #expect(RequisiteParser.parse("CPS 121 (CPS 221 and 231 strongly recommended).")?.courses == ["CPS 121"])
        #expect(RequisiteParser.parse("GEOL 3235; GEOL 3350 recommended.")?.courses == ["GEOL 3235"])
        #expect(RequisiteParser.parse("Three hours of 1000-2000 level Mathematics, excluding MATH 1300.")?.courses == [])
        #expect(RequisiteParser.parse("MATH 2312 or equivalent. Credit may not be applied toward a degree for both CHEM 1321 and CHEM 1311.")?.courses
                == ["MATH 2312"])
    }

    @Test func equivalentIsATextAlternative() {
        #expect(parsedStructure("ENGL 1302 or equivalent.") == anyOf(courseLeaf("ENGL 1302"), .text("equivalent")))
        #expect(parsedStructure("PSYC 3301 (or equivalent)") == anyOf(courseLeaf("PSYC 3301"), .text("equivalent")))
    }

    @Test func unknownProseIsKeptAsText() {
        #expect(parsedStructure("Audition required.") == .text("Audition required"))
        #expect(parsedStructure("MATH 125. Prerequisite enforced by registration system.")
                == allOf(courseLeaf("MATH 125"), .text("Prerequisite enforced by registration system")))
    }

    @Test func coursesAreSortedAndUnique() {
        #expect(RequisiteParser.parse("MTH 201 or CIS 162 and CIS 162 or CIS 45")?.courses == ["CIS 45", "CIS 162", "MTH 201"])
    }

    @Test func jsonShapesAndRoundTrip() throws {
        let text = "A grade of C- or better in COSC 1336, and credit for or concurrent enrollment in MATH 2413."
        let tree = try #require(RequisiteParser.parse(text))
        #expect(jsonText(tree) == #"{"all":[{"course":"COSC 1336","minGrade":"C-","source":"A grade of C- or better in COSC 1336"},{"concurrent":true,"course":"MATH 2413","source":"credit for or concurrent enrollment in MATH 2413"}],"connective":"and"}"#)
        let data = try JSONEncoder().encode(tree)
        #expect(try JSONDecoder().decode(Requisite.self, from: data) == tree)
        let every: Requisite = .all([
            .any([courseLeaf("CIS 162"), .atLeast(2, of: [.standing("junior"), .program("CIS major")])], connective: "or"),
            .permission("instructor", source: "consent of instructor"),
            .exam("ACT math", score: "24"),
            .text("anything"),
        ])
        #expect(jsonText(every) == #"{"all":[{"any":[{"course":"CIS 162"},{"atLeast":2,"of":[{"standing":"junior"},{"program":"CIS major"}]}],"connective":"or"},{"permission":"instructor","source":"consent of instructor"},{"exam":"ACT math","score":"24"},{"text":"anything"}]}"#)
        #expect(try JSONDecoder().decode(Requisite.self, from: JSONEncoder().encode(every)) == every)
    }

    @Test func canonicalText() {
        #expect(RequisiteParser.canonicalText("cis162 and  CIS-163\n or C S 235 ") == "CIS 162 and CIS 163 or CS 235")
        #expect(RequisiteParser.canonicalText("MTH 122 or 123, (min. grade C)") == "MTH 122 or 123, (min. grade C)")
    }

    @Test func indentedDescription() throws {
        let tree = try #require(RequisiteParser.parse("CIS 241; and CIS 351 or (EGR 326 and EGR major standing)"))
        #expect(tree.indentedDescription() == """
            all of  (and)
              course CIS 241
              any of  (or)
                course CIS 351
                all of  (and)
                  course EGR 326
                  program EGR major  "EGR major standing"
            """)
    }

    @Test func missingWordsIsHonest() {
        let source = "CIS 162 and junior standing"
        #expect(courseLeaf("CIS 162").missingWords(of: source) == ["and", "junior", "standing"])
        #expect(Requisite.all([courseLeaf("CIS 162"), .standing("junior")], connective: "and").missingWords(of: source) == ["standing"])
        #expect(Requisite.all([courseLeaf("CIS 162"), .standing("junior", source: "junior standing")], connective: "and")
            .missingWords(of: source).isEmpty)
        // Leaf words count: one "CIS 162" leaf does not cover two mentions.
        #expect(courseLeaf("CIS 162").missingWords(of: "CIS 162 or CIS 162") == ["or", "cis", "162"])
        #expect(RequisiteParser.parse(source)?.missingWords(of: source).isEmpty == true)
    }
}

@Suite struct RequisiteKeywordTests {
    /// A hash hit alone is no keyword: the word's own bytes must spell it, in any case.
    @Test func aKeywordIsItsSpellingNotItsHash() {
        let and = FNV1a.hash(Array("and".utf8))
        for (word, expected) in [("and", RequisiteKeyword.and), ("AND", .and), ("And", .and), ("xyz", nil), ("an", nil)] as [(String, RequisiteKeyword?)] {
            let bytes = Array(word.utf8)
            let found = bytes.withUnsafeBufferPointer { RequisiteKeyword.lookUp(hash: and, $0, 0, $0.count) }
            #expect(found == expected, "\(word)")
        }
    }

    /// A word of a phrase table that is no keyword would be dropped from its step, which then matched nothing.
    @Test func everyWordOfThePhraseTablesIsAKeyword() {
        let tables = [RequisiteScanner.gradeNames, RequisiteScanner.concurrencyPrefixes, RequisiteScanner.concurrencySuffixes,
                      RequisiteScanner.creditPrefixes, RequisiteScanner.mentions, RequisiteScanner.asides,
                      RequisiteScanner.admissionPrepositions, RequisiteScanner.permissionPrepositions,
                      RequisiteScanner.countedOf, RequisiteScanner.theFollowing, RequisiteScanner.scoreMarks,
                      RequisiteScanner.examPrepositions]
        for step in tables.joined().joined() {
            #expect(!step.words.isEmpty || step.punct != 0 || step.mode == .anyToken)
        }
        // The parser keeps the words it can read: "of" and ":" in one step.
        #expect(RequisiteScanner.phrases("[:|of] grade").first?.map(\.words) == [[.of], [.grade]])
    }
}
