import Foundation
import SafeLibXML
import Testing
@testable import CatalogKit

/// A real year-over-year change: University of Houston's catalog 41 (2021-2022) → 44 (2022-2023), every
/// page parsed, normalized, snapshotted and diffed; the courses added and removed must be the manifests'
/// set differences.
@Suite struct YearOverYearTests {
    static let uh = RealPageTests.uh

    /// The canonical codes a manifest lists (column course_title, "ACCT 2301 -  Principles of …").
    static func manifestCodes(_ catalog: String) throws -> Set<String> {
        let text = try String(contentsOf: uh.appendingPathComponent("\(catalog).csv"), encoding: .utf8)
        var codes = Set<String>()
        for line in text.split(separator: "\n").dropFirst() {
            let columns = RealPageTests.csvFields(String(line))
            guard columns.count == 6, let code = CourseCode.leading(in: TextCollapsing.collapse(columns[5]))?.code else { continue }
            codes.insert(code.description)
        }
        return codes
    }

    static func snapshot(_ catalog: String, previous: Snapshot?, at time: TimeInterval) async -> (snapshot: Snapshot, diff: CatalogDiff) {
        let results = await RealPageTests.parseAll(uh.appendingPathComponent(catalog), system: .fixed(.acalog))
        let courses = Normalizer().normalize(catalog: results.flatMap(\.courses))
        let pages = PageCounts(expected: results.count, fetched: results.count, failed: 0)
        return Snapshot.capture(catalogID: "uh", source: CatalogSource.directory(uh.appendingPathComponent(catalog)).json, pages: pages,
                                courses: courses, previous: previous, at: Date(timeIntervalSince1970: time))
    }

    @Test func catalog41To44AddsAndRemovesWhatTheManifestsSay() async throws {
        let old = try Self.manifestCodes("41"), new = try Self.manifestCodes("44")
        #expect(old.count > 3800 && new.count > 3900)
        let first = await Self.snapshot("41", previous: nil, at: 1_630_000_000)
        let (second, diff) = await Self.snapshot("44", previous: first.snapshot, at: 1_660_000_000)
        #expect(Set(first.snapshot.courses.map(\.name)) == old)
        #expect(Set(second.courses.map(\.name)) == new)

        // A renumbering is one removal and one addition for this comparison.
        let added = Set(diff.added.map(\.name) + diff.renumbered.map(\.to.name))
        let removed = Set(diff.removed.map(\.name) + diff.renumbered.map(\.from.name))
        #expect(added == new.subtracting(old), "extra: \(added.subtracting(new.subtracting(old))), missing: \(new.subtracting(old).subtracting(added))")
        #expect(removed == old.subtracting(new), "extra: \(removed.subtracting(old.subtracting(new))), missing: \(old.subtracting(new).subtracting(removed))")
        #expect(diff.renumbered.allSatisfy { $0.from.title == $0.to.title })
        // The edition's name and every page URL changed; neither makes a course "changed". What does: 44's
        // pages label "Repeatability: No", which 41's left as a stray "No" at the end of the description.
        #expect(diff.changed.allSatisfy { !$0.changes.isEmpty })
        #expect(!diff.changed.contains { $0.changes.contains { ["catalog", "pageUrl", "url"].contains($0.field) } })
        let aams = try #require(diff.changed.first { $0.name == "AAMS 2300" })
        #expect(aams.changes.contains(FieldChange(field: "fields.Repeatability", old: .null, new: .string("No"))))

        // The snapshot of 44 reads back whole, with the first-seen times carried from 41.
        let read = try Snapshot(bytes: second.encoded())
        #expect(read == second)
        let kept = try #require(read.courses.first { $0.name == "ACCT 2301" })
        #expect(kept.createdAt == Timestamp.string(Date(timeIntervalSince1970: 1_630_000_000)))
        print("UH 41 → 44: \(diff.added.count) added, \(diff.removed.count) removed, \(diff.renumbered.count) renumbered, "
            + "\(diff.changed.count) changed; manifests: \(new.subtracting(old).count) added, \(old.subtracting(new).count) removed")
    }
}
