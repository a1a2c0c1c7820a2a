import SafeLibXML

/// A course reduced to what comparing catalogs needs: its identity and its compared fields, canonical, so that only
/// real changes differ. Compared: the fields `compared` lists (credits as "3" or "1-3", else as written; notes as a
/// set) and labelled fields as `fields.<label>`, white space collapsed, empty as none. Not compared, as they change
/// without the course changing: codes (a new code is another course, or a renumbering), `sourceUrl`, `url` and
/// `catalog` (every edition), how fields were read, requisite renderings, cross-catalog links, stamps, fingerprints.
public struct ComparableCourse: NamedCourse, Sendable, Equatable {
    public let id: String
    public let name: String
    public let title: String
    /// The compared fields as one compact JSON object: keys sorted, white space collapsed, empty values left out.
    public let canonical: String
    /// FNV-1a (64 bits) over `canonical`: computed when a snapshot is written, not for every course a diff reads.
    public var fingerprint: UInt64 { FNV1a.hash(canonical.utf8) }

    /// The compared fields in the order changes are listed (labelled fields follow, by label), each as people read it.
    static let compared: [(key: RecordKey, label: String)] = [
        (.title, "Title"), (.description, "Description"), (.credits, "Credits"), (.level, "Level"),
        (.prerequisiteString, "Prerequisites"), (.corequisiteString, "Corequisites"), (.offered, "Offered"),
        (.contactHours, "Contact hours"), (.notes, "Notes"), (.rubricsUrl, "Rubrics URL"), (.transitionPlanUrl, "Transition plan URL")]
    /// The fields compared as they are (credits, notes and labelled fields have rules of their own).
    static let plainKeys = compared.map(\.key).filter { $0 != .credits && $0 != .notes }
    /// A labelled field's key prefix: its label follows (`fields.Fee`).
    static let labelledPrefix = RecordKey.fields.rawValue + "."

    /// The record keys a comparable course is made from, in the order `init(selected:)` takes their values.
    public static let recordKeys: [RecordKey] = [.id, .name, .creditRange, .creditsText, .fields] + compared.map(\.key)

    /// Reads a course record (as `Course.record`, a snapshot or a published catalog gives it).
    public init(record: [String: JSONValue]) throws(FormatError) {
        try self.init(selected: Self.recordKeys.map { record[$0] })
    }

    /// Reads the values of `recordKeys`, by position, as a streaming reader selects them.
    public init(selected values: [JSONValue?]) throws(FormatError) {
        func value(_ key: RecordKey) -> JSONValue? {
            guard let index = Self.recordKeys.firstIndex(of: key), values.indices.contains(index) else { return nil }
            return values[index]
        }
        func required(_ key: RecordKey) throws(FormatError) -> String {
            guard case let .string(text)? = value(key), !text.isEmpty else {
                throw FormatError(message: "expected a non-empty string \"\(key.rawValue)\", got \(value(key)?.shortDescription ?? "nothing")")
            }
            return text
        }
        self.init(id: try required(.id), name: try required(.name), title: try required(.title), member: value)
    }

    init(id: String, name: String, title: String, member: (RecordKey) -> JSONValue?) {
        self.id = id
        self.name = name
        self.title = title
        // Written without building the JSON object: this runs for every course of both catalogs a diff reads.
        let fields = Self.comparedFields(member).sorted { $0.key < $1.key }
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        for (index, field) in fields.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONValue.writeString(field.key, into: &bytes)
            bytes.append(UInt8(ascii: ":"))
            field.value.write(into: &bytes, indentingLevels: 0, depth: 0)
        }
        bytes.append(UInt8(ascii: "}"))
        canonical = String(decoding: bytes, as: UTF8.self)
    }

    /// The compared fields, decoded from `canonical` (only courses that differ need them).
    public var fields: [String: JSONValue] {
        if case let .object(fields)? = try? JSONValue.parse(canonical) { return fields }
        return [:]
    }

    /// The compared fields of a record, canonical.
    static func comparedFields(_ record: (RecordKey) -> JSONValue?) -> [(key: String, value: JSONValue)] {
        var fields: [(key: String, value: JSONValue)] = []
        for key in plainKeys {
            if let text = canonicalText(record(key)) { fields.append((key.rawValue, .string(text))) }
        }
        if let credits = creditsText(record) { fields.append((RecordKey.credits.rawValue, .string(credits))) }
        if case let .array(notes)? = record(.notes) {
            let texts = Set(notes.compactMap { canonicalText($0) }).sorted()
            if !texts.isEmpty { fields.append((RecordKey.notes.rawValue, .array(texts.map(JSONValue.string)))) }
        }
        if case let .object(labelled)? = record(.fields) {
            // Labels that collapse to one keep the value of the first in label order.
            var seen = Set<String>()
            for (label, value) in labelled.sorted(by: { $0.key < $1.key }) {
                let key = labelledPrefix + TextCollapsing.collapse(label)
                if let text = canonicalText(value), seen.insert(key).inserted { fields.append((key, .string(text))) }
            }
        }
        return fields
    }

    /// A string value with white space collapsed; nil for null, non-strings and empty text.
    static func canonicalText(_ value: JSONValue?) -> String? {
        guard case let .string(text)? = value else { return nil }
        let result = TextCollapsing.collapse(text)
        return result.isEmpty ? nil : result
    }

    /// The credits as "3" or "1-3" from `creditRange`; else as written (`creditsText`); else the app's integer when positive.
    static func creditsText(_ record: (RecordKey) -> JSONValue?) -> String? {
        func format(_ value: Double) -> String { value.exactWholeNumber.map(String.init) ?? String(value) }
        if let low = record(.creditRange)?["min"]?.doubleValue, let high = record(.creditRange)?["max"]?.doubleValue {
            return low == high ? format(low) : "\(format(low))-\(format(high))"
        }
        if let text = canonicalText(record(.creditsText)) { return text }
        if case let .int(credits)? = record(.credits), credits > 0 { return String(credits) }
        return nil
    }

    /// What identifies a course across a renumbering: its title and description, canonical.
    var renumberingKey: String {
        let fields = self.fields
        return (fields[.title]?.stringValue ?? "") + "\u{0}" + (fields[.description]?.stringValue ?? "")
    }
}
