import Foundation
import SafeLibXML
import Testing
@testable import CatalogKit

/// Layouts met on catalogs the project had not seen, each written here in the smallest form that shows it.
@Suite struct UnseenLayoutTests {
    /// "CODE. Title. Credits": a heading that puts a period after its code closes its title with one too.
    @Test(arguments: [
        ("MATH 92. Beginning Algebra Review. 3 units", "Beginning Algebra Review", "3"),
        ("MATH 304. Vector Analysis.\n4 units", "Vector Analysis", "4"),
        ("S E 329.  Software Project Management.", "Software Project Management", nil),
        ("CS 5004. Object-Oriented Design. (4 Hours)", "Object-Oriented Design", "4 Hours"),
        ("HIST 300. Topics in the U.S. ... 3 units", "Topics in the U.S. ...", "3"),
        ("CIS 452 - Operating Systems Concepts.", "Operating Systems Concepts.", nil),
    ] as [(String, String, String?)])
    func aHeadingsOwnClosingPeriodIsNotTheTitles(_ text: String, _ title: String, _ credits: String?) throws {
        let heading = try #require(CourseHeading.parseSplittingCredits(text))
        #expect(heading.title == title)
        #expect(heading.credits == credits)
    }

    /// One paragraph holding several fields, each a sentence opened by its label, as older CourseLeaf sites
    /// write them: the prerequisite ends where "Concurrent:" or "Recommended:" begins.
    @Test func aLaterSentenceOpenedByAnotherLabelIsAFieldOfItsOwn() throws {
        let result = CourseLeafParserTests.parse("""
        <div class="courseblock">
          <p class="courseblocktitle"><strong>GEOG&#160;210. Maps and Society.
            <span class="courseblockhours">4 units</span></strong></p>
          <div class="noindent courseextendedwrap"><p class="noindent">CR/NC</p>
            <p>Prerequisite: <a href="/search/?P=GEOG%20101">GEOG&#160;101</a>; sophomore standing.
            Concurrent: <a href="/search/?P=GEOG%20211">GEOG&#160;211</a>. Recommended: STAT 130.</p></div>
          <div class="courseblockdesc"><p>How maps are made and read.</p></div>
        </div>
        <div class="courseblock">
          <p class="courseblocktitle"><strong>GEOG&#160;211. Map Laboratory.
            <span class="courseblockhours">1 unit</span></strong></p>
          <div class="courseextendedwrap"><p>Prerequisite: GEOG 101 ; Recommended: GEOG 110 .</p>
            <p>Concurrent: Enrollment in GEOG 210.</p></div>
          <div class="courseblockdesc"><p>Exercises.</p></div>
        </div>
        """)
        #expect(result.courses.count == 2)
        let course = try #require(result.courses.first)
        #expect(course.title == "Maps and Society")
        #expect(course.creditsText == "4")
        #expect(course.prerequisiteText == "GEOG 101; sophomore standing.")
        #expect(course.prerequisiteLinks.map(\.code) == ["GEOG 101"])
        #expect(course.corequisiteText == "GEOG 211.")
        #expect(course.corequisiteLinks.map(\.code) == ["GEOG 211"])
        #expect(course.provenance["corequisite"]?.hasPrefix("sentence \"Concurrent:…\" inside the field \"Prerequisite:\"") == true)
        #expect(course.fields == [LabelledField(label: "Recommended", value: "STAT 130.")])
        let second = try #require(result.courses.last)
        // The separator before the label is the cut's, not the prerequisite's.
        #expect(second.prerequisiteText == "GEOG 101")
        #expect(second.fields == [LabelledField(label: "Recommended", value: "GEOG 110 .")])
        #expect(second.corequisiteText == "Enrollment in GEOG 210.")
    }

    @Test func aSentenceOpenedByTheFieldsOwnLabelStaysInIt() {
        let segment = ContentSegment(label: "Prerequisite", labelStyle: "text", writtenLabel: "Prerequisite:",
                                     text: "Cr. 3 per semester. Prerequisites: CHEM 4370.", links: [], emphasized: false)
        #expect(InlineSentences.splitFollowingFields(segment, role: .prerequisite) == [segment])
    }

    /// A description paragraph whose lines are parted by `<br>` only: the words either side stay apart.
    @Test func aLineBreakInTheDescriptionPartsItsWords() throws {
        let result = CourseLeafParserTests.parse("""
        <div class="courseblock">
          <p class="courseblocktitle"><strong>HORT&#160;221.  Plant Propagation.</strong></p>
          <p class="courseblockdesc">(2-2) Cr. 3.<br/><em>Prereq: HORT 221</em><br />Seeds, cuttings and grafts.<br>
          Offered in alternate years.</p>
        </div>
        """)
        let course = try #require(result.courses.first)
        #expect(course.description == "Seeds, cuttings and grafts.\nOffered in alternate years.")
    }

    /// Older CourseLeaf sites write the credits and the requisites into the description paragraph: a first line
    /// "(3-0) Cr. 3. F.S." and an emphasis opened by a requisite's label, ending a line where a line or a sentence
    /// starts. The rest stays prose: a label of another kind, a requisite inside a sentence.
    @Test func creditsAndRequisitesInTheDescriptionParagraphAreRead() throws {
        let result = CourseLeafParserTests.parse("""
        <div class="courseblock"><p class="courseblocktitle"><strong>HORT&#160;310.  Orchards.</strong></p>
          <p class="courseblockdesc">(Dual-listed with HORT 510).  (2-2) Cr. 3. F.
          <em>Prereq: <a href="/search/?P=HORT%20221">HORT&#160;221</a></em>.<br />Fruit trees.
          TOPIC TITLE: Apples. <em>Coreq: HORT 311</em> is named, not set apart.</p></div>
        <div class="courseblock"><div class="courseblocktitle"><strong>HORT&#160;398: Internship</strong></div>
          <div class="courseblockdesc"><p class="credits">Cr. R. Repeatable.</p>
          <p class="prereq"><em>Coreq: HORT 399</em><br/>Work on a farm.</p></div></div>
        <div class="courseblock"><p class="courseblocktitle">HORT 399: Farm Report (1-2 Credits)</p>
          <p class="courseblockdesc">Cr. 2. Notes on the work.</p></div>
        """)
        #expect(result.courses.count == 3)
        let course = try #require(result.courses.first)
        #expect(course.creditsText == "3")
        #expect(course.provenance["credits"]?.hasPrefix("the credits sentence of the line \"(Dual-listed with HORT 510). (2-2) Cr. 3. F.\", the first line of .courseblockdesc") == true)
        #expect(course.notes == ["(Dual-listed with HORT 510). (2-2) Cr. 3. F."])
        #expect(course.prerequisiteText == "HORT 221.")
        #expect(course.prerequisiteLinks.map(\.code) == ["HORT 221"])
        #expect(course.corequisiteText == nil)
        #expect(course.description == "Fruit trees. TOPIC TITLE: Apples. Coreq: HORT 311 is named, not set apart.")
        let internship = try #require(result.courses.dropFirst().first)
        #expect(internship.creditsText == nil)
        #expect(internship.corequisiteText == "HORT 399")
        #expect(internship.description == "Cr. R. Repeatable.\n\nWork on a farm.")
        // The heading's credits come first; the line is still no description.
        let report = try #require(result.courses.last)
        #expect(report.creditsText == "1-2 Credits")
        #expect(report.description == "")
        #expect(report.notes == ["Cr. 2. Notes on the work."])
    }

    /// A description of one line stays one: a sentence about credit inside it is no line of credits, and a
    /// requisite label opening it does not take the whole description.
    @Test func aOneLineDescriptionIsNoCreditsLineNorARequisite() throws {
        let result = CourseLeafParserTests.parse("""
        <div class="courseblock"><p class="courseblocktitle"><strong>MATH&#160;101. College Algebra. 3 Credits.</strong></p>
          <p class="courseblockdesc">Functions and graphs. Students may not receive credit for both MATH 101 and MATH 102. Credit 3 hours.</p></div>
        <div class="courseblock"><p class="courseblocktitle"><strong>MATH&#160;201. Calculus. 4 Credits.</strong></p>
          <p class="courseblockdesc"><strong>Prerequisite:</strong> MATH 101 with a grade of C. Limits, derivatives and integrals.</p></div>
        <div class="courseblock"><p class="courseblocktitle"><strong>MATH&#160;301. Analysis.</strong></p>
          <p class="courseblockdesc">Credit 3 hours for majors, and 2 hours for anyone else who takes the course as an elective.<br/>Proofs.</p></div>
        """)
        #expect(result.courses.count == 3)
        let algebra = try #require(result.courses.first)
        #expect(algebra.description == "Functions and graphs. Students may not receive credit for both MATH 101 and MATH 102. Credit 3 hours.")
        #expect(algebra.notes.isEmpty)
        let calculus = try #require(result.courses.dropFirst().first)
        #expect(calculus.description == "Prerequisite: MATH 101 with a grade of C. Limits, derivatives and integrals.")
        #expect(calculus.prerequisiteText == nil)
        // A first line longer than a line of credits is prose.
        let analysis = try #require(result.courses.last)
        #expect(analysis.creditsText == nil)
        #expect(analysis.description.hasPrefix("Credit 3 hours for majors"))
    }

    /// A heading whose code-and-title and credits are two block elements with nothing between them.
    @Test func aHeadingsBlocksAreReadApart() throws {
        let result = CourseLeafParserTests.parse("""
        <div class="courseblock"><div class="courseblocktitle"><div class="course_codetitle">GEOG 30N: Maps of the \
        World</div><div class="course_credits">3 Credits</div></div>
        <div class="courseblockmeta"><div class="courseblockdesc"><p>How people draw the world.</p></div></div></div>
        """)
        let course = try #require(result.courses.first)
        #expect(course.code.description == "GEOG 30N")
        #expect(course.title == "Maps of the World")
        #expect(course.creditsText == "3")
        #expect(course.description == "How people draw the world.")
    }

    /// Requisites labelled as enforced at enrollment, in `<strong>` and in plain text ("at" is a small word of a label).
    @Test func enforcedRequisiteLabelsNameTheRequisites() throws {
        let result = CourseLeafParserTests.parse("""
        <div class="courseblock"><p class="courseblocktitle">GEOG 296: Independent Studies 1-6 Credits</p>
        <div class="courseblockmeta"><div class="courseblockdesc"><p>Creative projects.</p></div>
        <div class="noindent courseblockextra"><p><strong>Enforced Prerequisite at Enrollment:</strong>
          <a href="/search/?P=GEOG%2010" class="bubblelink code">GEOG 10</a></p></div>
        <div class="noindent courseblockextra"><p>Enforced Concurrent at Enrollment: GEOG 297</p></div></div></div>
        """)
        let course = try #require(result.courses.first)
        #expect(course.prerequisiteText == "GEOG 10")
        #expect(course.prerequisiteLinks.map(\.code) == ["GEOG 10"])
        #expect(course.corequisiteText == "GEOG 297")
        #expect(course.description == "Creative projects.")
        #expect(course.fields.isEmpty)
    }

    /// Texas A&M's form: the credits a paragraph of their own before the description ("Credits 1 to 4. …"), and a
    /// requisite label alone in emphasis at the start of a line of the description, its value the rest of the line.
    @Test func aCreditsParagraphAndALabelOpeningADescriptionLineAreRead() throws {
        let result = CourseLeafParserTests.parse("""
        <div class="courseblock"><p class="courseblocktitle noindent"><strong>HORT&#160;285 Garden Studies</strong></p>
          <p class="hours noindent"><strong>Credits 1 to 3. 1 to 3 Other Hours.</strong></p>
          <p class="courseblockdesc">Plants in a garden. <br><strong>Prerequisite:</strong> <a href="/search/?P=HORT%20101">HORT
          101</a> or approval.<br><strong>Note:</strong> Held outdoors.<br>Bring boots.</p></div>
        """)
        let course = try #require(result.courses.first)
        #expect(course.creditsText == "1 to 3")
        #expect(course.notes == ["Credits 1 to 3. 1 to 3 Other Hours."])
        #expect(course.prerequisiteText == "HORT 101 or approval.")
        #expect(course.prerequisiteLinks.map(\.code) == ["HORT 101"])
        #expect(course.description == "Plants in a garden.\nNote: Held outdoors.\nBring boots.")
    }

    /// Iowa State's subjects are a word and a letter ("COM S", "CPR E"): in a heading, as a whole code and in a requisite.
    @Test func aSubjectOfAWordAndALetterIsOneSubject() throws {
        #expect(CourseHeading.parse("CPR E 288: Embedded Systems I")?.code.description == "CPRE 288")
        #expect(CourseHeading.parse("CPR E 288: Embedded Systems I")?.title == "Embedded Systems I")
        #expect(CourseCode(parsing: "COM S 309")?.description == "COMS 309")
        #expect(CourseCode(parsing: "COM S") == nil)
        #expect(RequisiteParser.parse("COM S 228; CPR E 281 or E E 201")?.courses == ["COMS 228", "CPRE 281", "EE 201"])
    }

    /// UC Davis's blocks: a title span opened by the dash that parts it from the code, a hidden print copy of the
    /// labelled list, and "(can be concurrent)" after a course of the prerequisite.
    @Test func aDashBeforeTheTitleAndAHiddenCopyAreNotRead() throws {
        let result = CourseLeafParserTests.parse("""
        <div class="courseblock"><h3 class="cols noindent"><span class="detail-code"><b>HORT 017</b></span>
          <span class="detail-title"><b>— Gardens &amp; Parks</b></span><span class="detail-hours_html"><b>(4 units)</b></span></h3>
          <div class="noindent"><p class="courseblockextra noindent"><em>Course Description:</em> Plants.</p></div>
          <div class="noindent"><p class="detail-prerequisite"><i>Prerequisite(s): </i>HORT 010 (can be concurrent).</p></div>
          <div class="noindent notinpdf"><div class="courseblockextra"><ul><li><span class="label"><em>Grade Mode:</em></span>
            Letter.</li></ul></div></div>
          <div hidden="true" class="noindent"><div class="courseblockextra"><ul><li><span class="label"><em>Grade Mode:</em></span>
            Letter.</li></ul></div></div></div>
        <div class="courseblock"><h3><span class="detail-code"><b>HORT 018</b></span>
          <span class="detail-title"><b>.NET for Growers</b></span></h3></div>
        """)
        let course = try #require(result.courses.first)
        #expect(course.title == "Gardens & Parks")
        #expect(course.creditsText == "4")
        #expect(course.fields == [LabelledField(label: "Grade Mode", value: "Letter.")])
        #expect(result.courses.last?.title == ".NET for Growers")
        let tree = RequisiteParser.parse("HORT 010 (can be concurrent) or HORT 011 which can be taken concurrently")
        #expect(tree?.indentedDescription().components(separatedBy: "[concurrent ok]").count == 3)
    }

    /// Credits followed by a slash and a cap on repeating the course: the cap is no title, and the credits are read.
    @Test(arguments: [
        ("Independent Studies 1-18 Credits/Maximum of 18", "Independent Studies", "1-18", "Maximum of 18"),
        ("Topics 3 Credits/Maximum of 9", "Topics", "3", "Maximum of 9"),
        ("Reading 1 Credit/Hour", nil, nil, nil),
        ("Input/Output 3 Credits", "Input/Output", "3", nil),
        ("Internship: Credit/No Credit 1-3 Credits", "Internship: Credit/No Credit", "1-3", nil),
    ] as [(String, String?, String?, String?)])
    func aCapAfterTheCreditsSlashIsNoTitle(_ text: String, _ title: String?, _ credits: String?, _ cap: String?) {
        let split = CourseHeading.trailingCreditPhrase(text)
        #expect(split?.rest == title)
        #expect(split?.credits == credits)
        #expect(split?.cap == cap)
    }

    @Test func aHeadingsCreditsCapIsANote() throws {
        let result = CourseLeafParserTests.parse("""
        <div class="courseblock"><div class="courseblocktitle"><div class="course_codetitle">GEOG 296: Independent \
        Studies</div><div class="course_credits">1-18 Credits/Maximum of 18</div></div>
        <div class="courseblockmeta"><div class="courseblockdesc"><p>Creative projects.</p></div></div></div>
        """)
        let course = try #require(result.courses.first)
        #expect(course.title == "Independent Studies")
        #expect(course.creditsText == "1-18")
        #expect(course.notes == ["Maximum of 18"])
    }

    /// A Banner 8 listing links each course to its sections on a line of its own: that link is the page's, not
    /// a note of the course; the same kind of link as a label's value stays that value.
    @Test func bannersLinkToTheSectionsIsNoNote() throws {
        let html = """
        <html><body><table class="datadisplaytable">
        <tr><td class="nttitle"><a href="/pls/prod/bwckctlg.p_disp_course_detail?subj_code_in=GEOG&amp;crse_numb_in=1100">\
        GEOG 1100 - Maps</a></td></tr>
        <tr><td class="ntdefault">Reading maps.<br>3.000 Credit hours<br>3.000 Lecture hours<br><br>
        <span class="fieldlabeltext">Schedule Types: </span><a href="/pls/prod/bwckctlg.p_disp_listcrse?subj_in=GEOG&amp;crse_in=1100&amp;schd_in=LEC">Lecture</a><br>
        <a href="/pls/prod/bwckctlg.p_disp_listcrse?subj_in=GEOG&amp;crse_in=1100&amp;schd_in=%">All Sections for this Course</a>
        <br><br>Geography Department<br></td></tr></table></body></html>
        """
        let result = PageParser(system: .auto).parse(bytes: Array(html.utf8), sourceURL: URL(string: "https://ssb.example.edu/pls/prod/bwckctlg.p_display_courses")!,
                                                     input: "page")
        let course = try #require(result.courses.first)
        #expect(course.code.description == "GEOG 1100")
        #expect(course.creditsText == "3.000")
        #expect(course.notes.isEmpty)
        #expect(course.fields.contains(LabelledField(label: "Schedule Types", value: "Lecture")))
        #expect(course.fields.contains(LabelledField(label: "Department", value: "Geography")))
    }

    /// Some Acalog catalogs write the credits unlabelled, alone after the heading, the plural in a parenthesis
    /// ("<strong>3 unit(s)</strong>", "3 Credit(s)"): that is the credits, not a note. A labelled "Credits:" wins.
    @Test(arguments: [
        ("<strong>3 unit(s)</strong><br><br>How lists work.<br>", "3", "How lists work.", []),
        ("<hr><strong>1-4 Credit(s)</strong><br>How lists work.", "1-4", "How lists work.", []),
        ("<strong>3 Credit(s)</strong><br><strong>Credits:</strong> 4<br>How lists work.", "4", "How lists work.", ["3 Credit(s)"]),
    ] as [(String, String, String, [String])])
    func anUnlabelledCreditPhraseIsTheCredits(_ body: String, _ credits: String, _ description: String, _ notes: [String]) throws {
        let html = """
        <html><body><table><tr><td class="block_content">
        <h1 id="course_preview_title">CS 146 - Data Structures</h1>\(body)
        </td></tr></table></body></html>
        """
        let result = PageParser(system: .fixed(.acalog)).parse(bytes: Array(html.utf8), sourceURL: URL(string: "https://catalog.example.edu/preview_course_nopop.php?catoid=1&coid=2")!,
                                                             input: "page")
        let course = try #require(result.courses.first)
        #expect(course.creditsText == credits)
        #expect(course.description == description)
        #expect(course.notes == notes)
    }

    @Test func aPluralInParenthesesEndsACreditPhrase() {
        #expect(CourseHeading.trailingCreditPhrase("Special Topics 1-3 Credit(s)")?.credits == "1-3")
        #expect(CourseHeading.trailingCreditPhrase("Special Topics (3 Credits)")?.credits == "3")
    }

    /// Banner 9's corequisites come as a fragment of their own (`getCorequisites`, a `section[aria-labelledby=coReqs]`
    /// holding a table of subject, number and title): a Banner page that names no course, as the description is.
    @Test func bannersCorequisitesFragmentIsBanners() throws {
        let html = """
        <section aria-labelledby="coReqs"><h3>Corequisites</h3>
        <table class="basePreqTable"><thead><tr><th>Subject</th><th>Course Number</th><th>Title</th></tr></thead>
        <tbody><tr><td>Physics</td><td>1162</td><td>Lab for PHYS 1161</td></tr></tbody></table></section>
        """
        let result = PageParser(system: .auto).parse(bytes: Array(html.utf8), sourceURL: URL(string: "https://ssb.example.edu/StudentRegistrationSsb/ssb/searchResults/getCorequisites")!,
                                                     input: "page")
        #expect(result.system == .banner)
        #expect(result.courses.isEmpty)
        #expect(try BannerParser().courseLessPage(HTMLDocument(bytes: Array(html.utf8)))?.contains("(corequisites)") == true)
    }

    /// An Acalog page may set a header under the heading and part it from the body with a rule (George Mason's:
    /// credits, "Not Repeatable.", "Offered by …", then <hr>, then the description): the header's unlabelled lines
    /// are notes, not description; its labels are read as anywhere.
    @Test func anAcalogHeaderAboveTheRuleIsNoDescription() throws {
        let html = """
        <html><body><table><tr><td class="block_content_popup">
        <h1 id="course_preview_title">CS 310 - Data Structures</h1>
        <p><strong>Credits:</strong> 3<br>Not Repeatable.<br></p>
        <hr>
        Abstract data types.<br><br>
        <strong>Prerequisite(s):</strong> CS 211.<br>
        </td></tr></table></body></html>
        """
        let result = PageParser(system: .fixed(.acalog)).parse(bytes: Array(html.utf8), sourceURL: URL(string: "https://catalog.example.edu/preview_course_nopop.php?catoid=1&coid=2")!,
                                                             input: "page")
        let course = try #require(result.courses.first)
        #expect(course.creditsText == "3")
        #expect(course.description == "Abstract data types.")
        #expect(course.notes == ["Not Repeatable."])
        #expect(course.prerequisiteText == "CS 211.")
    }

    /// A rule under a line of prose, or under lines with nothing unlabelled below the rule (a fee), closes no
    /// header: the text above it is the description.
    @Test(arguments: ["Abstract data types, their implementations and the analysis of the algorithms that use them.",
                      "Abstract data types. Emphasis on design."])
    func aRuleBelowTheDescriptionClosesNoHeader(_ description: String) throws {
        let html = """
        <html><body><table><tr><td class="block_content">
        <h1 id="course_preview_title">CS 310 - Data Structures</h1>
        <strong>Credits:</strong> 3<br><br>\(description)<br><br>
        <strong>Prerequisite(s):</strong> <a href="preview_course_nopop.php?catoid=1&coid=1">CS 211</a><br><hr>
        Course fee: $25.
        </td></tr></table></body></html>
        """
        let result = PageParser(system: .fixed(.acalog)).parse(bytes: Array(html.utf8), sourceURL: URL(string: "https://catalog.example.edu/preview_course_nopop.php?catoid=1&coid=2")!,
                                                             input: "page")
        let course = try #require(result.courses.first)
        // The line below the rule goes on the description, as it would with no rule.
        #expect(course.description == description + "\n\nCourse fee: $25.")
        #expect(course.creditsText == "3")
        #expect(course.notes.isEmpty)
    }

    /// A rule far below the heading (more elements before it than a header holds), or with only links below it,
    /// closes no header.
    @Test(arguments: [14, 3])
    func aRuleFarBelowTheHeadingOrAboveAFooterClosesNoHeader(_ count: Int) throws {
        let lines = (1...count).map { "Line \($0) of the description.<br>" }.joined()
        let html = """
        <html><body><table><tr><td class="block_content">
        <h1 id="course_preview_title">CS 310 - Data Structures</h1>
        \(lines)<hr><a href="https://example.edu/schedule">Schedule</a>
        </td></tr></table></body></html>
        """
        let result = PageParser(system: .fixed(.acalog)).parse(bytes: Array(html.utf8), sourceURL: URL(string: "https://catalog.example.edu/preview_course_nopop.php?catoid=1&coid=2")!,
                                                             input: "page")
        let course = try #require(result.courses.first)
        #expect(course.description.hasPrefix("Line 1 of the description."))
        #expect(course.notes.isEmpty)
    }

    /// A heading's code may end in a suffix written in lower case, as USC's catalogue writes its general-education
    /// marks ("CTCS 190g", "PHIL 174gw"); an ordinal ("20th") is no code.
    @Test(arguments: [
        ("CTCS 190g - Introduction to Cinema", "CTCS 190G", "Introduction to Cinema"),
        ("PHIL 174gw - Ethics", "PHIL 174GW", "Ethics"),
        ("CSCI 102L - Fundamentals of Computation", "CSCI 102L", "Fundamentals of Computation"),
    ])
    func aHeadingsSuffixMayBeLowerCase(_ text: String, _ code: String, _ title: String) throws {
        let heading = try #require(CourseHeading.parse(text))
        #expect(heading.code.description == code)
        #expect(heading.title == title)
    }

    @Test func anOrdinalIsNoCode() {
        #expect(CourseHeading.parse("HIST 20th Century Europe") == nil)
    }
}
