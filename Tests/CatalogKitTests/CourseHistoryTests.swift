import Foundation
import Testing
@testable import CatalogKit

/// Issue 34: a course's first edition and timeline, carried from snapshot to snapshot.
struct CourseHistoryTests {
    typealias Support = SnapshotTestSupport
    static let year: TimeInterval = 365 * 86_400

    static func edition(_ label: String, _ courses: [Course], after previous: Snapshot?, at time: TimeInterval) -> Snapshot {
        Snapshot.capture(catalogID: "test", source: .null, pages: Support.pages, courses: courses, previous: previous,
                         at: Date(timeIntervalSince1970: time), edition: label).snapshot
    }

    @Test func aRenumberedCourseKeepsItsFirstEditionAndAReturningOneIsOneCourseWithAGap() throws {
        let stats = Support.course("MTH 215", title: "Statistics", description: "Data and chance.")
        let optics = Support.course("PHY 310", title: "Optics", description: "Light.")
        let first = Self.edition("2019-2020", [stats, optics], after: nil, at: 0)
        let second = Self.edition("2020-2021", [Support.course("STA 215", title: "Statistics", description: "Data and chance.")],
                                  after: first, at: Self.year)
        #expect(second.retired.map(\.id) == ["phy-310"])
        let third = Self.edition("2021-2022", [Support.course("STA 215", title: "Statistics", description: "Data, chance and models."),
                                               optics, Support.course("CIS 500", title: "New")], after: second, at: 2 * Self.year)
        let byID = Dictionary(uniqueKeysWithValues: third.courses.map { ($0.id, $0) })
        let renumbered = try #require(byID["sta-215"])
        #expect(renumbered.firstEdition == "2019-2020" && renumbered.createdAt == "1970-01-01T00:00:00Z")
        #expect(renumbered.history?.map(\.kind) == [.added, .renumbered, .changed])
        #expect(renumbered.history?[1].from == "MTH 215" && renumbered.history?[2].fields == ["description"])
        let returned = try #require(byID["phy-310"])
        #expect(returned.firstEdition == "2019-2020" && returned.createdAt == "1970-01-01T00:00:00Z")
        #expect(returned.history?.map(\.kind) == [.added, .removed, .returned])
        #expect(returned.history?.map(\.edition) == ["2019-2020", "2020-2021", "2021-2022"])
        #expect(byID["cis-500"]?.firstEdition == "2021-2022" && byID["cis-500"]?.history?.map(\.kind) == [.added])
        #expect(third.retired.isEmpty)
        // The history survives the file, and a run whose pages and configuration name no edition labels by its day.
        let read = try Snapshot(bytes: third.encoded())
        #expect(read == third && read.edition == "2021-2022")
        let run = Support.capture([optics], previous: read, at: 3 * Self.year).snapshot
        #expect(run.edition == "1972-12-31" && run.retired.map(\.id) == ["cis-500", "sta-215"])
        #expect(run.retired.first { $0.id == "sta-215" }?.history.last == CourseEvent(edition: "1972-12-31", date: "1972-12-31T00:00:00Z", kind: .removed))
    }

    @Test func aSnapshotWrittenBeforeHistoriesStartsNone() throws {
        var old = Support.capture([Support.course("CIS 162", title: "CS I")], at: 0).snapshot
        old.courses[0].firstEdition = nil
        old.courses[0].history = nil
        let next = Support.capture([Support.course("CIS 162", title: "CS I"), Support.course("CIS 163", title: "CS II")],
                                   previous: old, at: Self.year).snapshot
        #expect(next.courses[0].firstEdition == nil && next.courses[0].history == nil)
        #expect(next.courses[1].firstEdition == "1971-01-01")
    }

    @Test(arguments: [("2021-2022", "2021-08-01T00:00:00Z"), ("2019", "2019-08-01T00:00:00Z"), ("Fall 2020", nil),
                      ("20211", nil), ("0999-1000", nil)])
    func anEditionIsDatedByItsLabelsFirstYear(_ label: String, _ expected: String?) {
        #expect(Backfill.Edition.defaultDate(label: label).map(Timestamp.string) == expected)
    }

    /// Issue 38: a run records its edition by the catalog's own title where the pages carry one, else by the
    /// configuration's `edition`, else by its day; people read the day as a date.
    @Test func aRunNamesItsEditionAsThePagesDo() throws {
        var titled = Self.parsedCourse("CIS 162", catalog: "2024-2025 Undergraduate Catalog")
        let courses = Normalizer().normalize(catalog: [titled, Self.parsedCourse("CIS 163", catalog: "2024-2025 Undergraduate Catalog"),
                                                       Self.parsedCourse("CIS 164", catalog: "2023-2024 Undergraduate Catalog")])
        func run(_ courses: [Course], configured: String? = nil, at time: TimeInterval = 1_722_470_400) -> Snapshot {
            Snapshot.capture(catalogID: "test", source: .null, pages: Support.pages, courses: courses, previous: nil,
                             at: Date(timeIntervalSince1970: time), configuredEdition: configured).snapshot
        }
        let named = run(courses, configured: "Fall")
        #expect(named.edition == "2024-2025 Undergraduate Catalog")
        #expect(named.courses.allSatisfy { $0.firstEdition == "2024-2025 Undergraduate Catalog" })
        #expect(named.shownName == "2024-2025 Undergraduate Catalog (1 Aug 2024)")
        titled.catalogName = nil
        let untitled = Normalizer().normalize(catalog: [titled])
        #expect(run(untitled, configured: "Fall 2024").edition == "Fall 2024")
        let dated = run(untitled)
        #expect(dated.edition == "2024-08-01" && dated.courses[0].history?.first?.date == "2024-08-01T00:00:00Z")
        #expect(dated.shownName == "1 Aug 2024" && EditionLabel.shown("2024-08-01") == "1 Aug 2024")
        #expect(Timestamp.day("2026-12-06T13:41:55Z") == "6 Dec 2026" && Timestamp.dayAndTime("2026-12-06T13:41:55Z") == "6 Dec 2026, 13:41 UTC")
        #expect(Timestamp.day("2022-2023") == nil && EditionLabel.shown("2022-2023") == "2022-2023")
    }

    static func parsedCourse(_ code: String, catalog: String?) -> ParsedCourse {
        var parsed = ParsedCourse(code: CourseCode(parsing: code) ?? CourseCode(subject: "X", number: "00"), title: "Course \(code)",
                                  sourceURL: "file:///pages/\(code).html", system: .acalog)
        parsed.catalogName = catalog
        return parsed
    }
}
