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
/// course, or a renumbering), the local file (`url`), the catalog site's page and the edition's name
/// (`pageUrl`, `catalog`: both change with every edition), how fields were read (`sources`, `levelSource`,
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

    /// Record keys compared as text, in the order changes are listed.
    static let textKeys = ["title", "description", "credits", "level", "prerequisiteString", "corequisiteString", "offered",
                           "contactHours", "notes", "rubricsUrl", "transitionPlanUrl"]

    /// Reads a course record (as `Course.json`, a snapshot or a published catalog gives it).
    public init(record: [String: JSONValue]) throws(CourseRecordError) {
        func required(_ key: String) throws(CourseRecordError) -> String {
            guard case let .string(value)? = record[key], !value.isEmpty else {
                throw CourseRecordError(message: "expected a non-empty string \"\(key)\", got \(record[key]?.shortDescription ?? "nothing")")
            }
            return value
        }
        self.init(id: try required("id"), name: try required("name"), title: try required("title"), record: record)
    }

    init(id: String, name: String, title: String, record: [String: JSONValue]) {
        self.id = id
        self.name = name
        self.title = title
        let fields = Self.comparedFields(record)
        canonical = JSONValue.object(fields).serialized(pretty: false)
        fingerprint = Self.fnv1a(canonical)
    }

    /// The fingerprint as a snapshot writes it: 16 hex digits.
    public var fingerprintText: String {
        let digits = String(fingerprint, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The compared fields, decoded from `canonical` (only courses that differ need them).
    public var fields: [String: JSONValue] {
        if case let .object(fields)? = try? JSONValue.parse(canonical) { return fields }
        return [:]
    }

    /// The compared fields of a record, canonical.
    static func comparedFields(_ record: [String: JSONValue]) -> [String: JSONValue] {
        var fields: [String: JSONValue] = [:]
        for key in textKeys where key != "credits" && key != "notes" {
            if let text = canonicalText(record[key]) { fields[key] = .string(text) }
        }
        if let credits = creditsText(record) { fields["credits"] = .string(credits) }
        if case let .array(notes)? = record["notes"] {
            let texts = Set(notes.compactMap { canonicalText($0) }).sorted()
            if !texts.isEmpty { fields["notes"] = .array(texts.map(JSONValue.string)) }
        }
        if case let .object(labelled)? = record["fields"] {
            for (label, value) in labelled {
                if let text = canonicalText(value) { fields["fields.\(TextCollapsing.collapse(label))"] = .string(text) }
            }
        }
        return fields
    }

    /// A string value with white space collapsed; nil for null, non-strings and empty text.
    static func canonicalText(_ value: JSONValue?) -> String? {
        guard case let .string(text)? = value else { return nil }
        let collapsed = TextCollapsing.collapse(text)
        return collapsed.isEmpty ? nil : collapsed
    }

    /// The credits as "3" or "1-3" from `creditRange`; else as written (`creditsText`); else the app's integer when positive.
    static func creditsText(_ record: [String: JSONValue]) -> String? {
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
        if case let .object(range)? = record["creditRange"], let low = number(range["min"]), let high = number(range["max"]) {
            return low == high ? format(low) : "\(format(low))-\(format(high))"
        }
        if let text = canonicalText(record["creditsText"]) { return text }
        if case let .int(credits)? = record["credits"], credits > 0 { return String(credits) }
        return nil
    }

    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
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
