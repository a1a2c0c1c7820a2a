import Foundation

/// How gvingest writes and reads its JSON files: Foundation's coders, keys sorted and slashes left as they are, so a
/// file is the same bytes each run; a value that does not decode is named by its JSON path.
public enum JSONFile {
    /// The JSON of `value`, pretty or compact. Every type gvingest writes encodes (no infinite or NaN number reaches
    /// one), so a failure here is a bug, not bad input.
    public static func encoded(_ value: some Encodable, pretty: Bool = true) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(value)
        } catch {
            preconditionFailure("\(type(of: value)) did not encode: \(error)")
        }
    }

    /// A file's bytes: pretty JSON ending in a newline.
    public static func fileBytes(_ value: some Encodable) -> Data {
        encoded(value) + [0x0A]
    }

    /// Decodes `bytes`; the error says where the JSON is not what `T` needs ("courses[3].credits: …").
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: some Sequence<UInt8>) throws(FormatError) -> T {
        let data = Data(bytes)
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let DecodingError.dataCorrupted(context) where context.codingPath.isEmpty {
            throw FormatError(message: syntaxProblem(data) ?? hugeInteger(type, in: data) ?? "not valid JSON")
        } catch let error as DecodingError {
            throw FormatError(message: describe(error))
        } catch {
            throw FormatError(message: "\(error)")
        }
    }

    /// Where the text stops being JSON, as an editor shows it: Foundation's decoder says only "not valid JSON", its
    /// serializer "Invalid value around character 17", the offset of a byte. Nil when the text is JSON.
    static func syntaxProblem(_ json: Data) -> String? {
        let said: String
        do {
            _ = try JSONSerialization.jsonObject(with: json, options: .fragmentsAllowed)
            return nil
        } catch {
            said = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
        }
        let bytes = Array(json)
        guard let match = said.firstMatch(of: #/^(.*?) around character (\d+)\.?$/#), let offset = Int(match.2), offset < bytes.count else {
            return "not valid JSON: " + said.prefix(1).lowercased() + said.dropFirst().trimmingCharacters(in: CharacterSet(charactersIn: "."))
        }
        let found = String(decoding: bytes[offset...].prefix(4), as: UTF8.self).first.map { "unexpected character '\($0)'" }
        return "not valid JSON: \(position(of: offset, in: bytes)): "
            + (match.1 == "Invalid value" ? found ?? "" : match.1.lowercased())
    }

    /// "line 3, column 5: the key "fetch" appears twice": Foundation's decoder keeps one of two members with one
    /// name without a word, and in a configuration the other one's settings would be ignored.
    static func repeatedKey(in bytes: [UInt8]) -> String? {
        // A set of keys for each open object, nil for each open array, innermost last.
        var open: [Set<ArraySlice<UInt8>>?] = []
        var expectingKey = false, index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                let start = index
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") { index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1 }
                if expectingKey, var keys = open.last ?? nil {
                    let key = bytes[start..<min(index + 1, bytes.count)]
                    guard keys.insert(key).inserted else {
                        return "\(position(of: start, in: bytes)): the key \(String(decoding: key, as: UTF8.self)) "
                            + "appears twice"
                    }
                    open[open.count - 1] = keys
                }
                expectingKey = false
            case UInt8(ascii: "{"): open.append([]); expectingKey = true
            case UInt8(ascii: "["): open.append(nil); expectingKey = false
            case UInt8(ascii: "}"), UInt8(ascii: "]"): _ = open.popLast(); expectingKey = false
            case UInt8(ascii: ","): expectingKey = (open.last ?? nil) != nil
            default: break
            }
            index += 1
        }
        return nil
    }

    /// "line 3, column 5", as an editor counts them, for the byte at `offset`.
    private static func position(of offset: Int, in bytes: [UInt8]) -> String {
        let lines = bytes[..<offset].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        return "line \(lines.count), column \(String(decoding: lines.last ?? [], as: UTF8.self).count + 1)"
    }

    /// Foundation also calls valid JSON "not valid JSON" when an integer field holds a number past `Int`'s range:
    /// the first such number whose replacement by 0 lets `type` read the rest, by its JSON path.
    private static func hugeInteger<T: Decodable>(_ type: T.Type, in json: Data) -> String? {
        guard let root = try? JSONDecoder().decode(JSONValue.self, from: json) else { return nil }
        for (path, number) in hugeNumbers(in: root, at: []) {
            do {
                _ = try JSONDecoder().decode(type, from: encoded(root.replacing(at: path, with: .int(0)), pretty: false))
            } catch let DecodingError.dataCorrupted(context) where context.codingPath.isEmpty {
                continue
            } catch {}
            return "\(jsonPath(path)): \(number) is too large for an integer"
        }
        return nil
    }

    private static func hugeNumbers(in value: JSONValue, at path: [any CodingKey]) -> [([any CodingKey], Double)] {
        switch value {
        case let .double(number) where Swift.abs(number) >= 9.2e18: return [(path, number)]
        case let .array(items): return items.enumerated().flatMap { hugeNumbers(in: $1, at: path + [Index(intValue: $0)]) }
        case let .object(members):
            return members.sorted { $0.key < $1.key }.flatMap { hugeNumbers(in: $1, at: path + [Index(stringValue: $0)]) }
        default: return []
        }
    }

    /// A member's name or an element's place in a JSON path.
    private struct Index: CodingKey {
        var stringValue: String
        var intValue: Int?
        init(stringValue: String) { (self.stringValue, intValue) = (stringValue, nil) }
        init(intValue: Int) { (stringValue, self.intValue) = (String(intValue), intValue) }
    }

    /// A decoding error in a sentence that starts with its JSON path.
    static func describe(_ error: DecodingError) -> String {
        func at(_ path: [any CodingKey], _ message: String) -> String {
            path.isEmpty ? message : "\(jsonPath(path)): \(message)"
        }
        switch error {
        case let .typeMismatch(type, context):
            return at(context.codingPath, "expected \(typeName(type)), got \(found(context.debugDescription))")
        case let .valueNotFound(type, context):
            return at(context.codingPath, "expected \(typeName(type)), got null")
        case let .keyNotFound(key, context):
            return at(context.codingPath + [key], "missing")
        case let .dataCorrupted(context):
            return at(context.codingPath, context.debugDescription)
        @unknown default:
            return "\(error)"
        }
    }

    /// `courses[3].credits`.
    public static func jsonPath(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
        }
        return text
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type: return "an integer"
        case is Double.Type: return "a number"
        case is Bool.Type: return "true or false"
        default:
            let name = String(describing: type)
            return name.hasPrefix("Array") ? "an array" : name.hasPrefix("Dictionary") ? "an object" : "a \(name)"
        }
    }

    /// What Foundation says it found ("… but found a string instead." → "a string"), in JSON's words.
    private static func found(_ description: String) -> String {
        guard let range = description.range(of: "but found ") else { return description }
        let found = String(description[range.upperBound...]).replacingOccurrences(of: " instead", with: "")
            .trimmingCharacters(in: CharacterSet(charactersIn: ". "))
        return ["number": "a number", "string": "a string", "a dictionary": "an object", "dictionary": "an object", "array": "an array",
                "a bool": "true or false", "bool": "true or false", "null value": "null"][found] ?? found
    }
}
