import Foundation
import SafeLibXML
import Testing
@testable import CatalogKit

/// The reader that splits a course body into labels and prose, on the shapes real catalogs use.
@Suite struct LabelledContentTests {
    static func segments(_ body: String) throws -> [ContentSegment] {
        let doc = try HTMLDocument(bytes: Array("<html><body><div><h3>X 100 - T</h3>\(body)</div></body></html>".utf8),
                                   url: URL(string: "https://example.edu/a/b.php"))
        let heading = try #require(try doc.first("//h3"))
        return LabelledContent.segments(from: try #require(heading.parent).inlineEvents(after: heading))
    }

    static func summary(_ segments: [ContentSegment]) -> [String] {
        segments.map { "\($0.label ?? ($0.emphasized ? "<em>" : "-"))=\($0.text)" }
    }

    /// Emphasis is read as a label only where one can be, and the shortcut that skips the rest (no colon at the
    /// end, not at the start of a line) must not miss a colon behind white space of any kind, or split over
    /// several text nodes.
    @Test func colonLabelsAreFoundBehindAnyWhiteSpace() throws {
        let body = "<p><strong>Credit Hours:\u{A0}</strong> 3</p><p><em>Lab</em><em> Hours:\u{2003}\n</em> 2</p>"
            + "<p>Text first <strong>Formerly</strong> and <strong>Offered: </strong>Fall</p><p><b>Notes</b></p><p>after the note</p>"
        // Two emphasis elements are two groups: "Lab" is a bare label at the start of its line, "Hours:" a colon one.
        #expect(Self.summary(try Self.segments(body)) == ["Credit Hours=3", "Lab=", "Hours=2", "-=Text first Formerly and", "Offered=Fall",
                                                          "Notes=after the note"])
    }

    @Test func theColonTestSeesPastWhiteSpaceAndAcrossTextNodes() {
        let sample = LabelledContent.Unit(tokens: [LabelledContent.Token(text: "Credits"), LabelledContent.Token(text: ":\u{3000} ")][...])
        #expect(sample.endsWithColon)
        #expect(!LabelledContent.Unit(tokens: [LabelledContent.Token(text: "a: b")][...]).endsWithColon)
        #expect(!LabelledContent.Unit(tokens: [LabelledContent.Token(text: "  ")][...]).endsWithColon)
    }

    /// Labels' words are counted on the bytes for ASCII; other text as characters, so a space carrying a
    /// combining mark is no separator, as `split(separator: " ")` has it.
    @Test func labelWordsCountCharactersBeyondASCII() {
        #expect(LabelledContent.bareLabel("Course Description") == "Course Description")
        #expect(LabelledContent.bareLabel("A B C D E") == nil)
        #expect(LabelledContent.bareLabel("A B C D \u{301}E") == "A B C D \u{301}E")
        #expect(LabelledContent.colonLabel("Heures de crédit:") == "Heures de crédit")
        #expect(LabelledContent.colonLabel("a b c d e f g h i:") == nil)
        #expect(LabelledContent.colonLabel("Ab c d e f g h \u{301}i:") == "Ab c d e f g h \u{301}i")
        #expect(LabelledContent.textLabel("Équivalence TCCNS: ACCT 2301") == "Équivalence TCCNS")
    }

    @Test func acalogLabelsWithValuesInTheirOwnEmphasis() throws {
        let found = try Self.segments("""
        <strong>Credit Hours:</strong> <strong>3.0</strong><br/><em>Lecture Contact Hours:</em> 3 <strong> </strong>
        <em>Lab Contact Hours:</em> 0<hr/><strong>Formerly</strong> ACCT 2331<br/><strong>Prerequisite:</strong> None.<br/>
        <strong>Description</strong><br/>Fundamentals of accounting.<br/><strong>Note:</strong> A note.<br/>TCCNS Equivalent: ACCT 2301<br/>
        """)
        #expect(Self.summary(found) == [
            "Credit Hours=3.0", "Lecture Contact Hours=3", "Lab Contact Hours=0", "Formerly=ACCT 2331", "Prerequisite=None.",
            "Description=Fundamentals of accounting.", "Note=A note.", "TCCNS Equivalent=ACCT 2301",
        ])
    }

    @Test func lsuEmphasisedLabelAndEmptyValueDoNotSwallowTheDescription() throws {
        let found = try Self.segments("<em>Prereq.:</em> <em>&#160;</em>  <em></em> Research and writing skills.")
        #expect(Self.summary(found) == ["Prereq.=", "-=Research and writing skills."])
    }

    @Test func unlabelledEmphasisIsSetApartWithItsLinks() throws {
        let found = try Self.segments("""
        <em><strong>A note.</strong></em> <em>Credit in <a href="c.php?x=1">MATH 1021</a>, or <a href="c.php?x=2">MATH 1022</a>.</em> Prose.
        """)
        #expect(Self.summary(found) == ["<em>=A note.", "<em>=Credit in MATH 1021, or MATH 1022.", "-=Prose."])
        let links = found[1].links
        #expect(links.map(\.text) == ["MATH 1021", "MATH 1022"])
        #expect(links.map { $0.url?.absoluteString } == ["https://example.edu/a/c.php?x=1", "https://example.edu/a/c.php?x=2"])
        let text = Array(found[1].text.utf8)
        #expect(String(decoding: text[links[0].start..<links[0].end], as: UTF8.self) == "MATH 1021")
    }

    @Test func paragraphsAndBlankLinesAreKept() throws {
        let found = try Self.segments("<p>First para.</p><p>Second\npara.</p><p><b>Credits:</b> 4</p>")
        #expect(Self.summary(found) == ["-=First para.\n\nSecond para.", "Credits=4"])
        let lines = try Self.segments("<strong>Description</strong><br/>Line one.<br/>Line two.<br/><br/>After a blank.")
        #expect(Self.summary(lines) == ["Description=Line one.\nLine two.\n\nAfter a blank."])
    }

    @Test func proseWithAColonIsNotALabel() throws {
        let found = try Self.segments("<p>Topics include: sorting, searching.</p><p>2019: a year.</p>")
        #expect(found.allSatisfy { $0.label == nil })
    }
}

@Suite struct InlineSentencesTests {
    static func split(_ text: String, links: [SegmentLink] = []) -> (String, [String]) {
        let segment = ContentSegment(label: nil, labelStyle: nil, text: text, links: links, emphasized: false)
        let (description, sentences) = InlineSentences.split(segment)
        return (description.text, sentences.map { "\($0.label ?? "")=\($0.text)" })
    }

    @Test func gvsuTrailingSentencesAreSplitOut() {
        let (description, sentences) = Self.split(
            "Study of systems. (3-0-0) Offered fall and winter semesters. Prerequisites: CIS 241; and CIS 351 or (EGR 326 and EGR major standing). Corequisite: CIS 162L.")
        #expect(description == "Study of systems.")
        #expect(sentences == ["Contact Hours=3-0-0", "Offered=fall and winter semesters",
                              "Prerequisites=CIS 241; and CIS 351 or (EGR 326 and EGR major standing).", "Corequisites=CIS 162L."])
    }

    @Test func offeredInsideProseIsNotASentenceToSplit() {
        let (description, sentences) = Self.split("Offered jointly with WRT. Students write a lot. Prerequisite: WRT 150.")
        #expect(description == "Offered jointly with WRT. Students write a lot.")
        #expect(sentences == ["Prerequisites=WRT 150."])
    }

    @Test func linksFollowTheirSentence() {
        let text = "Intró. Prerequisite: CIS 162. Corequisite: CIS 163."
        func link(_ code: String) -> SegmentLink {
            let start = text.range(of: code).map { text.utf8.distance(from: text.utf8.startIndex, to: $0.lowerBound) } ?? 0
            return SegmentLink(text: code, url: nil, start: start, end: start + code.utf8.count)
        }
        let segment = ContentSegment(label: nil, labelStyle: nil, text: text, links: [link("CIS 162"), link("CIS 163")], emphasized: false)
        let (_, sentences) = InlineSentences.split(segment)
        #expect(sentences.map { $0.links.map(\.text) } == [["CIS 162"], ["CIS 163"]])
        let prerequisite = Array(sentences[0].text.utf8)
        let first = sentences[0].links[0]
        #expect(String(decoding: prerequisite[first.start..<first.end], as: UTF8.self) == "CIS 162")
    }

    @Test func noMarkersLeavesTheTextAlone() {
        #expect(Self.split("Just prose. Nothing else.").0 == "Just prose. Nothing else.")
        #expect(Self.split("").1.isEmpty)
    }
}
