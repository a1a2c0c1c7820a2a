import SafeLibXML

/// Why a course record could not be read.
public struct CourseRecordError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// A course reduced to what comparing catalogs needs: its identity and the fields that say something
/// about the course itself, in a canonical form, so that only real changes differ.
///
/// Compared: `title`, `description`, `credits` (the credit range as text, "3" or "1-3"; the written text
/// when it is not understood), `level`, `prerequisiteString`, `corequisiteString`, `offered`,
/// `contactHours`, `rubricsUrl`, `transitionPlanUrl`, `notes` (as a set) and each labelled field as
/// `fields.<label>`. Text is compared with white space collapsed, and an empty value is the same as none.
///
/// Not compared, because they change without the course changing: the code fields (a new code is another
/// course, or a renumbering), where the page was read from (`sourceUrl`), the catalog site's page and the
/// edition's name (`url`, `catalog`: both change with every edition), how fields were read (`sources`, `levelSource`,
/// `warnings`), renderings of the requisite strings (the trees, the Markdown, the course lists), links
/// filled in across the catalog (`prerequisiteFor`, `missingReferences`), timestamps and fingerprints.
public struct ComparableCourse: Sendable, Equatable {
    public let id: String
    /// The canonical code, "CIS 367".
    public let name: String
    public let title: String
    /// The compared fields as one compact JSON object: keys sorted, white space collapsed, empty values left out.
    public let canonical: String
    /// FNV-1a (64 bits) over `canonical`'s UTF-8.
    public let fingerprint: UInt64

    /// The record members a comparable course is made from; a reader need not even build the others.
    enum Member: Int, CaseIterable {
        case id, name, title, description, credits, creditRange, creditsText, level, prerequisiteString, corequisiteString,
             offered, contactHours, notes, rubricsUrl, transitionPlanUrl, fields

        /// The record key, which is the case's name.
        var key: String { Self.keys[rawValue] }
        static let keys = allCases.map { "\($0)" }
    }

    /// The keys of the members, for `init(selected:)`.
    public static var recordKeys: [String] { Member.keys }

    /// Compared fields in the order changes are listed (labelled fields follow, by label).
    static let textKeys = ["title", "description", "credits", "level", "prerequisiteString", "corequisiteString", "offered",
                           "contactHours", "notes", "rubricsUrl", "transitionPlanUrl"]
    /// The members compared as they are (credits, notes and labelled fields have rules of their own).
    static let plainMembers: [Member] = [.title, .description, .level, .prerequisiteString, .corequisiteString, .offered,
                                         .contactHours, .rubricsUrl, .transitionPlanUrl]

    /// Reads a course record (as `Course.json`, a snapshot or a published catalog gives it).
    public init(record: [String: JSONValue]) throws(CourseRecordError) {
        try self.init(selected: Member.keys.map { record[$0] })
    }

    /// Reads the values of `recordKeys`, by position, as a streaming reader selects them.
    public init(selected values: [JSONValue?]) throws(CourseRecordError) {
        func required(_ member: Member) throws(CourseRecordError) -> String {
            let value = values.indices.contains(member.rawValue) ? values[member.rawValue] : nil
            guard case let .string(text)? = value, !text.isEmpty else {
                throw CourseRecordError(message: "expected a non-empty string \"\(member.key)\", got \(value?.shortDescription ?? "nothing")")
            }
            return text
        }
        self.init(id: try required(.id), name: try required(.name), title: try required(.title)) { member in
            values.indices.contains(member.rawValue) ? values[member.rawValue] : nil
        }
    }

    init(id: String, name: String, title: String, record: [String: JSONValue]) {
        self.init(id: id, name: name, title: title) { record[$0.key] }
    }

    init(id: String, name: String, title: String, member: (Member) -> JSONValue?) {
        self.id = id
        self.name = name
        self.title = title
        // The compared fields as one compact JSON object with sorted keys, written without building the
        // object: this runs for every course of both catalogs a diff reads.
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
        fingerprint = FNV1a.hash(bytes)
    }

    /// The fingerprint as a snapshot writes it: 16 hex digits.
    public var fingerprintText: String { FNV1a.hex(fingerprint) }

    /// The compared fields, decoded from `canonical` (only courses that differ need them).
    public var fields: [String: JSONValue] {
        if case let .object(fields)? = try? JSONValue.parse(canonical) { return fields }
        return [:]
    }

    /// The compared fields of a record, canonical.
    static func comparedFields(_ record: (Member) -> JSONValue?) -> [(key: String, value: JSONValue)] {
        var fields: [(key: String, value: JSONValue)] = []
        for member in plainMembers {
            if let text = canonicalText(record(member)) { fields.append((member.key, .string(text))) }
        }
        if let credits = creditsText(record) { fields.append(("credits", .string(credits))) }
        if case let .array(notes)? = record(.notes) {
            let texts = Set(notes.compactMap { canonicalText($0) }).sorted()
            if !texts.isEmpty { fields.append(("notes", .array(texts.map(JSONValue.string)))) }
        }
        if case let .object(labelled)? = record(.fields) {
            // Labels that collapse to one keep the value of the first in label order.
            var seen = Set<String>()
            for (label, value) in labelled.sorted(by: { $0.key < $1.key }) {
                let key = "fields.\(collapsed(label))"
                if let text = canonicalText(value), seen.insert(key).inserted { fields.append((key, .string(text))) }
            }
        }
        return fields
    }

    /// A string value with white space collapsed; nil for null, non-strings and empty text.
    static func canonicalText(_ value: JSONValue?) -> String? {
        guard case let .string(text)? = value else { return nil }
        let result = collapsed(text)
        return result.isEmpty ? nil : result
    }

    /// The text with white space collapsed, or the text itself when it has nothing to collapse (most do
    /// not, and checking is cheaper than copying).
    static func collapsed(_ text: String) -> String {
        var text = text
        let clean = text.withUTF8 { bytes in
            guard let first = bytes.first, let last = bytes.last, first != 0x20, last != 0x20 else { return bytes.isEmpty }
            var previousWasSpace = false
            for index in bytes.indices {
                let byte = bytes[index]
                if byte == 0x20 {
                    if previousWasSpace { return false }
                    previousWasSpace = true
                } else if byte < 0x20 || (byte >= 0x80 && TextCollapsing.spaceLength(bytes, at: index) > 0) {
                    return false
                } else {
                    previousWasSpace = false
                }
            }
            return true
        }
        return clean ? text : TextCollapsing.collapse(text)
    }

    /// The credits as "3" or "1-3" from `creditRange`; else as written (`creditsText`); else the app's integer when positive.
    static func creditsText(_ record: (Member) -> JSONValue?) -> String? {
        func number(_ value: JSONValue?) -> Double? {
            switch value {
            case let .int(integer)?: return Double(integer)
            case let .double(double)?: return double
            default: return nil
            }
        }
        func format(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        }
        if case let .object(range)? = record(.creditRange), let low = number(range["min"]), let high = number(range["max"]) {
            return low == high ? format(low) : "\(format(low))-\(format(high))"
        }
        if let text = canonicalText(record(.creditsText)) { return text }
        if case let .int(credits)? = record(.credits), credits > 0 { return String(credits) }
        return nil
    }

    /// What identifies a course across a renumbering: its title and description, canonical.
    var renumberingKey: String {
        let fields = self.fields
        func text(_ key: String) -> String {
            if case let .string(value)? = fields[key] { return value }
            return ""
        }
        return text("title") + "\u{0}" + text("description")
    }
}
