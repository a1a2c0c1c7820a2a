import Foundation
import Testing
@testable import CatalogKit

/// `JSONValue(parsing:)`, the reader of configurations, against Foundation's: the same tree for every text Foundation
/// reads, and nothing for a text Foundation refuses.
@Suite struct JSONParsingTests {
    /// Foundation's tree; a whole number it read as `Double` compares equal to the same number read as `Int`.
    static func foundation(_ bytes: [UInt8]) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
    }

    static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case let (.int(x), .double(y)), let (.double(y), .int(x)): return Double(x) == y
        case let (.array(x), .array(y)): return x.count == y.count && zip(x, y).allSatisfy(same)
        case let (.object(x), .object(y)): return x.keys.sorted() == y.keys.sorted() && x.allSatisfy { key, value in y[key].map { same(value, $0) } ?? false }
        default: return a == b
        }
    }

    @Test func theRepositorysJSONReadsAsFoundationReadsIt() throws {
        let files = ["pipeline.json", "Fixtures/pipeline.json", "Fixtures/compat-3119637/pipeline.json", "schemas/catalog.schema.json",
                     "Fixtures/gvsu/index.json"].map { TestPaths.packageRoot.appendingPathComponent($0) }
        for file in files {
            let bytes = try Array(Data(contentsOf: file))
            let ours = try #require(JSONValue(parsing: bytes), "\(file.path)")
            let theirs = try #require(Self.foundation(bytes))
            #expect(Self.same(ours, theirs), "\(file.lastPathComponent)")
        }
    }

    @Test(arguments: [
        #"{"a": [1, -2.5, true, false, null, "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"], "b": {}, "c": [], "d": {"e": {"f": [[]]}}}"#,
        " \t\r\n 0 ", "-0", "3.0", "1e2", "-1.25E-3", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
        #""é and 😀 as UTF-8""#, #""\u0000""#, "[1,2,3]", "[1, 2, ]", #"{"a": 1 , }"#, #"{"a":1,"b":{"a":2}}"#, "12345678901234567890123",
    ])
    func whatFoundationReadsReadsTheSame(_ text: String) throws {
        let bytes = Array(text.utf8)
        let ours = try #require(JSONValue(parsing: bytes))
        let theirs = try #require(Self.foundation(bytes))
        #expect(Self.same(ours, theirs), "\(ours) against \(theirs)")
    }

    @Test(arguments: [
        "", " ", "[,]", "[1,,]", #"{,}"#, #"{"a":1,,}"#, "01", "-01", "1.", ".5", "-", "1e", "1e+", "+1", "0x10", "NaN", "Infinity", "1e999",
        #""\x""#, #""\ud800""#, #""\udc00""#, #""\ud800\u0041""#, #""\u12g4""#, "\"a\u{01}b\"", "\"open", "tru", "nul", "falsey",
        "[1 2]", #"{"a" 1}"#, "{1: 2}", "{'a': 1}", "1 2", "[", "]", "{", #"{"a":"#, "/* no */ 1", "[1] x",
    ])
    func whatFoundationRefusesIsRefused(_ text: String) {
        let bytes = Array(text.utf8)
        #expect(JSONValue(parsing: bytes) == nil)
        #expect(Self.foundation(bytes) == nil, "Foundation reads it")
    }

    @Test func bytesThatAreNotUTF8AreRefused() {
        for bytes: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0x5C, 0x6E, 0xFE, 0x22]] {
            #expect(JSONValue(parsing: bytes) == nil, "\(bytes)")
            #expect(Self.foundation(bytes) == nil, "Foundation reads \(bytes)")
        }
    }

    /// Deeper than Foundation reads is refused, not a crash of the stack; as deep as it reads is read.
    @Test func nestingIsBounded() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(JSONValue(parsing: Array(deep.utf8)) == nil)
        let found = PipelineConfigTests.issues(#"{"schemaVersion": 1, "catalogs": "# + deep + "}")
        #expect(found.count == 1 && found[0].hasPrefix("not valid JSON"), "\(found)")
        let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(JSONValue(parsing: Array(fine.utf8)) != nil)
    }

    /// Random trees written by `JSONFile` read back as they were.
    @Test func writtenTreesReadBack() {
        var generator = XorShift(seed: 40)
        for _ in 0..<300 {
            let tree = Self.randomTree(depth: 0, using: &generator)
            for pretty in [false, true] {
                #expect(JSONValue(parsing: Array(JSONFile.encoded(tree, pretty: pretty))) == tree)
            }
        }
    }

    static func randomTree(depth: Int, using generator: inout XorShift) -> JSONValue {
        let kinds = depth > 4 ? 5 : 7
        switch Int(generator.next() % UInt64(kinds)) {
        case 0: return .null
        case 1: return .bool(generator.next() % 2 == 0)
        case 2: return .int(Int(truncatingIfNeeded: generator.next()) >> Int(generator.next() % 64))
        case 3: return .double(Double(Int(truncatingIfNeeded: generator.next() % 2_000_001) - 1_000_000) / 64 + 1.0 / 128)
        case 4:
            let alphabet = Array("aé😀\"\\/\n\t\u{1} {}[],:")
            return .string(String((0..<Int(generator.next() % 12)).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }))
        case 5: return .array((0..<Int(generator.next() % 5)).map { _ in randomTree(depth: depth + 1, using: &generator) })
        default:
            var members: [String: JSONValue] = [:]
            for index in 0..<Int(generator.next() % 5) { members["k\(index)\(generator.next() % 3 == 0 ? "é" : "")"] = randomTree(depth: depth + 1, using: &generator) }
            return .object(members)
        }
    }
}

/// A small seeded generator (xorshift64), so a random test reads the same cases on every run.
struct XorShift: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed | 1 }
    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
}
