import Foundation
import Synchronization

/// One problem in a configuration file, with the JSON path where it is and the form expected there.
public struct ConfigIssue: Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// What the decoding of one configuration shares: where its relative paths start, and every problem found so far.
/// A class, so that every nested decoder adds to one list through `userInfo`.
final class ConfigContext: Sendable {
    static let key = CodingUserInfoKey(rawValue: "gvingest.config")!
    let file: URL
    let issues = Mutex<[ConfigIssue]>([])

    init(file: URL) { self.file = file }

    /// Thrown by an object that lacks what it needs to be made; its problems are already recorded.
    struct Incomplete: Error {}

    func fail(_ path: [any CodingKey], _ message: String) {
        // As users read a path: `catalogs[0].rules.labels["Pre.*"]`.
        let described = path.enumerated().map { index, key in
            if let position = key.intValue { return "[\(position)]" }
            if (key as? ConfigKey)?.quoted == true { return "[\"\(key.stringValue)\"]" }
            return index == 0 ? key.stringValue : ".\(key.stringValue)"
        }.joined()
        issues.withLock { $0.append(ConfigIssue(path: path.isEmpty ? "(top level)" : described, message: message)) }
    }
}

/// A member's name; a quoted one (a label pattern, which may hold dots) is shown as `["…"]`.
struct ConfigKey: CodingKey {
    var stringValue: String
    var quoted = false
    var intValue: Int? { nil }
    init(_ name: String, quoted: Bool = false) { (stringValue, self.quoted) = (name, quoted) }
    init(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { nil }
}

/// One value of a configuration read in the form a setting expects: nil, with the problem recorded at its path
/// ("expected …, got …" or "… but it is missing"), when it is not in that form. The types made of them are decoded
/// by `PipelineConfig.parse`, which collects every problem.
struct ConfigValue {
    /// nil: a required member that is missing.
    let decoder: (any Decoder)?
    let path: [any CodingKey]
    let context: ConfigContext

    /// The value's members when it is an object, made once: Foundation builds a container anew on each request,
    /// and a configuration of 200,000 announce channels asks for one several times a channel.
    private let members: KeyedDecodingContainer<ConfigKey>?

    init(_ decoder: (any Decoder)?, path: [any CodingKey], context: ConfigContext) {
        (self.decoder, self.path, self.context) = (decoder, path, context)
        members = try? decoder?.container(keyedBy: ConfigKey.self)
    }

    /// An object, as a type's `init(from:)` reads it: keys it does not allow are problems, with a did-you-mean.
    /// Throws (a `DecodingError`) when the value is not an object.
    init(object decoder: any Decoder, allowed: [String]? = nil) throws {
        _ = try decoder.container(keyedBy: ConfigKey.self)
        guard let context = decoder.userInfo[ConfigContext.key] as? ConfigContext else {
            let why = "decoded only by PipelineConfig.parse, which collects every problem"
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: why))
        }
        self.init(decoder, path: decoder.codingPath, context: context)
        guard let allowed else { return }
        for key in keys where !allowed.contains(key) {
            let hint = closestName(to: key, among: allowed, within: max(2, key.count / 3)).map { " (did you mean \"\($0)\"?)" } ?? ""
            fail("unknown key\(hint); allowed here: \(allowed.joined(separator: ", "))", at: key)
        }
    }

    var keys: [String] { (members?.allKeys ?? []).map(\.stringValue).sorted() }
    var base: URL { context.file.deletingLastPathComponent() }

    /// The member `key` of an object, nil when absent; `quoted` shows it as `["key"]` in its path.
    subscript(key: String, quoted quoted: Bool = false) -> ConfigValue? {
        let codingKey = ConfigKey(key, quoted: quoted)
        guard members?.contains(codingKey) == true, let member = try? members?.superDecoder(forKey: codingKey) else { return nil }
        return ConfigValue(member, path: member.codingPath, context: context)
    }

    /// The member `key`; its readers say "expected …, but it is missing" when it is absent.
    func required(_ key: String) -> ConfigValue { self[key] ?? ConfigValue(nil, path: path + [ConfigKey(key)], context: context) }

    func fail(_ message: String, at key: String? = nil) { context.fail(path + (key.map { [ConfigKey($0)] } ?? []), message) }

    /// How the value is described in a message: `"8"`, `true`, `an array`.
    var shown: String { decoder.flatMap { try? JSONValue(from: $0) }?.shortDescription ?? "an object" }

    /// The value as `T`, if `problem` finds nothing wrong with it (it returns the message otherwise).
    func read<T: Decodable>(_ expected: String, missing: String? = nil, _ problem: (T) -> String? = { _ in nil }) -> T? {
        guard let decoder else { fail("expected \(missing ?? expected), but it is missing"); return nil }
        guard let value = try? decoder.singleValueContainer().decode(T.self) else { fail("expected \(expected), got \(shown)"); return nil }
        if let message = problem(value) { fail(message); return nil }
        return value
    }

    func string(_ problem: (String) -> String? = { _ in nil }) -> String? {
        read("a non-empty string", missing: "a string") { $0.isEmpty ? "expected a non-empty string, got \"\"" : problem($0) }
    }

    /// Bounded, so nothing computed from it overflows.
    func integer(in range: ClosedRange<Int>) -> Int? { value(in: range, "an integer") }

    func integer(minimum: Int) -> Int? { read("an integer ≥ \(minimum)") { $0 >= minimum ? nil : "expected an integer ≥ \(minimum), got \($0)" } }

    /// A number, integer or not.
    func number(in range: ClosedRange<Double>) -> Double? { value(in: range, "a number") }

    private func value<T: Decodable & Comparable>(in range: ClosedRange<T>, _ kind: String) -> T? {
        let expected = "\(kind) from \(range.lowerBound) to \(range.upperBound)"
        return read(expected) { range.contains($0) ? nil : "expected \(expected), got \($0)" }
    }

    func bool() -> Bool? { read("true or false") }

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

    /// The value decoded as one of the configuration's own types.
    func decode<T: Decodable>(_ type: T.Type) -> T? {
        guard let decoder else { fail("expected an object, but it is missing"); return nil }
        do {
            return try T(from: decoder)
        } catch is ConfigContext.Incomplete {
        } catch {
            fail("expected an object, got \(shown)")
        }
        return nil
    }

    /// The value as an object of `allowed` keys (any, when nil), for a section without a type of its own.
    func object(allowed: [String]? = nil) -> ConfigValue? {
        guard let decoder else { fail("expected an object, but it is missing"); return nil }
        guard let object = try? ConfigValue(object: decoder, allowed: allowed) else { fail("expected an object, got \(shown)"); return nil }
        return object
    }

    /// What `read` gives of each element, read at its own path (`path[index]`); `ifEmpty`: the problem with no element.
    func elements<T>(ifEmpty: String? = nil, _ read: (ConfigValue) -> T?) -> [T]? {
        guard let decoder else { fail("expected an array, but it is missing"); return nil }
        guard var list = try? decoder.unkeyedContainer() else { fail("expected an array, got \(shown)"); return nil }
        if list.count == 0, let ifEmpty { fail(ifEmpty) }
        var found: [T] = []
        while !list.isAtEnd, let element = try? list.superDecoder() {
            if let value = read(ConfigValue(element, path: element.codingPath, context: context)) { found.append(value) }
        }
        return found
    }
}
