import Foundation
import Testing
@testable import CatalogKit

/// The diff over hand-written snapshot pairs (Fixtures/snapshots) and plain values, and its renderings.
@Suite struct CatalogDiffTests {
    typealias Support = SnapshotTestSupport

    static func fixtureDiff() throws -> CatalogDiff {
        CatalogDiff.between(old: try Support.fixture("fall.json").courses, new: try Support.fixture("winter.json").courses)
    }

    @Test func theFixturePairHasEachKindOfChange() throws {
        let diff = try Self.fixtureDiff()
        #expect(diff.added.map(\.name) == ["BIO 610", "CIS 380"])
        #expect(diff.removed.map(\.name) == ["CIS 101"])
        #expect(diff.renumbered.count == 1)
        let renumbered = try #require(diff.renumbered.first)
        let from = renumbered.from
        #expect([from.id, from.name, from.title] == ["cis-267", "CIS 267", "Computer Graphics"])
        #expect(renumbered.to.name == "CIS 367")
        #expect(renumbered.changes == [FieldChange(field: "offered", old: .string("winter semester"), new: .string("fall semester"))])
        #expect(diff.changed.map(\.name) == ["MTH 201"])
        let changes = try #require(diff.changed.first?.changes)
        #expect(changes == [
            FieldChange(field: "credits", old: .string("4"), new: .string("5")),
            FieldChange(field: "prerequisiteString", old: .string("MTH 123 and MTH 125."), new: .string("MTH 123 and MTH 125, or MTH 122.")),
            FieldChange(field: "fields.Repeatability", old: .string("Not repeatable."), new: .string("Repeatable once.")),
        ])
    }

    /// A code that a second course comes to share qualifies the first course's id; the diff names that an id
    /// change of one course, the new course an addition, and a run over the same pages again changes nothing.
    @Test func aCodeComingToBeSharedChangesAnIdAndAddsOneCourse() throws {
        let management = Support.course("MANA 7334", title: "Management Development", description: "Career stages.")
        let first = Support.capture(Normalizer().normalize(catalog: [Self.parsed(management)]), at: 1_000)
        var learning = Self.parsed(management)
        learning.title = "Learning Systems"
        learning.description = "Training."
        learning.sourceURL = "file:///pages/other.html"
        let both = Normalizer().normalize(catalog: [Self.parsed(management), learning])
        let (second, diff) = Support.capture(both, previous: first.snapshot, at: 2_000)
        #expect(diff.added.map(\.id) == ["mana-7334-learning-systems"])
        #expect(diff.removed.isEmpty && diff.renumbered.isEmpty)
        let moved = try #require(diff.changed.first)
        #expect(diff.changed.count == 1)
        #expect(moved.previousID == "mana-7334")
        #expect(moved.id == "mana-7334-management-development")
        #expect(moved.changes == [FieldChange(field: "id", old: .string("mana-7334"), new: .string("mana-7334-management-development"))])
        // The course keeps the time it was first seen.
        #expect(second.courses.first { $0.id == "mana-7334-management-development" }?.createdAt == first.snapshot.capturedAt)
        // The same pages again, in the other order: no change at all.
        let again = Support.capture(Normalizer().normalize(catalog: [learning, Self.parsed(management)]), previous: second, at: 3_000)
        #expect(again.diff.isEmpty)
        // And back to one course: the id change in the other direction, the other course removed.
        let back = Support.capture(Normalizer().normalize(catalog: [Self.parsed(management)]), previous: second, at: 4_000).diff
        #expect(back.removed.map(\.id) == ["mana-7334-learning-systems"])
        #expect(back.changed.map(\.previousID) == ["mana-7334-management-development"])
        #expect(back.changed.map(\.id) == ["mana-7334"])
    }

    /// The parsed form of a course built by `Support.course`, for catalog-wide normalization.
    static func parsed(_ course: Course) -> ParsedCourse {
        var parsed = ParsedCourse(code: course.code, title: course.title, sourceURL: course.parsed.sourceURL, system: course.parsed.system)
        parsed.description = course.description
        parsed.creditsText = course.creditsText
        return parsed
    }

    /// CIS 163 differs in white space, note order, an empty corequisite, 4 against 4.0 credits, the local file,
    /// the page URL, the edition's name, provenance, timestamps and fingerprint: none of which is a change.
    @Test func whiteSpaceOrderingAndComputedFieldsAreNotChanges() throws {
        let fall = try Support.fixture("fall.json"), winter = try Support.fixture("winter.json")
        let before = try #require(fall.courses.first { $0.id == "cis-163" })
        let after = try #require(winter.courses.first { $0.id == "cis-163" })
        #expect(before != after)
        #expect(ComparableCourse(before).fields == ComparableCourse(after).fields)
        #expect(ComparableCourse(before).fingerprint == ComparableCourse(after).fingerprint)
        #expect(try !Self.fixtureDiff().changed.contains { $0.id == "cis-163" })
    }

    @Test func aPublishedCatalogComparesWithASnapshot() throws {
        let bytes = try FileBytes.read(Support.snapshotFixtures.appendingPathComponent("catalog.json"), limit: FileBytes.Limit.document)
        let published = try CourseDocument.read(bytes) { $0 }.courses
        #expect(published.count == 7)
        let winter = try Support.fixture("winter.json")
        #expect(CatalogDiff.between(old: winter.courses, new: published).isEmpty)
        let fall = try Support.fixture("fall.json")
        #expect(CatalogDiff.between(old: fall.courses, new: published) == (try Self.fixtureDiff()))
    }

    /// White space in a compared text is collapsed wherever it stands (two spaces, a tab, a line break, a Unicode
    /// space, either end); text with nothing to collapse, dashes and accents included, is compared as it is.
    @Test(arguments: ["Data  Structures", " Data Structures", "Data Structures ", "Data\tStructures", "Data\nStructures",
                      "Data\u{A0}Structures", "Data \u{2009} Structures", "Data   Structures"])
    func whiteSpaceIsCollapsedWhereverItStands(_ title: String) throws {
        func canonical(_ title: String) -> JSONValue? {
            var record = CourseRecord(Support.course("CIS 1", title: "x"))
            record.title = title
            return ComparableCourse(record).fields["title"]
        }
        #expect(canonical(title) == canonical("Data Structures"))
        #expect(canonical("Données – Structures") == .string("Données – Structures"))
        #expect(canonical("Data Structures") != canonical("DataStructures"))
    }

    @Test func renumberingNeedsTheSameTitleAndDescription() {
        func courses(_ list: [(String, String, String)]) -> [CourseRecord] {
            list.map { CourseRecord(Support.course($0.0, title: $0.1, description: $0.2)) }
        }
        let old = courses([("CIS 267", "Graphics", "Pixels."), ("CIS 268", "Games", "Play."), ("CIS 290", "Topics", "Varies."),
                           ("CIS 291", "Topics", "Varies.")])
        let new = courses([("CIS 367", "Graphics", "Pixels."), ("CIS 368", "Games", "Play more."), ("CIS 390", "Topics", "Varies."),
                           ("CIS 391", "Topics", "Varies.")])
        let diff = CatalogDiff.between(old: old, new: new)
        // Look-alikes pair in code order.
        #expect(diff.renumbered.map { "\($0.from.name)>\($0.to.name)" } == ["CIS 267>CIS 367", "CIS 290>CIS 390", "CIS 291>CIS 391"])
        #expect(diff.added.map(\.name) == ["CIS 368"])
        #expect(diff.removed.map(\.name) == ["CIS 268"])
        #expect(diff.changed.isEmpty)
    }

    /// Issue 38: a title and description many subjects share is no evidence; the number kept under a renamed subject is.
    @Test func boilerplateAloneDoesNotRenumber() {
        let study = "Independent study under faculty supervision."
        func courses(_ list: [(String, String, String)]) -> [CourseRecord] {
            list.map { CourseRecord(Support.course($0.0, title: $0.1, description: $0.2)) }
        }
        let old = courses([("CHNS 3298", "Independent Study", study), ("DANC 3298", "Independent Study", study),
                           ("ART 1300", "Drawing I", "Line and form."), ("ART 3298", "Independent Study", study),
                           ("BIOL 4310", "Field Ecology", "Marsh and prairie.")])
        let new = courses([("CHIN 3298", "Independent Study", study), ("DANC 4298", "Independent Study", study),
                           ("ARTS 1300", "Drawing I", "Line and form."), ("ARTS 3298", "Independent Study", study),
                           ("ENVS 4410", "Field Ecology", "Marsh and prairie."), ("ARTS 2310", "Painting", "Oil, edited.")])
        let edited = CourseRecord(Support.course("ART 2310", title: "Painting", description: "Oil."))
        let diff = CatalogDiff.between(old: old + [edited], new: new)
        // ART → ARTS is a rename (Drawing I kept its number), so its Independent Study pairs, and Painting with its
        // description edited; nothing shows CHNS → CHIN or DANC 3298 → 4298 to be one course. A distinct title and
        // description pair across subjects and numbers.
        #expect(diff.renumbered.map { "\($0.from.name)>\($0.to.name)" }
                    == ["ART 1300>ARTS 1300", "BIOL 4310>ENVS 4410", "ART 3298>ARTS 3298", "ART 2310>ARTS 2310"])
        #expect(diff.renumbered.last?.changes.map(\.field) == ["description"])
        #expect(diff.added.map(\.name) == ["CHIN 3298", "DANC 4298"])
        #expect(diff.removed.map(\.name) == ["CHNS 3298", "DANC 3298"])
    }

    /// Issue 38: text that differs only in the space around punctuation is the same text, in a record written before
    /// that cleaning too.
    @Test func spaceAroundPunctuationIsNoChange() {
        var before = CourseRecord(Support.course("CIS 300", title: "Data ( Structures )", description: "Uses ENGL 1302 . Also C ; D !",
                                                 prerequisite: "ENGL 1301 , ENGL 1302 ."))
        let after = CourseRecord(Support.course("CIS 300", title: "Data (Structures)", description: "Uses ENGL 1302. Also C; D!",
                                                prerequisite: "ENGL 1301, ENGL 1302."))
        #expect(before.title == after.title && before.description == after.description)
        before.title = "Data ( Structures )"
        before.prerequisiteString = "ENGL 1301 , ENGL 1302 ."
        before.notes = ["Fee [ lab ] ."]
        var notes = after
        notes.notes = ["Fee [lab]."]
        #expect(CatalogDiff.between(old: [before], new: [notes]).isEmpty)
        notes.notes = ["Fee [lab] ."]
        #expect(CatalogDiff.between(old: [before], new: [notes]).isEmpty)
        notes.description = "Uses ENGL 1302. Also C; D?"
        #expect(CatalogDiff.between(old: [before], new: [notes]).changed.map { $0.changes.map(\.field) } == [["description"]])
    }

    @Test func identicalCatalogsHaveNoDiff() throws {
        let winter = try Support.fixture("winter.json")
        #expect(CatalogDiff.between(old: winter.courses, new: winter.courses.reversed()).isEmpty)
        #expect(CatalogDiff.between(old: [ComparableCourse](), new: []).isEmpty)
    }

    @Test func onlyKeepsTheKindsAskedFor() throws {
        let diff = try Self.fixtureDiff().only([.added, .renumbered])
        #expect(diff.added.count == 2 && diff.renumbered.count == 1)
        #expect(diff.removed.isEmpty && diff.changed.isEmpty)
    }

    @Test func jsonHasOneListPerKind() throws {
        let json = DiffReport.json(try Self.fixtureDiff())
        guard case let .object(members) = json else { Issue.record("not an object"); return }
        #expect(Set(members.keys) == ["added", "returned", "removed", "changed", "renumbered"])
        #expect(json["added"] == .array([
            .object(["id": .string("bio-610"), "name": .string("BIO 610"), "title": .string("Advanced Ecology")]),
            .object(["id": .string("cis-380"), "name": .string("CIS 380"), "title": .string("Machine Learning")]),
        ]))
        guard case let .array(changed)? = json["changed"], let mth = changed.first else { Issue.record("no changed"); return }
        #expect(mth["changes"]?["credits"] == .object(["old": .string("4"), "new": .string("5")]))
        guard case let .array(renumbered)? = json["renumbered"], let pair = renumbered.first else { Issue.record("no renumbered"); return }
        #expect(pair["from"] == .string("CIS 267"))
        #expect(pair["to"] == .string("CIS 367"))
        #expect(pair["id"] == .string("cis-367"))
    }

    @Test func theTextViewGroupsByKindAndColoursOnlyWhenAsked() throws {
        let diff = try Self.fixtureDiff()
        let plain = DiffReport.human(diff, old: "fall", new: "winter", colors: false)
        #expect(!plain.contains("\u{1B}["))
        for line in ["Added (2)", "  + BIO 610  Advanced Ecology", "Removed (1)", "  - CIS 101  Legacy Computing",
                     "  ~ CIS 267 → CIS 367  Computer Graphics", "      Offered: [-winter-]{+fall+} semester",
                     "  * MTH 201  Calculus I", "      Credits: [-4-]{+5+}", "      Repeatability: [-Not repeatable.-]{+Repeatable once.+}",
                     "2 added, 1 removed, 1 renumbered, 1 changed"] {
            #expect(plain.contains(line), "missing: \(line)\n\(plain)")
        }
        let coloured = DiffReport.human(diff, old: "fall", new: "winter", colors: true)
        #expect(coloured.contains("\u{1B}[31m[-4-]\u{1B}[0m\u{1B}[32m{+5+}\u{1B}[0m"))
    }

    @Test func longTextChangesShowThePartThatDiffers() {
        let old = "Study of organisms and their environment at the level of individuals, populations and ecosystems in Michigan."
        let new = "Study of organisms and their environment at the level of individuals, communities and ecosystems in Michigan."
        let excerpt = ChangeExcerpt(old: old, new: new)
        #expect(excerpt.removed == "populations")
        #expect(excerpt.inserted == "communities")
        #expect(excerpt.prefix.hasPrefix("…") && excerpt.prefix.hasSuffix("individuals, "))
        #expect(excerpt.suffix == " and ecosystems in Michigan.")
    }

    @Test func theMarkdownChangelogEscapesCatalogText() throws {
        var diff = try Self.fixtureDiff()
        let scripted = ComparableCourse(CourseRecord(Support.course("CIS 999", title: "<script>alert('x')</script> & *more*")))
        diff.added.append(scripted)
        let markdown = DiffReport.markdown(diff, old: "fall", new: "winter")
        #expect(markdown.hasPrefix("## Catalog changes: fall → winter\n\n3 added, 1 removed, 1 renumbered, 1 changed.\n"))
        #expect(markdown.contains("### Added (3)\n\n- **BIO 610** — Advanced Ecology"))
        #expect(markdown.contains("- **CIS 267** → **CIS 367** — Computer Graphics\n  - Offered: ~~winter~~ fall semester"))
        #expect(markdown.contains("  - Credits: ~~4~~ 5"))
        #expect(markdown.contains("  - Prerequisites: MTH 123 and MTH ~~125.~~ 125, or MTH 122."))
        #expect(markdown.contains("\\<script\\>alert('x')\\</script\\> \\& \\*more\\*"))
        #expect(!markdown.contains("<script>"))
        #expect(DiffReport.markdown(CatalogDiff(), old: "a", new: "b").contains("No changes."))
    }
}
