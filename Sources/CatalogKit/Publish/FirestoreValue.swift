/// A Firestore field value as the REST API v1 carries it, canonical: equal exactly when Firestore holds the same thing
/// whatever the spelling (map order, integers as strings, a timestamp's zeros), which makes a publish incremental.
public indirect enum FirestoreValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int)
    case double(Double)
    /// RFC 3339 in UTC, normalized by `timestamp(rfc3339:)`.
    case timestamp(String)
    case string(String)
    case array([FirestoreValue])
    case map([String: FirestoreValue])

    /// A UTC timestamp from RFC 3339 text, else nil; Firestore answers `…55.000000Z` for `…55Z`, so the fraction loses
    /// its trailing zeros (and its dot when nothing is left) and both spellings compare equal.
    public static func timestamp(rfc3339 text: String) -> FirestoreValue? {
        let body = text.dropLast(), dot = body.firstIndex(of: ".") ?? body.endIndex
        // The whole seconds as `Timestamp` writes them, and a real instant: not "2025-13-45T99:99:99Z".
        guard text.hasSuffix("Z"), !text.hasPrefix("0000"), Timestamp.date(String(body[..<dot]) + "Z") != nil else { return nil }
        var fraction = body[dot...].dropFirst()
        guard (dot == body.endIndex) == fraction.isEmpty, fraction.count <= 9, fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        while fraction.last == "0" { fraction = fraction.dropLast() }
        return .timestamp(String(body[..<dot]) + (fraction.isEmpty ? "" : "." + fraction) + "Z")
    }

    /// The REST API's JSON for this value.
    public var rest: JSONValue {
        switch self {
        case .null: return .object(["nullValue": .null])
        case let .bool(flag): return .object(["booleanValue": .bool(flag)])
        case let .integer(number): return .object(["integerValue": .string(String(number))])
        case let .double(number): return .object(["doubleValue": .double(number)])
        case let .timestamp(text): return .object(["timestampValue": .string(text)])
        case let .string(text): return .object(["stringValue": .string(text)])
        case let .array(values):
            return .object(["arrayValue": values.isEmpty ? .object([:]) : .object(["values": .array(values.map(\.rest))])])
        case let .map(fields):
            return .object(["mapValue": fields.isEmpty ? .object([:]) : .object(["fields": .object(fields.mapValues(\.rest))])])
        }
    }

    /// A value as the REST API returns it; nil for a kind gvingest never writes, which then compares unequal.
    public init?(rest json: JSONValue) {
        guard case let .object(members) = json, members.count == 1, let (kind, payload) = members.first else { return nil }
        switch (kind, payload) {
        case ("nullValue", _): self = .null
        case let ("booleanValue", .bool(flag)): self = .bool(flag)
        case let ("integerValue", .string(text)): guard let number = Int(text) else { return nil }; self = .integer(number)
        case let ("integerValue", .int(number)): self = .integer(number)
        case let ("doubleValue", .double(number)): self = .double(number)
        case let ("doubleValue", .int(number)): self = .double(Double(number))
        case let ("timestampValue", .string(text)): guard let value = Self.timestamp(rfc3339: text) else { return nil }; self = value
        case let ("stringValue", .string(text)): self = .string(text)
        case let ("arrayValue", .object(array)):
            guard case let .array(values)? = array["values"] else { self = .array([]); return }
            let decoded = values.compactMap(FirestoreValue.init(rest:))
            guard decoded.count == values.count else { return nil }
            self = .array(decoded)
        case let ("mapValue", .object(map)):
            guard let fields = FirestoreValue.fields(rest: map["fields"]) else { return nil }
            self = .map(fields)
        default: return nil
        }
    }

    /// A document's `fields` object; nil when any field is not readable. A missing object is an empty document.
    public static func fields(rest json: JSONValue?) -> [String: FirestoreValue]? {
        guard let json else { return [:] }
        guard case let .object(members) = json else { return nil }
        let fields = members.compactMapValues(FirestoreValue.init(rest:))
        return fields.count == members.count ? fields : nil
    }

    /// Approximately how many bytes the value adds to a request, for keeping commits under Firestore's size limit.
    var restSize: Int {
        switch self {
        case .null, .bool: return 24
        case .integer, .double: return 40
        case let .timestamp(text), let .string(text): return 24 + text.utf8.count * 2
        case let .array(values): return 32 + values.reduce(0) { $0 + $1.restSize }
        case let .map(fields): return 32 + fields.reduce(0) { $0 + $1.key.utf8.count + 4 + $1.value.restSize }
        }
    }
}
