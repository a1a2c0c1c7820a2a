import Foundation
/// One problem in a configuration file, with the JSON path where it is and the form expected there.
public struct ConfigIssue: Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// Reads a JSON object tree by path, recording every problem (what was expected where), not only the first.
struct ConfigReader {
    private(set) var issues: [ConfigIssue] = []

    mutating func fail(_ path: String, _ message: String) {
        issues.append(ConfigIssue(path: path, message: message))
    }

    /// The value `extract` reads, or nil with a problem: "expected …, got …" or (if `required`) "… but it is missing".
    private mutating func read<T>(_ value: JSONValue?, _ path: String, _ expected: String, required: Bool,
                                  missing: String? = nil, _ extract: (JSONValue) -> T?) -> T? {
        guard let value else {
            if required { fail(path, "expected \(missing ?? expected), but it is missing") }
            return nil
        }
        guard let result = extract(value) else {
            fail(path, "expected \(expected), got \(value.shortDescription)")
            return nil
        }
        return result
    }

    mutating func object(_ value: JSONValue?, _ path: String, required: Bool = true) -> [String: JSONValue]? {
        read(value, path, "an object", required: required) { if case let .object(object) = $0 { object } else { nil } }
    }

    mutating func array(_ value: JSONValue?, _ path: String, required: Bool = true) -> [JSONValue]? {
        read(value, path, "an array", required: required) { if case let .array(array) = $0 { array } else { nil } }
    }

    /// Each element of an optional array that `read` accepts, read at its own path (`path[index]`); nil without one.
    mutating func elements<T>(_ value: JSONValue?, _ path: String,
                              _ read: (inout ConfigReader, JSONValue, String) -> T?) -> [T]? {
        array(value, path, required: false)?.enumerated().compactMap { index, element in
            read(&self, element, "\(path)[\(index)]")
        }
    }

    mutating func string(_ value: JSONValue?, _ path: String, required: Bool = true) -> String? {
        read(value, path, "a non-empty string", required: required, missing: "a string") {
            if case let .string(string) = $0, !string.isEmpty { string } else { nil }
        }
    }

    /// A string `problem` finds nothing wrong with, or nil with the problem it names ("expected …, got …").
    mutating func string(_ value: JSONValue?, _ path: String, required: Bool = true,
                         _ problem: (String) -> String?) -> String? {
        guard let text = string(value, path, required: required) else { return nil }
        guard let message = problem(text) else { return text }
        fail(path, message)
        return nil
    }

    mutating func integer(_ value: JSONValue?, _ path: String, minimum: Int? = nil, required: Bool = true) -> Int? {
        read(value, path, "an integer\(minimum.map { " ≥ \($0)" } ?? "")", required: required) {
            if case let .int(integer) = $0, integer >= minimum ?? .min { integer } else { nil }
        }
    }

    /// An integer within `range`; nil and no problem when absent. Bounded, so nothing computed from it overflows.
    mutating func integer(_ value: JSONValue?, _ path: String, in range: ClosedRange<Int>) -> Int? {
        read(value, path, "an integer from \(range.lowerBound) to \(range.upperBound)", required: false) {
            if case let .int(integer) = $0, range.contains(integer) { integer } else { nil }
        }
    }

    /// A number (integer or not) within `range`; nil and no problem when absent.
    mutating func number(_ value: JSONValue?, _ path: String, in range: ClosedRange<Double>) -> Double? {
        read(value, path, "a number from \(range.lowerBound) to \(range.upperBound)", required: false) { value in
            value.doubleValue.flatMap { range.contains($0) ? $0 : nil }
        }
    }

    mutating func bool(_ value: JSONValue?, _ path: String) -> Bool? {
        read(value, path, "true or false", required: false) { if case let .bool(flag) = $0 { flag } else { nil } }
    }

    mutating func oneOf(_ value: JSONValue?, _ path: String, _ choices: [String], required: Bool = true) -> String? {
        string(value, path, required: required) {
            choices.contains($0) ? nil : "expected one of \(choices.joined(separator: ", ")), got \"\($0)\""
        }
    }

    /// A relative path that stays inside `base` (`PipelineConfig.confinedPath`), resolved against it.
    mutating func confinedPath(_ value: JSONValue?, _ path: String, base: URL, required: Bool = true) -> URL? {
        guard let text = string(value, path, required: required) else { return nil }
        guard let url = PipelineConfig.confinedPath(text, base: base) else {
            fail(path, "expected a path inside \(base.path) (no \"..\", not absolute), got \"\(text)\"")
            return nil
        }
        return url
    }

    /// A subject code: 1 to 6 letters (or &).
    mutating func subjectCode(_ value: JSONValue?, _ path: String) -> String? {
        string(value, path) { code in
            (1...6).contains(code.count) && code.allSatisfy({ $0.isLetter || $0 == "&" })
                ? nil : "expected a subject code of 1 to 6 letters, got \"\(code)\""
        }
    }

    /// Rejects keys that are not in `allowed`, suggesting the closest allowed one.
    mutating func rejectUnknownKeys(_ object: [String: JSONValue], _ path: String, allowed: [String]) {
        for key in object.keys.sorted() where !allowed.contains(key) {
            let keyPath = path.isEmpty ? key : "\(path).\(key)"
            let hint = closestName(to: key, among: allowed, within: max(2, key.count / 3)).map { " (did you mean \"\($0)\"?)" } ?? ""
            fail(keyPath, "unknown key\(hint); allowed here: \(allowed.joined(separator: ", "))")
        }
    }
}
