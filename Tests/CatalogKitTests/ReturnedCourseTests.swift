import Foundation
import Testing
@testable import CatalogKit

/// Issue 38, item 3: a course back after editions without it is neither new nor silent, unless the settings say so.
struct ReturnedCourseTests {
    typealias Support = SnapshotTestSupport
    static let year: TimeInterval = 365 * 86_400

    static func edition(_ label: String, _ courses: [Course], after previous: Snapshot?, at time: TimeInterval)
        -> (snapshot: Snapshot, diff: CatalogDiff) {
        Snapshot.capture(catalogID: "test", source: .null, pages: Support.pages, courses: courses, previous: previous,
                         at: Date(timeIntervalSince1970: time), edition: label)
    }

    @Test func aReturnIsItsOwnKindInTheDiffTheNewsAndTheMessages() throws {
        let stats = Support.course("STA 215", title: "Statistics", description: "Data and chance.")
        let optics = Support.course("PHY 310", title: "Optics", description: "Light and lenses.")
        let first = Self.edition("2019-2020", [stats, optics], after: nil, at: 0).snapshot
        let second = Self.edition("2020-2021", [stats], after: first, at: Self.year).snapshot
        #expect(second.retired.map(\.lastEdition) == ["2019-2020"])
        let new = Support.course("CIS 500", title: "New", description: "Fresh.")
        let (third, diff) = Self.edition("2021-2022", [stats, optics, new], after: second, at: 2 * Self.year)
        #expect(diff.added.map(\.name) == ["CIS 500"])
        #expect(diff.returned == [ReturnedCourse(course: ComparableCourse(CourseRecord(optics)), lastEdition: "2019-2020")])
        #expect(DiffReport.summary(diff) == "1 added, 1 returned, 0 removed, 0 renumbered, 0 changed")
        #expect(DiffReport.human(diff, old: "a", new: "b", colors: false).contains("Back in the catalog (1)\n  + PHY 310  Optics  (last listed in 2019-2020)"))
        #expect(DiffReport.markdown(diff, old: "a", new: "b").contains("### Back in the catalog (1)\n\n- **PHY 310** — Optics (last listed in 2019-2020)"))
        #expect(diff.only([.returned]).added.isEmpty && diff.only([.returned]).returned.count == 1)

        let items = NewsBuilder.items(diff: diff, previous: second, current: third, settings: NewsSettings())
        #expect(items.map(\.kind) == [.added, .returned])
        let back = try #require(items.last)
        #expect(back.title == "Back in the catalog: PHY 310 — Optics")
        #expect(back.description == "Last listed in 2019-2020.")
        #expect(back.content.hasPrefix("PHY 310 — Optics is back in the catalog, last listed in 2019-2020.\n\nLight and lenses."))
        let announcements = items.map { item in Announcement(item, course: third.courses.first { $0.id == item.courseId }) }
        #expect(ChannelMessages.headline(announcements, "GVSU", 0, 1) == "GVSU: 1 new course and 1 course back")
        #expect(ChannelMessages.headline(announcements + [announcements[0]], "GVSU", 0, 1)
                    .hasPrefix("GVSU: 2 new courses and 1 course back"))

        // Turned off, a return is no news at all; a course left out of a dated run is named by that run's day.
        let quiet = NewsBuilder.items(diff: diff, previous: second, current: third, settings: NewsSettings(announceReturns: false))
        #expect(quiet.map(\.kind) == [.added])
        let dated = Support.capture([stats], previous: third, at: 3 * Self.year).snapshot
        let (_, again) = Self.edition("2023-2024", [stats, optics], after: dated, at: 4 * Self.year)
        #expect(again.returned.first?.lastEdition == "2021-2022")
        let undated = Support.capture([stats], previous: nil, at: 5 * Self.year).snapshot
        let gone = Support.capture([stats], previous: Support.capture([stats, optics], previous: undated, at: 6 * Self.year).snapshot,
                                   at: 7 * Self.year).snapshot
        let (_, back2) = Support.capture([stats, optics], previous: gone, at: 8 * Self.year)
        #expect(DiffReport.lastListed(try #require(back2.returned.first)) == "last listed on 31 Dec 1975")
    }

    @Test func announceReturnsIsASettingOfItsOwn() throws {
        let file = URL(fileURLWithPath: "/tmp/pipeline.json")
        func news(_ json: String) throws -> NewsSettings {
            try PipelineConfig.parse(Data(#"{"schemaVersion": 1, "catalogs": [{"id": "x", "name": "X", "system": "gvsu", "source": {"directory": "p"}, "edition": "2024-2025"}], "news": \#(json)}"#.utf8),
                                     file: file).news
        }
        #expect(try news("{}").announceReturns)
        #expect(try !news(#"{"announceReturns": false}"#).announceReturns)
        #expect(throws: PipelineConfig.Invalid.self) { try news(#"{"announceReturn": false}"#) }
        do {
            _ = try news(#"{"announceReturn": false}"#)
        } catch {
            #expect("\(error)".contains(#"news.announceReturn: unknown key (did you mean "announceReturns"?)"#), "\(error)")
        }
        let config = try PipelineConfig.parse(Data(#"{"schemaVersion": 1, "catalogs": [{"id": "x", "name": "X", "system": "gvsu", "source": {"directory": "p"}, "edition": "Fall 2024"}]}"#.utf8), file: file)
        #expect(config.catalogs.first?.edition == "Fall 2024")
    }
}
