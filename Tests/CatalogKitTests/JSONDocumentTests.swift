import Foundation
import Testing
@testable import CatalogKit

/// The JSON writer's partial indentation, the streaming reader and the whole-file reader.
@Suite struct JSONDocumentTests {
    @Test func documentsIndentTheirOuterLevelsAndKeepRecordsOnOneLine() throws {
        let value = JSONValue.object(["b": .array([.object(["y": .int(1), "x": .array([.null])])]), "a": .string("é")])
        let text = String(decoding: value.serializedBytes(indentingLevels: 2), as: UTF8.self)
        #expect(text == "{\n  \"a\" : \"é\",\n  \"b\" : [\n    {\"x\":[null],\"y\":1}\n  ]\n}")
        #expect(try JSONValue.parse(text) == value)
    }

    /// A requisite tree's JSON value must be what `Codable` makes of the tree.
    @Test func requisiteTreesAreWrittenAsCodableHasThem() throws {
        func code(_ text: String) throws -> CourseCode { try #require(CourseCode(parsing: text)) }
        let tree = Requisite.all([
            .any([.course(CourseRequirement(code: try code("CIS 162"), minGrade: "C", concurrent: true, source: "CIS 162 (C)")),
                  .course(CourseRequirement(code: try code("MTH 201")))], connective: "or"),
            .atLeast(2, of: [.standing("junior", source: "junior standing"), .program("Nursing"), .permission("instructor", source: "permission")],
                     connective: "two of"),
            .exam("ACT Math", score: "24", source: "ACT 24"), .exam("SAT"), .text("a \"quoted\" note\n"),
        ], connective: "and")
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let codable = try JSONSerialization.jsonObject(with: try encoder.encode(tree)) as? NSDictionary
        let ours = try JSONSerialization.jsonObject(with: Data(tree.json.serializedBytes(indentingLevels: 0))) as? NSDictionary
        #expect(codable != nil && codable == ours)
    }

    @Test(arguments: [0, 7, -7, 10, 1_000_000, -120, Int.max, Int.min])
    func integersAreWrittenAsTheirDecimalDigits(_ value: Int) {
        #expect(JSONValue.int(value).serialized() == String(value))
    }

    /// A character that needs an escape must be caught wherever it stands, and nothing else (multi-byte UTF-8,
    /// DEL) may be escaped.
    @Test(arguments: ["\"", "\\", "\n", "\r", "\t", "\u{01}", "\u{1F}", "\u{7F}", "é", "\u{2028}"])
    func everyCharacterIsEscapedAtEveryOffset(_ special: String) throws {
        for length in [1, 7, 8, 9, 16, 23] {
            for offset in 0..<length {
                let text = String(repeating: "a", count: offset) + special + String(repeating: "bé", count: length - offset)
                var bytes: [UInt8] = []
                JSONValue.writeString(text, into: &bytes)
                let written = String(decoding: bytes, as: UTF8.self)
                #expect(try JSONValue.parse(written) == .string(text))
                #expect(try JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed) as? String == text)
                let escaped = special.unicodeScalars.allSatisfy { $0.value < 0x20 || $0 == "\"" || $0 == "\\" }
                #expect(written.utf8.count == text.utf8.count + 2 + (escaped ? (special.unicodeScalars.first.map { $0.value < 0x20 && !"\n\r\t".unicodeScalars.contains($0) } == true ? 5 : 1) : 0))
            }
        }
    }

    @Test func aLongArrayCanBeReadOneElementAtATime() throws {
        var seen: [JSONValue] = []
        let rest = try JSONValue.parse(Array(#"{"n": 2, "courses": [{"id": 1}, [2], "three"], "z": {"courses": [9]}}"#.utf8),
                                       streaming: "courses") { seen.append($0) }
        #expect(seen == [.object(["id": .int(1)]), .array([.int(2)]), .string("three")])
        // Only the top-level member streams; the nested one stays in the tree.
        #expect(rest == .object(["n": .int(2), "courses": .array([]), "z": .object(["courses": .array([.int(9)])])]))
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            _ = try JSONValue.parse(Array(#"{"courses": [1, 2]}"#.utf8), streaming: "courses") { _ in throw Refused() }
        }
        #expect(throws: JSONSyntaxError.self) {
            _ = try JSONValue.parse(Array(#"{"courses": [1, 2"#.utf8), streaming: "courses") { _ in }
        }
    }

    @Test func selectedMembersArriveByPositionAndTheRestIsSkipped() throws {
        let long = String(repeating: "k", count: 70)
        let text = #"{"courses": [{"b": [1, {"x": "y"}], "a": "é", "skip": {"deep": [true, null, -1.5e3]}, "\#(long)": 7, "ca": 2}, {}]}"#
        var seen: [[JSONValue?]] = []
        let rest = try JSONValue.parse(Array(text.utf8), streaming: "courses", selecting: ["a", "b", "ca", long, "missing"]) { seen.append($0) }
        #expect(seen.count == 2)
        #expect(seen[0] == [.string("é"), .array([.int(1), .object(["x": .string("y")])]), .int(2), .int(7), nil])
        #expect(seen[1] == [nil, nil, nil, nil, nil])
        #expect(rest == .object(["courses": .array([])]))
        for broken in [#"{"courses": [{"skip": [1, }]}"#, #"{"courses": [{"a": 1, "a": 2}]}"#, #"{"courses": [3]}"#, #"{"courses": [{"skip": "x"#] {
            #expect(throws: JSONSyntaxError.self, "\(broken)") {
                _ = try JSONValue.parse(Array(broken.utf8), streaming: "courses", selecting: ["a"]) { _ in }
            }
        }
    }

    /// What the whole-tree read refuses in a string, the selective read refuses too wherever the string stands in
    /// a member it skips: a value, a value nested deeper, a key, a nested object's key.
    @Test(arguments: [
        Array(#""\q""#.utf8), [0x22, 0xFF, 0x22], [0x22, 0x61, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
        Array(#""\u12""#.utf8), Array(#""\ud800""#.utf8), Array(#""\udc00""#.utf8), [0x22, 0x61, 0x09, 0x22],
        [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0xC3, 0x5C, 0x6E, 0x22], [0x22, 0xE2, 0x80, 0x22],
    ] as [[UInt8]])
    func theSkippingReadRefusesWhatTheWholeReadRefuses(_ badString: [UInt8]) {
        let places: [[UInt8]] = [
            Array(#"{"courses": [{"a": 1, "skip": "#.utf8) + badString + Array("}]}".utf8),
            Array(#"{"courses": [{"a": 1, "skip": {"deep": [true, "#.utf8) + badString + Array("]}}]}".utf8),
            Array(#"{"courses": [{"a": 1, "#.utf8) + badString + Array(": 0}]}".utf8),
            Array(#"{"courses": [{"a": 1, "skip": {"#.utf8) + badString + Array(": 0}}]}".utf8),
        ]
        for text in places {
            #expect(throws: JSONSyntaxError.self, "\(text)") { _ = try JSONValue.parse(text) }
            #expect(throws: JSONSyntaxError.self, "\(text)") {
                _ = try JSONValue.parse(text, streaming: "courses", selecting: ["a"]) { _ in }
            }
        }
    }

    /// A key twice in one object is refused by both reads, also when it is skipped, and also when the two are
    /// written differently (an escape, a character outside ASCII); what both reads accept reads the same.
    @Test func aKeyTwiceIsRefusedWhereverItStands() throws {
        let twice = [#"{"courses": [{"a": 1, "x": 1, "x": 2}]}"#, #"{"courses": [{"a": 1, "s": {"x": 1, "x": 2}}]}"#,
                     #"{"courses": [{"x": 1, "\u0078": 2}]}"#, #"{"courses": [{"s": [{"é": 1, "\u00e9": 2}]}]}"#]
        for text in twice {
            #expect(throws: JSONSyntaxError.self, "\(text)") { _ = try JSONValue.parse(text) }
            let error = #expect(throws: JSONSyntaxError.self, "\(text)") {
                _ = try JSONValue.parse(Array(text.utf8), streaming: "courses", selecting: ["a"]) { _ in }
            }
            #expect(error?.message.hasSuffix("appears twice") == true)
        }
        let valid = #"{"courses": [{"\u0061": "é\n", "skip": {"é": "\u00e9", "x\\y": [1, "\ud83d\ude00"], "\u00e9x": {}}, "é": 2}]}"#
        var seen: [[JSONValue?]] = []
        _ = try JSONValue.parse(Array(valid.utf8), streaming: "courses", selecting: ["a", "é"]) { seen.append($0) }
        let whole = try JSONValue.parse(valid)
        guard case let .array(records)? = whole["courses"] else { Issue.record("no courses"); return }
        #expect(seen == [[records[0]["a"], records[0]["é"]]])
        #expect(seen == [[.string("é\n"), .int(2)]])
    }

    @Test func aFileIsReadWhole() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-bytes-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: file) }
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(bytes).write(to: file)
        #expect(try FileBytes.read(file) == bytes)
        let error = #expect(throws: FileBytes.ReadError.self) { try FileBytes.read(file.appendingPathExtension("missing")) }
        #expect(error?.description == "No such file or directory")
    }
}
