/// Every key of a course record, named once: what `parse --json` writes (`Course.record`), what a snapshot keeps and
/// `catalog.json` publishes (the record with its stamps), and what the diff, news, search, Firestore and CSV read.
/// One meaning, one name everywhere: `url` is the course's page on the catalog's site, `sourceUrl` where it was read.
public enum RecordKey: String, CaseIterable, Sendable {
    case catalog, contactHours, corequisite, corequisiteCourses, corequisiteMarkdown, corequisiteString, creditRange, credits,
         creditsText, description, fields, id, level, levelSource, missingReferences, name, notes, number, numberText, offered,
         prerequisite, prerequisiteCourses, prerequisiteFor, prerequisiteMarkdown, prerequisiteString, rubricsUrl, sourceUrl,
         sources, subject, suffix, system, title, transitionPlanUrl, url, warnings
    /// The stamps a snapshot adds to the record (`catalog.json`'s records have the times, not the fingerprint).
    case createdAt, updatedAt, fingerprint

    /// Every key in key order, as records are written.
    static let sorted = allCases.sorted { $0.rawValue < $1.rawValue }
}

extension Dictionary where Key == String {
    /// The member under a record key.
    public subscript(key: RecordKey) -> Value? {
        get { self[key.rawValue] }
        set { self[key.rawValue] = newValue }
    }
}

extension JSONValue {
    /// A member of an object under a record key, or nil.
    public subscript(key: RecordKey) -> JSONValue? { self[key.rawValue] }

    /// The text of a string, or nil.
    public var stringValue: String? { if case let .string(text) = self { text } else { nil } }
    /// A number as a `Double` (a record's whole numbers are integers), or nil.
    public var doubleValue: Double? { if case let .int(value) = self { Double(value) } else if case let .double(value) = self { value } else { nil } }
}
