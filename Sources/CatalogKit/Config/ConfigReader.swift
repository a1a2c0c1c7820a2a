
/// One problem in a configuration file, with the JSON path where it is and the form expected there.
public struct ConfigIssue: Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// Reads a JSON object tree by path, collecting every problem rather than stopping at the first.
///
/// Each accessor records what it expected when the value is missing or of the wrong kind, and
/// `finish(allowed:)` rejects keys nobody asked for, with a did-you-mean hint.
struct ConfigReader {
    private(set) var issues: [ConfigIssue] = []

    mutating func fail(_ path: String, _ message: String) {
        issues.append(ConfigIssue(path: path, message: message))
    }

    mutating func object(_ value: JSONValue?, _ path: String, required: Bool = true) -> [String: JSONValue]? {
        guard let value else {
            if required { fail(path, "expected an object, but it is missing") }
            return nil
        }
        guard case let .object(object) = value else {
            fail(path, "expected an object, got \(value.shortDescription)")
            return nil
        }
        return object
    }

    mutating func array(_ value: JSONValue?, _ path: String, required: Bool = true) -> [JSONValue]? {
        guard let value else {
            if required { fail(path, "expected an array, but it is missing") }
            return nil
        }
        guard case let .array(array) = value else {
            fail(path, "expected an array, got \(value.shortDescription)")
            return nil
        }
        return array
    }

    mutating func string(_ value: JSONValue?, _ path: String, required: Bool = true, nonEmpty: Bool = true) -> String? {
        guard let value else {
            if required { fail(path, "expected a string, but it is missing") }
            return nil
        }
        guard case let .string(string) = value, !(nonEmpty && string.isEmpty) else {
            fail(path, "expected a\(nonEmpty ? " non-empty" : "") string, got \(value.shortDescription)")
            return nil
        }
        return string
    }

    mutating func integer(_ value: JSONValue?, _ path: String, minimum: Int? = nil, required: Bool = true) -> Int? {
        guard let value else {
            if required { fail(path, "expected an integer\(minimum.map { " ≥ \($0)" } ?? ""), but it is missing") }
            return nil
        }
        let expected = "expected an integer\(minimum.map { " ≥ \($0)" } ?? "")"
        guard case let .int(integer) = value else {
            fail(path, "\(expected), got \(value.shortDescription)")
            return nil
        }
        if let minimum, integer < minimum {
            fail(path, "\(expected), got \(integer)")
            return nil
        }
        return integer
    }

    /// An integer within `range`; nil and no problem when absent. Settings that feed arithmetic (delays,
    /// timeouts, counts) are read this way, so no value can overflow what is computed from it.
    mutating func integer(_ value: JSONValue?, _ path: String, in range: ClosedRange<Int>) -> Int? {
        guard let value else { return nil }
        let expected = "expected an integer from \(range.lowerBound) to \(range.upperBound)"
        guard case let .int(integer) = value, range.contains(integer) else {
            fail(path, "\(expected), got \(value.shortDescription)")
            return nil
        }
        return integer
    }

    /// A number (integer or not) within `range`; nil and no problem when absent.
    mutating func number(_ value: JSONValue?, _ path: String, in range: ClosedRange<Double>) -> Double? {
        guard let value else { return nil }
        let number: Double
        switch value {
        case let .int(integer): number = Double(integer)
        case let .double(double): number = double
        default:
            fail(path, "expected a number from \(range.lowerBound) to \(range.upperBound), got \(value.shortDescription)")
            return nil
        }
        guard range.contains(number) else {
            fail(path, "expected a number from \(range.lowerBound) to \(range.upperBound), got \(value.shortDescription)")
            return nil
        }
        return number
    }

    mutating func bool(_ value: JSONValue?, _ path: String) -> Bool? {
        guard let value else { return nil }
        guard case let .bool(flag) = value else {
            fail(path, "expected true or false, got \(value.shortDescription)")
            return nil
        }
        return flag
    }

    mutating func oneOf(_ value: JSONValue?, _ path: String, _ choices: [String], required: Bool = true) -> String? {
        guard let string = string(value, path, required: required) else { return nil }
        guard choices.contains(string) else {
            fail(path, "expected one of \(choices.joined(separator: ", ")), got \"\(string)\"")
            return nil
        }
        return string
    }

    /// Rejects keys that are not in `allowed`, suggesting the closest allowed one.
    mutating func rejectUnknownKeys(_ object: [String: JSONValue], _ path: String, allowed: [String]) {
        for key in object.keys.sorted() where !allowed.contains(key) {
            let keyPath = path.isEmpty ? key : "\(path).\(key)"
            let closest = allowed.min { editDistance($0, key) < editDistance($1, key) }
            let hint = closest.flatMap { editDistance($0, key) <= max(2, key.count / 3) ? " (did you mean \"\($0)\"?)" : nil } ?? ""
            fail(keyPath, "unknown key\(hint); allowed here: \(allowed.joined(separator: ", "))")
        }
    }
}

/// Levenshtein distance, for did-you-mean hints.
public func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}
