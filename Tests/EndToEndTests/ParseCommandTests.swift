import Foundation
import Testing

/// `gvingest parse` through the built binary: output, warnings and exit statuses.
@Suite struct ParseCommandTests {
    static let course = "Fixtures/gvsu/course/cis-452.html"

    @Test func theHumanViewShowsEveryFieldAndItsRule() async throws {
        let outcome = try await Binary.run(["parse", Self.course])
        #expect(outcome.status == 0)
        for expected in ["CIS 452 - Operating Systems Concepts", "credits", "from: label \"Credits:\" in <strong>",
                         "from: sentence \"Prerequisites:…\" at the end of the description",
                         "CIS 241 -> https://www.gvsu.edu/catalog/course/cis-241.htm", "from: <link rel=canonical>",
                         "offered         fall and winter semesters"] {
            #expect(outcome.stdout.contains(expected), "missing \(expected)")
        }
    }

    @Test func jsonIsOneArrayOfRecordsWithTheAppFields() async throws {
        let outcome = try await Binary.run(["parse", "--json", "Fixtures/gvsu/course"])
        #expect(outcome.status == 0)
        let records = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [[String: Any]])
        #expect(records.count >= 60)
        let keys = ["id", "subject", "number", "name", "title", "credits", "description", "prerequisiteString",
                    "corequisiteString", "fields", "url", "sourceUrl"]
        for record in records {
            for key in keys { #expect(record[key] != nil, "\(record["name"] ?? "?") lacks \(key)") }
            // One meaning per key, as in catalog.json: the course's page, and where it was read from.
            #expect((record["url"] as? String)?.hasPrefix("https://www.gvsu.edu/catalog/") == true)
            #expect((record["sourceUrl"] as? String)?.hasPrefix("file://") == true)
            #expect(record["pageUrl"] == nil)
        }
        let cis452 = try #require(records.first { $0["name"] as? String == "CIS 452" })
        #expect(cis452["id"] as? String == "cis-452")
        #expect(cis452["number"] as? Int == 452)
        #expect(cis452["credits"] as? Int == 4)
        #expect(cis452["prerequisiteString"] as? String == "CIS 241; and CIS 351 or (EGR 326 and EGR major standing).")
        #expect(cis452["corequisiteString"] is NSNull)
        let lab = try #require(records.first { $0["name"] as? String == "BIO 120L" })
        #expect(lab["number"] as? Int == 120)
        #expect(lab["suffix"] as? String == "L")
    }

    @Test func theHumanViewGivesTheLevelsJsonGives() async throws {
        // BUSI B011 (number 11) is below college level in either numbering: it is read in the numbering of the
        // pages named with it, four-digit here, in both views; alone it would be read as three-digit.
        let uh = Binary.realworld.appendingPathComponent("acalog-uh/44")
        let pages = ["44-234559.html", "44-209933.html", "44-209934.html"].map { uh.appendingPathComponent($0).path }
        let json = try await Binary.run(["parse", "--json"] + pages)
        let records = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let source = try #require(records.first { $0["name"] as? String == "BUSI B011" }?["levelSource"] as? String)
        #expect(source.contains("four-digit numbering"), "\(source)")
        let human = try await Binary.run(["parse"] + pages).stdout
        let block = try #require(human.range(of: "\n  BUSI B011 - ")).upperBound
        let lines = human[block...].split(separator: "\n")
        let level = try #require(lines.firstIndex { $0.hasPrefix("    level ") })
        #expect(lines[level + 1].hasSuffix("from: \(source)"), "\(lines[level + 1])")
    }

    @Test func aMissingFieldIsAWarningNamingTheFileAndField() async throws {
        let outcome = try await Binary.run(["parse", "Fixtures/gvsu/course/chm-399.html"])
        #expect(outcome.status == 0)
        #expect(outcome.stderr.contains("Fixtures/gvsu/course/chm-399.html: CHM 399: no credits found"))
    }

    @Test func aPageWithNoCourseExits65() async throws {
        let outcome = try await Binary.run(["parse", Self.course, Binary.realworld.appendingPathComponent("banner/aus-banner9-getCourseDescription-cmp305.html").path])
        #expect(outcome.status == 65)
        #expect(outcome.stderr.contains("aus-banner9-getCourseDescription-cmp305.html: no course found"))
        #expect(outcome.stdout.contains("CIS 452"))
    }

    /// The JSON goes out in pieces; a write that fails (a full disk: /dev/full) is exit 73 with the reason.
    @Test func aFailedWriteOfTheJSONExits73() async throws {
        let outcome = try await Binary.run(["-c", "\"$0\" parse --json Fixtures/gvsu/course > /dev/full", Binary.url.path],
                                     executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(outcome.status == 73)
        #expect(outcome.stderr.contains("cannot write the output: No space left on device"), "\(outcome.stderr)")
    }

    @Test func anUnreadableInputExits66() async throws {
        let outcome = try await Binary.run(["parse", Self.course, "Fixtures/does-not-exist.html"])
        #expect(outcome.status == 66)
        #expect(outcome.stderr.contains("Fixtures/does-not-exist.html: no such file or directory"))
    }

    @Test(arguments: [["parse"], ["parse", "--system", "peoplesoft", "x.html"], ["parse", "--jsn", "x.html"], ["prase"], []])
    func badUsageExits64(_ arguments: [String]) async throws {
        let outcome = try await Binary.run(arguments)
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("Usage: gvingest"))
    }

    /// A bad --format is a usage error before any page is read: no message about the (missing) page comes first.
    @Test(arguments: [["--format", "xml"], ["--json", "--format", "csv"]])
    func aBadFormatIsRefusedBeforeReading(_ format: [String]) async throws {
        let outcome = try await Binary.run(["parse", "Fixtures/does-not-exist.html"] + format)
        #expect(outcome.status == 64)
        #expect(outcome.stderr.hasPrefix("gvingest parse: --"))
        #expect(!outcome.stderr.contains("does-not-exist"))
    }

    @Test func unknownOptionsGetADidYouMean() async throws {
        let outcome = try await Binary.run(["parse", "--jsn", Self.course])
        #expect(outcome.stderr.contains("unknown option --jsn (did you mean --json?)"))
    }

    @Test func helpIsPrintedAndExitsZero() async throws {
        for arguments in [["--help"], ["parse", "--help"], ["help", "parse"]] {
            let outcome = try await Binary.run(arguments)
            #expect(outcome.status == 0)
            #expect(outcome.stdout.contains("Usage: gvingest"))
        }
    }

    @Test func aDirectoryMeansEveryPageUnderIt() async throws {
        let outcome = try await Binary.run(["parse", "Fixtures/gvsu"])
        #expect(outcome.status == 0)
        #expect(outcome.stderr.contains("77 page(s): 71 course(s), 6 listing(s), 0 without a course"))
    }

    @Test func aFileURLWorksLikeAPath() async throws {
        let url = Binary.packageRoot.appendingPathComponent(Self.course).absoluteString
        let outcome = try await Binary.run(["parse", "--json", "--system", "gvsu", url])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("\"name\" : \"CIS 452\""))
    }
}

/// `gvingest prereq` through the built binary.
@Suite struct PrereqCommandTests {
    @Test func theTreeIsPrintedIndented() async throws {
        let outcome = try await Binary.run(["prereq", "CIS 241; and CIS 351 or (EGR 326 and EGR major standing)."])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("all of"))
        #expect(outcome.stdout.contains("    course CIS 351"))
        #expect(outcome.stdout.contains("program EGR major"))
    }

    @Test func jsonGivesTextTreeAndCourses() async throws {
        let outcome = try await Binary.run(["prereq", "--json", "STA 215/312 with a grade of C or better, or permission of instructor"])
        #expect(outcome.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect(object["courses"] as? [String] == ["STA 215", "STA 312"])
        #expect(object["text"] as? String == "STA 215/312 with a grade of C or better, or permission of instructor")
        #expect((object["tree"] as? [String: Any])?["any"] != nil)
    }

    @Test func noneIsNoTree() async throws {
        let outcome = try await Binary.run(["prereq", "None."])
        #expect(outcome.status == 65)
    }
}

/// Every command reads a configuration the same way: 66 when it can't be read, 65 when it is invalid.
@Suite struct ConfigurationExitStatusTests {
    @Test func anUnreadableOrInvalidConfigurationExitsTheSameForEveryCommand() async throws {
        let invalid = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-invalid-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: invalid) }
        try Data(#"{"schemaVersion": 1, "catalogs": [], "fetchh": {}}"#.utf8).write(to: invalid)
        let commands: [[String]] = [["config", "check"], ["run", "--config"], ["fetch", "--config"],
                                    ["parse", "Fixtures/gvsu/course/cis-452.html", "--config"]]
        for command in commands {
            let missing = try await Binary.run(command + ["/nonexistent/pipeline.json"])
            #expect(missing.status == 66, "\(command): \(missing.stderr)")
            let folder = try await Binary.run(command + ["Fixtures"])
            #expect(folder.status == 66, "\(command): \(folder.stderr)")
            #expect(folder.stderr.contains("Fixtures: cannot read the configuration: Is a directory"), "\(command)")
            let bad = try await Binary.run(command + [invalid.path])
            #expect(bad.status == 65, "\(command): \(bad.stderr)")
            #expect(bad.stderr.contains("fetchh: unknown key (did you mean \"fetch\"?)"), "\(command)")
        }
    }

    @Test func fetchCrawlsOneCatalogOfAConfigurationAtATime() async throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-two-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: config) }
        try Data("""
        {"schemaVersion": 1, "catalogs": [
          {"id": "a", "name": "A", "system": "gvsu", "source": {"http": {"startUrls": ["http://127.0.0.1:9/a"]}}},
          {"id": "b", "name": "B", "system": "acalog", "source": {"http": {"startUrls": ["http://127.0.0.1:9/b"]}}}]}
        """.utf8).write(to: config)
        let outcome = try await Binary.run(["fetch", "--config", config.path])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("name one with --catalog"))
    }
}
