import Foundation

extension Snapshot {
    /// A new snapshot of a run's courses and its diff from the previous. A course keeps its `createdAt` (renumbered:
    /// that of its old code) and, unless a compared field or its id changed, its `updatedAt`; a new one gets now.
    /// `edition` labels it (`backfill`); else the catalog's own title, as most of its pages give it ("2024-2025
    /// Undergraduate Catalog"); else `configuredEdition`; else the day.
    public static func capture(catalogID: String, source: JSONValue, pages: PageCounts, courses: [Course],
                               previous: Snapshot?, at date: Date, edition: String? = nil,
                               configuredEdition: String? = nil) -> (snapshot: Snapshot, diff: CatalogDiff) {
        let now = Timestamp.string(date)
        var snapshot = Snapshot(catalogID: catalogID, source: source, capturedAt: now, pages: pages,
                                courses: courses.map { CourseRecord($0) })
        snapshot.edition = edition ?? pagesEdition(snapshot.courses) ?? configuredEdition ?? String(now.prefix(10))
        let before = Dictionary((previous?.courses ?? []).map { ($0.id, $0) }) { _, last in last }
        var diff = CatalogDiff.between(old: (previous?.courses ?? []).map(ComparableCourse.init),
                                       new: snapshot.courses.map(ComparableCourse.init))
        diff.markReturns(previous?.retired ?? [])
        let changed = Set(diff.changed.map(\.id))
        var renumberedFrom: [String: String] = [:]
        for pair in diff.renumbered { renumberedFrom[pair.to.id] = pair.from.id }
        for item in diff.changed { if let oldID = item.previousID { renumberedFrom[item.id] = oldID } }

        for index in snapshot.courses.indices {
            let id = snapshot.courses[index].id
            let old = before[id] ?? renumberedFrom[id].flatMap { before[$0] }
            let created = old.map { $0.createdAt ?? previous?.capturedAt ?? now } ?? now
            snapshot.courses[index].createdAt = created
            let unchanged = before[id] != nil && !changed.contains(id)
            snapshot.courses[index].updatedAt = unchanged ? (before[id]?.updatedAt ?? created) : now
        }
        snapshot.stampHistory(previous: previous, diff: diff)
        return (snapshot, diff)
    }

    /// The edition most courses' pages name; of two as common, the first in order.
    static func pagesEdition(_ courses: [CourseRecord]) -> String? {
        let counts = Dictionary(courses.compactMap { $0.catalog.flatMap { $0.isEmpty ? nil : ($0, 1) } }, uniquingKeysWith: +)
        return counts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
    }

    /// The label its history uses: its edition's, else (a snapshot from before runs recorded one) its day.
    public var editionLabel: String { edition ?? String(capturedAt.prefix(10)) }

    /// For people: "2022-2023 Undergraduate Catalog (1 Aug 2022)", or the day alone when the edition is no more.
    public var shownName: String {
        let day = Timestamp.day(capturedAt) ?? capturedAt
        let label = EditionLabel.shown(editionLabel)
        return label == day ? day : "\(label) (\(day))"
    }
}

/// Edition labels as people read them: a day label ("2024-09-01", what runs before named editions recorded) as a date.
public enum EditionLabel {
    public static func shown(_ label: String) -> String { Timestamp.day(label) ?? label }
}
