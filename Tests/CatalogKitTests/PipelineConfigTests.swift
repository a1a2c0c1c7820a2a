import Foundation
import Testing
@testable import CatalogKit

@Suite struct PipelineConfigTests {
    static let base = URL(fileURLWithPath: "/project/pipeline.json")

    static func issues(_ json: String) -> [String] {
        do {
            _ = try PipelineConfig.parse(Data(json.utf8), file: base)
            return []
        } catch {
            return error.issues.map(\.description)
        }
    }

    @Test func theRepositoryConfigurationsAreValid() throws {
        let root = try PipelineConfig.load(TestPaths.packageRoot.appendingPathComponent("pipeline.json"))
        #expect(root.catalogs.map(\.id) == ["gvsu"])
        guard case let .http(urls) = root.catalogs[0].source else { Issue.record("GVSU is crawled over HTTP"); return }
        #expect(urls.allSatisfy { $0.host == "www.gvsu.edu" })
        let fixture = try PipelineConfig.load(TestPaths.fixtures.appendingPathComponent("pipeline.json"))
        // The recorded catalog is replayed as a mirror (its index.json), as `gvingest run --config Fixtures/pipeline.json` does.
        #expect(fixture.catalogs.first?.source == .replay(TestPaths.gvsuFixtures.standardizedFileURL))
    }

    @Test func wrongTypesNameTheirPathAndTheExpectedForm() {
        let found = Self.issues("""
        {"schemaVersion": "1", "catalogs": [{"id": "a", "name": "A", "system": "gvsu", "source": {"http": {"startUrls": ["ftp://x", 3, "http://127.0.0.1:99999/a.htm"]}}}],
         "normalize": {"levels": [{"from": -1, "level": "masters"}], "subjects": {"Computer Science": "C1S"}}}
        """)
        #expect(found.contains("schemaVersion: expected an integer ≥ 1, got \"1\""))
        let url = "expected an http or https URL with a host, and a port from 1 to 65535, got"
        #expect(found.contains("catalogs[0].source.http.startUrls[0]: \(url) \"ftp://x\""))
        #expect(found.contains("catalogs[0].source.http.startUrls[2]: \(url) \"http://127.0.0.1:99999/a.htm\""))
        #expect(found.contains("catalogs[0].source.http.startUrls[1]: expected a non-empty string, got 3"))
        #expect(found.contains("normalize.levels[0].from: expected an integer from 0 to 999999, got -1"))
        #expect(found.contains("normalize.levels[0].level: expected one of developmental, undergraduate, graduate, doctoral, got \"masters\""))
        #expect(found.contains("normalize.subjects.Computer Science: expected a subject code of 1 to 6 letters, got \"C1S\""))
    }

    @Test func unknownKeysGetADidYouMean() {
        let found = Self.issues(#"{"schemaVersion": 1, "catalogz": [], "catalogs": [{"id": "a", "name": "A", "sytem": "gvsu", "system": "gvsu", "source": {"directory": "x"}}]}"#)
        #expect(found.contains { $0.hasPrefix("catalogz: unknown key (did you mean \"catalogs\"?)") })
        #expect(found.contains { $0.hasPrefix("catalogs[0].sytem: unknown key (did you mean \"system\"?)") })
    }

    @Test(arguments: ["../outside", "/etc", "a/../../b"])
    func pathsMayNotLeaveTheProject(_ path: String) {
        let found = Self.issues(#"{"schemaVersion": 1, "catalogs": [{"id": "a", "name": "A", "system": "gvsu", "source": {"replay": "\#(path)"}}]}"#)
        #expect(found.contains { $0.hasPrefix("catalogs[0].source.replay: expected a path inside /project") })
    }

    @Test func notJSONSaysWhere() {
        let found = Self.issues("{\n  \"catalogs\": [,]\n}")
        #expect(found == ["not valid JSON: line 2, column 16: unexpected character ','"])
    }

    @Test func aTypeErrorIsReportedAtItsJSONPathWithWhatWasFound() {
        let found = Self.issues(#"""
        {"schemaVersion": 1, "catalogs": [{"id": "a", "name": "A", "system": "gvsu", "source": {"directory": "x"},
          "rules": {"course": "//div", "code": "h4", "labels": {"Pre.req": 3}}}],
         "fetch": {"concurrency": "8", "userAgent": null, "allowedHosts": "x.edu"}, "news": {"featured": []}}
        """#)
        #expect(found == [
            #"catalogs[0].rules.labels["Pre.req"]: expected a non-empty string, got 3"#,
            #"fetch.concurrency: expected an integer from 1 to 256, got "8""#,
            "fetch.userAgent: expected a non-empty string, got null",
            #"fetch.allowedHosts: expected an array, got "x.edu""#,
            "news.featured: expected an object, got an array",
        ], "\(found)")
        #expect(Self.issues("[1]") == ["(top level): expected an object, got an array"])
    }

    @Test func twoProblemsAreBothReportedAndNothingElse() {
        let found = Self.issues(#"{"schemaVersion": 1, "catalogs": [{"id": "a", "name": "A", "system": "gvsu", "source": {"directory": "x"}}], "guards": {"minimumCourses": 1.5, "allowFailedPages": "no"}}"#)
        #expect(found == ["guards.minimumCourses: expected an integer from 0 to 1000000, got 1.5",
                          "guards.allowFailedPages: expected true or false, got \"no\""], "\(found)")
    }

    @Test func aMissingMemberSaysSo() {
        let found = Self.issues(#"{"catalogs": [{"id": "a", "system": "gvsu", "source": {}}], "normalize": {"levels": [{"to": 5}]}}"#)
        #expect(found == ["schemaVersion: expected an integer ≥ 1, but it is missing", "catalogs[0].name: expected a string, but it is missing",
                          "catalogs[0].source: expected exactly one of http, directory or replay, got none",
                          "normalize.levels[0].from: expected an integer from 0 to 999999, but it is missing",
                          "normalize.levels[0].level: expected a string, but it is missing"], "\(found)")
    }

    @Test func normalizationRulesAreRead() throws {
        let config = try PipelineConfig.parse(Data("""
        {"schemaVersion": 1, "catalogs": [{"id": "a", "name": "A", "system": "acalog", "source": {"directory": "pages"}}],
         "normalize": {"subjects": {"Computer Information Systems": "cis", "CS": "CIS"},
                       "levels": [{"from": 0, "to": 4999, "level": "undergraduate"}, {"from": 5000, "level": "graduate"}],
                       "knownSubjects": ["cis", "MTH"]}}
        """.utf8), file: Self.base)
        let renamed = { config.normalize.subjects.renaming(CourseCode(subject: $0, number: "1")).subject }
        #expect(renamed("computer  information systems") == "CIS")
        #expect(renamed("cs") == "CIS")
        #expect(config.normalize.levels?.last == LevelRange(from: 5000, to: nil, level: .graduate))
        #expect(config.normalize.knownSubjects == ["CIS", "MTH"])
        #expect(config.catalogs[0].source == .directory(URL(fileURLWithPath: "/project/pages")))
    }

    @Test func theSitesAddressGivesMessagesItsWhatChangedPage() throws {
        let catalogs = #""catalogs": [{"id": "a", "name": "A", "system": "gvsu", "source": {"directory": "x"}}]"#
        let config = try PipelineConfig.parse(Data(#"{"schemaVersion": 1, \#(catalogs), "site": {"baseUrl": "https://courses.example.edu/uh/"}}"#.utf8),
                                              file: Self.base)
        #expect(config.changesPage?.absoluteString == "https://courses.example.edu/uh/changes.html")
        #expect(try PipelineConfig.parse(Data(#"{"schemaVersion": 1, \#(catalogs)}"#.utf8), file: Self.base).changesPage == nil)
        #expect(Self.issues(#"{"schemaVersion": 1, \#(catalogs), "site": {"baseUrl": "file:///srv/site"}}"#)
                == [#"site.baseUrl: expected an http(s) URL such as https://courses.example.edu/, got "file:///srv/site""#])
    }
}

/// `JSONValue`, the JSON of what has no fixed shape, read and written by Foundation's coders.
@Suite struct JSONTests {
    static func read(_ text: String) throws -> JSONValue { try JSONFile.decode(JSONValue.self, from: Array(text.utf8)) }

    @Test func readingAndWritingRoundTrip() throws {
        let text = #"{"a": [1, -2.5, true, null, "x\"\\\n\u00e9\ud83d\ude00"], "b": {}, "c": []}"#
        let value = try Self.read(text)
        #expect(value["a"] == .array([.int(1), .double(-2.5), .bool(true), .null, .string("x\"\\\né😀")]))
        #expect(try Self.read(value.serialized()) == value)
        #expect(value.serialized(pretty: false) == #"{"a":[1,-2.5,true,null,"x\"\\\né😀"],"b":{},"c":[]}"#)
        #expect(JSONValue.double(.infinity).serialized() == "null")
    }

    /// Where the text stops being JSON is said as an editor shows it; a number too large for an integer by its path.
    @Test func malformedTextSaysWhereAndWhat() {
        for (text, expected) in [("{\n  \"a\": 1,,\n}", "not valid JSON: line 2, column 10: unexpected character ','"),
                                 ("[1, 2", "not valid JSON: unexpected end of file during JSON parse")] {
            #expect(throws: FormatError(message: expected)) { try Self.read(text) }
        }
        struct Count: Decodable { var n: [Int] }
        #expect(throws: FormatError(message: "n[1]: 1e+20 is too large for an integer")) {
            try JSONFile.decode(Count.self, from: Array(#"{"n": [1, 100000000000000000000]}"#.utf8))
        }
    }

    /// Foundation's decoder would keep one of two members with one name without a word: a configuration refuses it.
    @Test func aKeyTwiceInAConfigurationIsRefusedWhereItStands() {
        let text = "{\"schemaVersion\": 1, \"catalogs\": [],\n \"fetch\": {\"concurrency\": 4, \"x\": [{\"a\": 1}, {\"a\": 2}]},\n \"fetch\": {}}"
        #expect(JSONFile.repeatedKey(in: Array(text.utf8)) == #"line 3, column 2: the key "fetch" appears twice"#)
        #expect(JSONFile.repeatedKey(in: Array(#"{"a": {"b": 1}, "b": "{\"a\": 1, \"a\": 2}"}"#.utf8)) == nil)
        do {
            _ = try PipelineConfig.parse(Data(text.utf8), file: URL(fileURLWithPath: "/tmp/pipeline.json"))
            Issue.record("a key twice was taken")
        } catch {
            #expect(error.issues.map(\.description) == [#"not valid JSON: line 3, column 2: the key "fetch" appears twice"#])
        }
    }

    @Test func deepNestingIsRefusedNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: FormatError.self) { try Self.read(deep) }
    }
}
