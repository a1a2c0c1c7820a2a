import SafeLibXML

/// A course reduced to what comparing catalogs needs: its identity and its compared fields (`CourseRecord.compared`,
/// then labelled fields as `fields.<label>`), canonical, so that only real changes differ: white space collapsed,
/// empty as none, notes as a set.
public struct ComparableCourse: NamedCourse, Sendable, Equatable {
    public let id: String
    public let name: String
    public let title: String
    /// The subject and the number as written with its suffix ("CIS", "162L"): a renumbering keeps one of them.
    let subject: String
    let number: String
    /// The compared fields that have a value, by JSON name.
    public let fields: [String: JSONValue]
    /// What identifies a course across a renumbering: its title and description, canonical.
    let renumberingKey: String

    /// A labelled field's key prefix: its label follows (`fields.Fee`).
    static let labelledPrefix = "fields."

    public init(_ record: CourseRecord) {
        id = record.id
        name = record.name
        title = record.title
        subject = record.subject
        number = record.numberText + (record.suffix ?? "")
        var fields: [String: JSONValue] = [:]
        for field in CourseRecord.compared { fields[field.key] = field.value(record) }
        // Labels that collapse to one keep the value of the first in label order.
        for (label, value) in record.fields.sorted(by: { $0.key < $1.key }) {
            let key = Self.labelledPrefix + TextCollapsing.collapse(label)
            if fields[key] == nil { fields[key] = JSONValue.text(value) }
        }
        self.fields = fields
        renumberingKey = [record.title, record.description].map { JSONValue.text($0)?.stringValue ?? "" }.joined(separator: "\u{0}")
    }

    /// FNV-1a (64 bits) over the compared fields' compact JSON, keys sorted: a snapshot's `fingerprint`.
    public var fingerprint: String { FNV1a.hex(FNV1a.hash(JSONFile.encoded(fields, pretty: false))) }
}
