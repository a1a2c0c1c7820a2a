import Foundation
import SafeLibXML

/// Any JSON value, for what has no fixed shape: a log line's fields, a diff's old and new values, Firestore's REST
/// bodies, a catalog's source as its configuration gave it.
public enum JSONValue: Sendable, Equatable, Codable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// A text as compared and shown: white space collapsed, and tightened around punctuation as `TextCleaner` does,
    /// so a record written before that cleaning compares as one written after; nil when nothing is left.
    public static func text(_ text: String?) -> JSONValue? {
        guard let text else { return nil }
        let collapsed = TextCleaner.tightened(TextCollapsing.collapse(text))
        return collapsed.isEmpty ? nil : .string(collapsed)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Int.self) {
            self = .int(number)
        } else if let number = try? container.decode(Double.self) {
            self = .double(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let items = try? container.decode([JSONValue].self) {
            self = .array(items)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case let .bool(flag): try container.encode(flag)
        case let .int(number): try container.encode(number)
        // JSON has no infinity or NaN.
        case let .double(number): if number.isFinite { try container.encode(number) } else { try container.encodeNil() }
        case let .string(text): try container.encode(text)
        case let .array(items): try container.encode(items)
        case let .object(members): try container.encode(members)
        }
    }

    /// The value of any `Encodable`, as its JSON reads.
    public init(encoding value: some Encodable) {
        let data = JSONFile.encoded(value, pretty: false)
        self = (try? JSONDecoder().decode(JSONValue.self, from: data)) ?? .null
    }

    /// The JSON text: pretty or compact, keys sorted either way.
    public func serialized(pretty: Bool = true) -> String {
        String(decoding: JSONFile.encoded(self, pretty: pretty), as: UTF8.self)
    }

    /// The same value with the one at `path` (member names and element places) replaced.
    func replacing(at path: some Collection<any CodingKey>, with replacement: JSONValue) -> JSONValue {
        guard let key = path.first else { return replacement }
        switch self {
        case var .array(items):
            guard let index = key.intValue, items.indices.contains(index) else { return self }
            items[index] = items[index].replacing(at: path.dropFirst(), with: replacement)
            return .array(items)
        case var .object(members) where members[key.stringValue] != nil:
            members[key.stringValue] = members[key.stringValue]?.replacing(at: path.dropFirst(), with: replacement)
            return .object(members)
        default:
            return self
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case let .object(members) = self { return members[key] }
        return nil
    }

    public var stringValue: String? { if case let .string(text) = self { text } else { nil } }

    /// How a value is described in an error message: `"8"`, `true`, `an array`.
    public var shortDescription: String {
        switch self {
        case .null: return "null"
        case let .bool(value): return value ? "true" : "false"
        case let .int(value): return String(value)
        case let .double(value): return String(value)
        case let .string(value): return "\"\(value)\""
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The value as people read it (a diff, a CSV cell): a string as is, a list joined by "; ", null as `none`.
    public func displayText(none: String) -> String {
        switch self {
        case .null: return none
        case let .string(text): return text
        case let .array(items): return items.map { $0.displayText(none: none) }.joined(separator: "; ")
        default: return serialized(pretty: false)
        }
    }
}

extension Double {
    /// The value as an `Int` when it is a whole number small enough to be exact (below 10^15); nil otherwise.
    /// Converting a larger or non-finite value with `Int(_:)` would stop the program.
    public var exactWholeNumber: Int? { isFinite && self == rounded() && Swift.abs(self) < 1e15 ? Int(self) : nil }
}
