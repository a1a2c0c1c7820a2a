import Foundation

extension Snapshot {
    /// A new snapshot of a run's courses and its diff from the previous. A course keeps its `createdAt` (renumbered:
    /// that of its old code) and, unless a compared field or its id changed, its `updatedAt`; a new one gets now.
    /// `edition` labels it (`backfill`); a run's is the day.
    public static func capture(catalogID: String, source: JSONValue, pages: PageCounts, courses: [Course],
                               previous: Snapshot?, at date: Date, edition: String? = nil) -> (snapshot: Snapshot, diff: CatalogDiff) {
        let now = Timestamp.string(date)
        var snapshot = Snapshot(catalogID: catalogID, source: source, capturedAt: now, pages: pages,
                                courses: courses.map { CourseRecord($0) })
        snapshot.edition = edition
        let before = Dictionary((previous?.courses ?? []).map { ($0.id, $0) }) { _, last in last }
        let diff = CatalogDiff.between(old: (previous?.courses ?? []).map(ComparableCourse.init),
                                       new: snapshot.courses.map(ComparableCourse.init))
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
}
