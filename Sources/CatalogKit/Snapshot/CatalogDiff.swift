/// One compared field's old and new value (`null` for none).
public struct FieldChange: Sendable, Equatable {
    public var field: String
    public var old: JSONValue
    public var new: JSONValue
}

/// What a diff shows of a course: its id, code and title.
public protocol NamedCourse: Sendable {
    var id: String { get }
    /// The canonical code, "CIS 367".
    var name: String { get }
    var title: String { get }
}

/// A course in both catalogs whose compared fields differ, named as the new catalog names it. Only its `changes` are
/// kept, not all its compared fields: when most courses change, a diff would otherwise hold both catalogs.
public struct ChangedCourse: NamedCourse, Sendable, Equatable {
    public var id: String
    public var name: String
    public var title: String
    public var changes: [FieldChange]
    /// The course's old id when a code shared (or no longer shared) with another course changed it; listed as `id` too.
    public var previousID: String?
}

/// A course that reappears under a new code with the same title and description.
public struct RenumberedCourse: Sendable, Equatable {
    public var from: ComparableCourse
    public var to: ComparableCourse
    /// Changes to its other compared fields, if any.
    public var changes: [FieldChange]
}

/// The kinds of difference, as `--only`, the JSON and news items name them.
public enum DiffKind: String, Sendable, Codable, CaseIterable {
    case added, removed, changed, renumbered
}

/// What changed between two catalogs: courses added, removed, changed (field by field) and renumbered.
public struct CatalogDiff: Sendable, Equatable {
    public var added: [ComparableCourse] = []
    public var removed: [ComparableCourse] = []
    public var changed: [ChangedCourse] = []
    public var renumbered: [RenumberedCourse] = []

    public init() {}

    public var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty && renumbered.isEmpty }

    /// The same diff with only the kinds asked for.
    public func only(_ kinds: Set<DiffKind>) -> CatalogDiff {
        var kept = CatalogDiff()
        if kinds.contains(.added) { kept.added = added }
        if kinds.contains(.removed) { kept.removed = removed }
        if kinds.contains(.changed) { kept.changed = changed }
        if kinds.contains(.renumbered) { kept.renumbered = renumbered }
        return kept
    }

    /// Compares two catalogs by course id (see `Builder`); of two courses with one id the first counts.
    public static func between(old: [ComparableCourse], new: [ComparableCourse]) -> CatalogDiff {
        var builder = Builder(old: old)
        for course in new { builder.add(course) }
        return builder.finish()
    }

    /// A diff built as the new catalog is read: unchanged courses are not kept, so a diff holds one catalog, not both.
    public struct Builder {
        private var oldByID: [String: ComparableCourse] = [:]
        private var newIDs: Set<String> = []
        private var added: [ComparableCourse] = []
        private var changed: [ChangedCourse] = []
        /// The ids met again in each catalog, in order: only the first course with an id is compared.
        public private(set) var repeatedIDs: (old: [String], new: [String]) = ([], [])

        public init(old: [ComparableCourse]) {
            oldByID.reserveCapacity(old.count)
            newIDs.reserveCapacity(old.count)
            for course in old { if oldByID[course.id] == nil { oldByID[course.id] = course } else { repeatedIDs.old.append(course.id) } }
        }

        /// Compares one course of the new catalog; a second course with an id already seen is ignored.
        public mutating func add(_ course: ComparableCourse) {
            guard newIDs.insert(course.id).inserted else { repeatedIDs.new.append(course.id); return }
            guard let before = oldByID[course.id] else {
                added.append(course)
                return
            }
            if before.fields != course.fields {
                changed.append(ChangedCourse(id: course.id, name: course.name, title: course.title,
                                             changes: fieldChanges(before, course)))
            }
        }

        /// The diff: old courses never seen are removals; removals and additions that look alike pair as renumberings.
        public func finish() -> CatalogDiff {
            var diff = CatalogDiff()
            var removed = oldByID.values.filter { !newIDs.contains($0.id) }.sorted { $0.id < $1.id }
            var added = self.added.sorted { $0.id < $1.id }
            // A course whose id a shared (or no longer shared) code changed is the same course: one code, one title.
            let reidentified = Self.pair(&removed, &added, by: \.name) { $0.title == $1.title }.map { from, to in
                let id = FieldChange(field: "id", old: .string(from.id), new: .string(to.id))
                return ChangedCourse(id: to.id, name: to.name, title: to.title, changes: [id] + fieldChanges(from, to),
                                     previousID: from.id)
            }
            diff.renumbered = Self.pair(&removed, &added, by: \.renumberingKey).map { from, to in
                RenumberedCourse(from: from, to: to, changes: fieldChanges(from, to))
            }
            diff.added = added
            diff.removed = removed
            diff.changed = (changed + reidentified).sorted { $0.id < $1.id }
            return diff
        }

        /// Pairs each added course with the first waiting removed one of its key that `matches` it, and takes both out.
        private static func pair(_ removed: inout [ComparableCourse], _ added: inout [ComparableCourse],
                                 by key: (ComparableCourse) -> String,
                                 matches: (ComparableCourse, ComparableCourse) -> Bool = { _, _ in true })
            -> [(from: ComparableCourse, to: ComparableCourse)] {
            var waiting: [String: [ComparableCourse]] = [:]
            for course in removed { waiting[key(course), default: []].append(course) }
            var pairs: [(from: ComparableCourse, to: ComparableCourse)] = []
            for course in added {
                let courseKey = key(course)
                guard let at = waiting[courseKey]?.firstIndex(where: { matches($0, course) }) else { continue }
                pairs.append((waiting[courseKey, default: []].remove(at: at), course))
            }
            let paired = Set(pairs.flatMap { [$0.from.id, $0.to.id] })
            removed.removeAll { paired.contains($0.id) }
            added.removeAll { paired.contains($0.id) }
            return pairs
        }
    }

    /// The compared fields whose values differ, in the order `CourseRecord.compared` lists them, then labelled fields by label.
    static func fieldChanges(_ old: ComparableCourse, _ new: ComparableCourse) -> [FieldChange] {
        let before = old.fields, after = new.fields
        func place(_ key: String) -> Int { CourseRecord.compared.firstIndex { $0.key == key } ?? Int.max }
        let keys = Set(before.keys).union(after.keys).sorted { lhs, rhs in
            place(lhs) != place(rhs) ? place(lhs) < place(rhs) : lhs < rhs
        }
        return keys.compactMap { key in
            let was = before[key] ?? .null, now = after[key] ?? .null
            return was == now ? nil : FieldChange(field: key, old: was, new: now)
        }
    }
}
