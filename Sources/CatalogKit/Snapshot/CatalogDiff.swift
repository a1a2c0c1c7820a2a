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

/// A course back in the catalog after editions without it: not new, the same course with a gap (`Snapshot.retired`).
public struct ReturnedCourse: NamedCourse, Sendable, Equatable {
    public var course: ComparableCourse
    /// The label of the last edition that listed it before the gap; nil when the history does not say.
    public var lastEdition: String?
    public var id: String { course.id }
    public var name: String { course.name }
    public var title: String { course.title }
}

/// The kinds of difference, as `--only`, the JSON and news items name them.
public enum DiffKind: String, Sendable, Codable, CaseIterable {
    case added, returned, removed, changed, renumbered
}

/// What changed between two catalogs: courses added, back, removed, changed (field by field) and renumbered.
public struct CatalogDiff: Sendable, Equatable {
    public var added: [ComparableCourse] = []
    public var returned: [ReturnedCourse] = []
    public var removed: [ComparableCourse] = []
    public var changed: [ChangedCourse] = []
    public var renumbered: [RenumberedCourse] = []

    public init() {}

    public var isEmpty: Bool { added.isEmpty && returned.isEmpty && removed.isEmpty && changed.isEmpty && renumbered.isEmpty }

    /// The same diff with only the kinds asked for.
    public func only(_ kinds: Set<DiffKind>) -> CatalogDiff {
        var kept = CatalogDiff()
        if kinds.contains(.added) { kept.added = added }
        if kinds.contains(.returned) { kept.returned = returned }
        if kinds.contains(.removed) { kept.removed = removed }
        if kinds.contains(.changed) { kept.changed = changed }
        if kinds.contains(.renumbered) { kept.renumbered = renumbered }
        return kept
    }

    /// Moves the added courses that the old catalog had retired (its snapshot's `retired`) to `returned`.
    public mutating func markReturns(_ retired: [RetiredCourse]) {
        guard !retired.isEmpty, !added.isEmpty else { return }
        let gone = Dictionary(retired.map { ($0.id, $0) }) { first, _ in first }
        returned += added.compactMap { course in gone[course.id].map { ReturnedCourse(course: course, lastEdition: $0.lastEdition) } }
        added.removeAll { gone[$0.id] != nil }
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
        /// Which title-and-description pairs more than one subject carries, in either catalog: boilerplate such as
        /// "Independent Study", which is no evidence that two courses are one. Kept by hash, so the new catalog's
        /// texts are let go as it is read.
        private var keySubjects = KeySubjects()
        private var added: [ComparableCourse] = []
        private var changed: [ChangedCourse] = []
        /// The ids met again in each catalog, in order: only the first course with an id is compared.
        public private(set) var repeatedIDs: (old: [String], new: [String]) = ([], [])

        public init(old: [ComparableCourse]) {
            oldByID.reserveCapacity(old.count)
            newIDs.reserveCapacity(old.count)
            for course in old { if oldByID[course.id] == nil { oldByID[course.id] = course } else { repeatedIDs.old.append(course.id) } }
            for course in oldByID.values { keySubjects.note(course, inNew: false) }
        }

        /// Compares one course of the new catalog; a second course with an id already seen is ignored.
        public mutating func add(_ course: ComparableCourse) {
            guard newIDs.insert(course.id).inserted else { repeatedIDs.new.append(course.id); return }
            keySubjects.note(course, inNew: true)
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
            let reidentified = Self.pair(&removed, &added, by: \.name) { $0.title == $1.title ? 0 : nil }.map { from, to in
                let id = FieldChange(field: "id", old: .string(from.id), new: .string(to.id))
                return ChangedCourse(id: to.id, name: to.name, title: to.title, changes: [id] + fieldChanges(from, to),
                                     previousID: from.id)
            }
            diff.renumbered = renumberings(&removed, &added).map { from, to in
                RenumberedCourse(from: from, to: to, changes: fieldChanges(from, to))
            }
            diff.added = added
            diff.removed = removed
            diff.changed = (changed + reidentified).sorted { $0.id < $1.id }
            return diff
        }

        /// Removed and added courses that are one course renumbered, on evidence: the same title and description
        /// that no other subject carries; or the number and title kept under a subject that other evidence shows
        /// renamed (ART 1300 → ARTS 1300), boilerplate or an edited description included. Boilerplate alone pairs nothing: `CHNS 3298 Independent Study` and
        /// `DANC 4298 Independent Study` are two courses.
        private func renumberings(_ removed: inout [ComparableCourse], _ added: inout [ComparableCourse])
            -> [(from: ComparableCourse, to: ComparableCourse)] {
            // The kept number first, then the same subject, then any other.
            let distinct = Self.pair(&removed, &added, by: \.renumberingKey) { from, to in
                keySubjects.isShared(from.renumberingKey) ? nil : from.number == to.number ? 0 : from.subject == to.subject ? 1 : 2
            }
            let renamed = Set(distinct.filter { $0.from.subject != $0.to.subject && $0.from.number == $0.to.number }
                .map { "\($0.from.subject) \($0.to.subject)" })
            let underRename = { (from: ComparableCourse, to: ComparableCourse) in
                from.number == to.number && renamed.contains("\(from.subject) \(to.subject)") ? 0 : nil
            }
            let boilerplate = Self.pair(&removed, &added, by: \.renumberingKey, rank: underRename)
            // Under a renamed subject, the number and title kept are evidence enough: the description may have been edited.
            let edited = Self.pair(&removed, &added, by: { JSONValue.text($0.title)?.stringValue ?? "" }, rank: underRename)
            return distinct + boilerplate + edited
        }

        /// Pairs each added course with the waiting removed one of its key that `rank` ranks first (lowest; nil: not
        /// at all; of equals the first), and takes both out.
        private static func pair(_ removed: inout [ComparableCourse], _ added: inout [ComparableCourse],
                                 by key: (ComparableCourse) -> String,
                                 rank: (ComparableCourse, ComparableCourse) -> Int? = { _, _ in 0 })
            -> [(from: ComparableCourse, to: ComparableCourse)] {
            var waiting: [String: [ComparableCourse]] = [:]
            for course in removed { waiting[key(course), default: []].append(course) }
            var pairs: [(from: ComparableCourse, to: ComparableCourse)] = []
            for course in added {
                let courseKey = key(course)
                let ranked = (waiting[courseKey] ?? []).enumerated().compactMap { index, from in rank(from, course).map { (index, $0) } }
                guard let at = ranked.min(by: { $0.1 < $1.1 })?.0 else { continue }
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

/// For each title and description, whether more than one subject carries it in the old or in the new catalog.
struct KeySubjects {
    /// By the FNV-1a hash of the key and the catalog: the first subject seen, and whether another followed.
    private var seen: [UInt64: (subject: String, several: Bool)] = [:]

    mutating func note(_ course: ComparableCourse, inNew: Bool) {
        let hash = Self.hash(course.renumberingKey, inNew: inNew)
        if let first = seen[hash] {
            if !first.several, first.subject != course.subject { seen[hash] = (first.subject, true) }
        } else {
            seen[hash] = (course.subject, false)
        }
    }

    func isShared(_ key: String) -> Bool {
        seen[Self.hash(key, inNew: false)]?.several == true || seen[Self.hash(key, inNew: true)]?.several == true
    }

    private static func hash(_ key: String, inNew: Bool) -> UInt64 {
        FNV1a.hash(key.utf8) ^ (inNew ? 0x9E37_79B9_7F4A_7C15 : 0)
    }
}
