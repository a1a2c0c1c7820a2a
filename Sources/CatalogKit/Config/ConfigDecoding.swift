import Foundation

/// One problem in a configuration file, with the JSON path where it is and the form expected there.
public struct ConfigIssue: Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// What the decoding of one configuration shares: where its relative paths start, and every problem found so far.
/// A class, so that every value read from the file adds to one list.
final class ConfigContext {
    let file: URL
    private(set) var issues: [ConfigIssue] = []

    init(file: URL) { self.file = file }

    /// Thrown by an object that lacks what it needs to be made; its problems are already recorded.
    struct Incomplete: Error {}

    func fail(_ path: [ConfigPathStep], _ message: String) {
        // As users read a path: `catalogs[0].rules.labels["Pre.*"]`.
        let described = path.enumerated().map { index, step in
            switch step {
            case let .element(position): "[\(position)]"
            case let .member(name, quoted: true): "[\"\(name)\"]"
            case let .member(name, quoted: false): index == 0 ? name : ".\(name)"
            }
        }.joined()
        issues.append(ConfigIssue(path: path.isEmpty ? "(top level)" : described, message: message))
    }
}

/// A step of a JSON path: a member's name (a quoted one, a label pattern which may hold dots, is shown as `["…"]`), or
/// an element's place.
enum ConfigPathStep {
    case member(String, quoted: Bool)
    case element(Int)
}

/// A configuration section's type, made from its value by `ConfigValue.decode`: it reads the value with
/// `object(allowing:)`, records each problem on it, and throws `ConfigContext.Incomplete` when it cannot be made.
protocol ConfigDecodable {
    init(config: ConfigValue) throws
}

/// One value of a configuration read in the form a setting expects: nil, with the problem recorded at its path
/// ("expected …, got …" or "… but it is missing"), when it is not in that form. The types made of them are decoded
/// by `PipelineConfig.parse`, which collects every problem.
///
/// It reads the file's one parsed `JSONValue` tree: Foundation's `Decoder` made a container for every value asked
/// for, and a configuration of 200,000 announce channels took seconds to check.
struct ConfigValue {
    /// nil: a required member that is missing.
    let value: JSONValue?
    let path: [ConfigPathStep]
    let context: ConfigContext

    init(_ value: JSONValue?, path: [ConfigPathStep], context: ConfigContext) {
        (self.value, self.path, self.context) = (value, path, context)
    }

    var keys: [String] {
        guard case let .object(members) = value else { return [] }
        return members.keys.sorted()
    }

    var base: URL { context.file.deletingLastPathComponent() }

    /// The member `key` of an object, nil when absent; `quoted` shows it as `["key"]` in its path.
    subscript(key: String, quoted quoted: Bool = false) -> ConfigValue? {
        guard case let .object(members) = value, let member = members[key] else { return nil }
        return ConfigValue(member, path: path + [.member(key, quoted: quoted)], context: context)
    }

    /// The member `key`; its readers say "expected …, but it is missing" when it is absent.
    func required(_ key: String) -> ConfigValue {
        self[key] ?? ConfigValue(nil, path: path + [.member(key, quoted: false)], context: context)
    }

    func fail(_ message: String, at key: String? = nil) {
        context.fail(path + (key.map { [.member($0, quoted: false)] } ?? []), message)
    }

    /// How the value is described in a message: `"8"`, `true`, `an array`.
    var shown: String { value?.shortDescription ?? "nothing" }

    /// The value as `T` when `convert` finds it in that form, and `problem` finds nothing wrong with it (it returns
    /// the message otherwise).
    private func read<T>(_ expected: String, missing: String? = nil, _ convert: (JSONValue) -> T?,
                         _ problem: (T) -> String? = { _ in nil }) -> T? {
        guard let value else { fail("expected \(missing ?? expected), but it is missing"); return nil }
        guard let converted = convert(value) else { fail("expected \(expected), got \(shown)"); return nil }
        if let message = problem(converted) { fail(message); return nil }
        return converted
    }

    func string(_ problem: (String) -> String? = { _ in nil }) -> String? {
        read("a non-empty string", missing: "a string", \.stringValue) { $0.isEmpty ? "expected a non-empty string, got \"\"" : problem($0) }
    }

    /// Bounded, so nothing computed from it overflows.
    func integer(in range: ClosedRange<Int>) -> Int? { value(in: range, "an integer", Self.integer) }

    func integer(minimum: Int) -> Int? {
        read("an integer ≥ \(minimum)", Self.integer) { $0 >= minimum ? nil : "expected an integer ≥ \(minimum), got \($0)" }
    }

    /// A number, integer or not.
    func number(in range: ClosedRange<Double>) -> Double? { value(in: range, "a number", Self.number) }

    func bool() -> Bool? {
        read("true or false") { if case let .bool(flag) = $0 { flag } else { nil } }
    }

    /// An integer as JSON writes one: `3`, and also `3.0` or `1e2`, which are whole numbers too.
    private static func integer(_ value: JSONValue) -> Int? {
        switch value {
        case let .int(number): number
        case let .double(number): number.exactWholeNumber
        default: nil
        }
    }

    private static func number(_ value: JSONValue) -> Double? {
        switch value {
        case let .int(number): Double(number)
        case let .double(number): number
        default: nil
        }
    }

    private func value<T: Comparable>(in range: ClosedRange<T>, _ kind: String, _ convert: (JSONValue) -> T?) -> T? {
        let expected = "\(kind) from \(range.lowerBound) to \(range.upperBound)"
        return read(expected, convert) { range.contains($0) ? nil : "expected \(expected), got \($0)" }
    }

    func oneOf(_ choices: [String]) -> String? {
        string { choices.contains($0) ? nil : "expected one of \(choices.joined(separator: ", ")), got \"\($0)\"" }
    }

    func choice<T: RawRepresentable & CaseIterable>(_ type: T.Type) -> T? where T.RawValue == String {
        oneOf(T.allCases.map(\.rawValue)).flatMap(T.init(rawValue:))
    }

    /// A relative path that stays inside the configuration's directory (`PipelineConfig.confinedPath`), resolved.
    func confinedPath() -> URL? {
        string { PipelineConfig.confinedPath($0, base: base) == nil
            ? "expected a path inside \(base.path) (no \"..\", not absolute), got \"\($0)\"" : nil
        }.flatMap { PipelineConfig.confinedPath($0, base: base) }
    }

    /// A subject code: 1 to 6 letters (or &).
    func subjectCode() -> String? {
        string { (1...6).contains($0.count) && $0.allSatisfy({ $0.isLetter || $0 == "&" })
            ? nil : "expected a subject code of 1 to 6 letters, got \"\($0)\"" }
    }

    /// `read` of the value, or nil for JSON null.
    func nullable<T>(_ read: (ConfigValue) -> T?) -> T? {
        value == .null ? nil : read(self)
    }

    /// The value decoded as one of the configuration's own types.
    func decode<T: ConfigDecodable>(_ type: T.Type) -> T? {
        try? T(config: self)
    }

    /// The value as an object of `allowed` keys (any, when nil): keys it does not allow are problems, with a
    /// did-you-mean. Nil, with the problem recorded, when it is missing or not an object.
    func object(allowed: [String]? = nil) -> ConfigValue? {
        guard let value else { fail("expected an object, but it is missing"); return nil }
        guard case .object = value else { fail("expected an object, got \(shown)"); return nil }
        guard let allowed else { return self }
        for key in keys where !allowed.contains(key) {
            let hint = closestName(to: key, among: allowed, within: max(2, key.count / 3)).map { " (did you mean \"\($0)\"?)" } ?? ""
            fail("unknown key\(hint); allowed here: \(allowed.joined(separator: ", "))", at: key)
        }
        return self
    }

    /// `object(allowed:)` for a type's `init(config:)`: it cannot be made from anything but an object.
    func object(allowing allowed: [String]) throws -> ConfigValue {
        guard let object = object(allowed: allowed) else { throw ConfigContext.Incomplete() }
        return object
    }

    /// What `read` gives of each element, read at its own path (`path[index]`); `ifEmpty`: the problem with no element.
    func elements<T>(ifEmpty: String? = nil, _ read: (ConfigValue) -> T?) -> [T]? {
        guard let value else { fail("expected an array, but it is missing"); return nil }
        guard case let .array(items) = value else { fail("expected an array, got \(shown)"); return nil }
        if items.isEmpty, let ifEmpty { fail(ifEmpty) }
        var found: [T] = []
        found.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            if let element = read(ConfigValue(item, path: path + [.element(index)], context: context)) { found.append(element) }
        }
        return found
    }
}
