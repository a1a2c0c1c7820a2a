/// One course as a snapshot keeps it: the published record (round-tripping exactly), its stamps, its comparable form.
public struct SnapshotCourse: Sendable, Equatable {
    /// Diagnostics a snapshot leaves out: how a page was read, not what the course is, and several times the size.
    public static let diagnosticKeys: [RecordKey] = [.sources, .warnings]

    /// The published fields, without the stamps.
    public private(set) var record: [String: JSONValue]
    /// When the course was first seen (RFC 3339, UTC); nil in a published catalog that does not say.
    public var createdAt: String?
    /// When one of its compared fields last changed.
    public var updatedAt: String?
    public let comparable: ComparableCourse

    public var id: String { comparable.id }
    public var name: String { comparable.name }
    public var title: String { comparable.title }

    /// The normalized course's record, without diagnostics and not yet stamped.
    public init(_ course: Course) {
        var record = course.record
        for key in Self.diagnosticKeys { record[key] = nil }
        // As the file will have them: a whole Double is written as an integer and read back as one.
        self.record = record.mapValues(\.wholeNumbersAsIntegers)
        comparable = ComparableCourse(id: course.id, name: course.code.description, title: course.title) { record[$0] }
    }

    /// Reads a record as a snapshot or a published catalog writes it; the stamps are optional here.
    public init(json: JSONValue) throws(FormatError) {
        guard case var .object(record) = json else {
            throw FormatError(message: "expected a course object, got \(json.shortDescription)")
        }
        func stamp(_ key: RecordKey) throws(FormatError) -> String? {
            switch record.removeValue(forKey: key.rawValue) {
            case nil, .null?: return nil
            case let .string(text)? where Timestamp.date(text) != nil: return text
            case let other?: throw FormatError(message: "expected \"\(key.rawValue)\" as a time like 2024-05-01T12:00:00Z, got \(other.shortDescription)")
            }
        }
        createdAt = try stamp(.createdAt)
        updatedAt = try stamp(.updatedAt)
        // The fingerprint is recomputed from the fields, so a stale or edited one cannot hide a change.
        record[.fingerprint] = nil
        self.record = record
        comparable = try ComparableCourse(record: record)
    }

    /// The record with its stamps, as the published catalog has it.
    public var stampedRecord: [String: JSONValue] {
        var object = record
        object[.createdAt] = .from(createdAt, JSONValue.string)
        object[.updatedAt] = .from(updatedAt, JSONValue.string)
        return object
    }

    /// The record with its stamps and fingerprint, as a snapshot has it.
    public var json: JSONValue {
        var object = stampedRecord
        object[.fingerprint] = .string(FNV1a.hex(comparable.fingerprint))
        return .object(object)
    }

    /// A string field of the record; nil when absent, null or empty.
    public func text(_ key: RecordKey) -> String? { text(key.rawValue) }

    /// The same under a key records no longer have (`pageUrl`, in snapshots from before `url` named the page everywhere).
    func text(_ key: String) -> String? { record[key]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } }
}

extension JSONValue {
    /// The same value with every whole `Double` as an `.int`, as writing and reading it back gives.
    var wholeNumbersAsIntegers: JSONValue {
        switch self {
        case let .double(value): return value.exactWholeNumber.map(JSONValue.int) ?? self
        case let .array(items): return .array(items.map(\.wholeNumbersAsIntegers))
        case let .object(members): return .object(members.mapValues(\.wholeNumbersAsIntegers))
        default: return self
        }
    }
}
