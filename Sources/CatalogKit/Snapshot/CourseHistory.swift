/// One thing that happened to a course in one edition of the catalog.
public struct CourseEvent: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable {
        case added, renumbered, changed, removed, returned
    }

    /// The edition's label ("2022-2023", or the day of a run).
    public var edition: String
    /// When that edition was captured (RFC 3339, UTC).
    public var date: String
    public var kind: Kind
    /// The code it had before a renumbering.
    public var from: String?
    /// The compared fields that changed.
    public var fields: [String]?

    /// For people: "added", "renumbered from HRMA 2197", "changed: Credits, Description".
    public var summary: String {
        switch kind {
        case .renumbered: "renumbered from \(from ?? "another code")"
        case .changed: "changed: " + (fields ?? []).map(DiffReport.label).joined(separator: ", ")
        default: kind.rawValue
        }
    }
}

/// A course that left the catalog, kept so that one coming back is the same course with a gap (`Snapshot.retired`).
public struct RetiredCourse: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var title: String
    public var firstEdition: String?
    public var createdAt: String?
    public var history: [CourseEvent]
    /// The label of the last edition that listed it (absent in snapshots written before it was kept).
    public var lastEdition: String?
}

extension Snapshot {
    /// Carries each course's first edition, `createdAt` and history from `previous` (following renumberings and courses
    /// that come back), adds what happened in this edition, and retires what left.
    mutating func stampHistory(previous: Snapshot?, diff: CatalogDiff) {
        let label = editionLabel
        let before = Dictionary((previous?.courses ?? []).map { ($0.id, $0) }) { first, _ in first }
        var retired = Dictionary((previous?.retired ?? []).map { ($0.id, $0) }) { first, _ in first }
        var renumberedFrom: [String: CourseRecord] = [:]
        for pair in diff.renumbered { renumberedFrom[pair.to.id] = before[pair.from.id] }
        for item in diff.changed { if let old = item.previousID.flatMap({ before[$0] }) { renumberedFrom[item.id] = old } }
        let changed = Dictionary(diff.changed.map { ($0.id, $0.changes.map(\.field)) }) { first, _ in first }
        func event(_ kind: CourseEvent.Kind, from: String? = nil, fields: [String]? = nil) -> CourseEvent {
            CourseEvent(edition: label, date: capturedAt, kind: kind, from: from, fields: fields)
        }
        for index in courses.indices {
            let id = courses[index].id
            if let old = before[id] ?? renumberedFrom[id] {
                courses[index].firstEdition = old.firstEdition
                var history = old.history ?? []
                if before[id] == nil {
                    history.append(event(.renumbered, from: old.name))
                } else if let fields = changed[id] {
                    history.append(event(.changed, fields: fields))
                }
                courses[index].history = old.history == nil && history.isEmpty ? nil : history
            } else if let gone = retired.removeValue(forKey: id) {
                courses[index].firstEdition = gone.firstEdition
                courses[index].createdAt = gone.createdAt ?? courses[index].createdAt
                courses[index].history = gone.history + [event(.returned)]
            } else {
                courses[index].firstEdition = label
                courses[index].history = [event(.added)]
            }
        }
        for gone in diff.removed {
            guard let old = before[gone.id] else { continue }
            retired[gone.id] = RetiredCourse(id: old.id, name: old.name, title: old.title, firstEdition: old.firstEdition,
                                             createdAt: old.createdAt, history: (old.history ?? []) + [event(.removed)],
                                             lastEdition: previous?.editionLabel)
        }
        self.retired = retired.values.sorted { $0.id < $1.id }
    }
}
