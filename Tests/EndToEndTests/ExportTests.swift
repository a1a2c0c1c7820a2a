import Foundation
import Testing

/// The exports people ask for: parse and search as JSON Lines and CSV, diff --stat and --quiet.
@Suite struct ExportTests {
    static let pages = ["Fixtures/gvsu/course/cis-162.html", "Fixtures/gvsu/course/cis-163.html", "Fixtures/gvsu/course/wrt-219.html"]

    /// RFC 4180 rows: quoted fields may hold commas, doubled quotes and line breaks.
    static func csvRows(_ text: String) -> [[String]] {
        var rows: [[String]] = [], row: [String] = [], field = "", quoted = false
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            if quoted {
                if character == "\"" {
                    if characters.first == "\"" { field.append("\""); characters.removeFirst() } else { quoted = false }
                } else {
                    field.append(character)
                }
            } else if character == "\"" {
                quoted = true
            } else if character == "," {
                row.append(field); field = ""
            } else if character == "\r\n" || character == "\n" {
                row.append(field); rows.append(row); row = []; field = ""
            } else {
                field.append(character)
            }
        }
        return rows
    }

    @Test func parseWritesTheSameRecordsAsJSONJSONLinesAndCSV() async throws {
        let json = try await Binary.run(["parse"] + Self.pages + ["--format", "json"])
        #expect(json.status == 0)
        #expect(json.stdout == (try await Binary.run(["parse"] + Self.pages + ["--json"])).stdout)
        let records = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])

        let lines = try await Binary.run(["parse"] + Self.pages + ["--format", "jsonl"])
        #expect(lines.status == 0)
        let objects = try lines.stdout.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.count == records.count)
        #expect(objects.map { $0["id"] as? String } == records.map { $0["id"] as? String })
        #expect(objects.map { $0["description"] as? String } == records.map { $0["description"] as? String })

        let csv = try await Binary.run(["parse"] + Self.pages + ["--format", "csv"])
        #expect(csv.status == 0)
        let rows = Self.csvRows(csv.stdout)
        #expect(rows.first == ["id", "name", "subject", "number", "title", "credits", "level", "prerequisiteString",
                               "corequisiteString", "description", "url"])
        #expect(rows.count == records.count + 1)
        for (row, record) in zip(rows.dropFirst(), records) {
            #expect(row.count == 11)
            #expect(row[0] == record["id"] as? String)
            #expect(row[5] == (record["credits"] as? Int).map(String.init))
            #expect(row[9] == record["description"] as? String)  // commas and quotes survive the quoting
        }
        let wrong = try await Binary.run(["parse"] + Self.pages + ["--format", "xml"])
        #expect(wrong.status == 64)
        #expect(try await Binary.run(["parse"] + Self.pages + ["--json", "--format", "csv"]).status == 64)
    }

    /// Issue 31: a title a spreadsheet would run as a formula is neutralized in CSV, as OWASP recommends.
    @Test func csvCellsThatLookLikeFormulasAreNeutralized() async throws {
        let page = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-csv-\(UUID().uuidString).html")
        defer { try? FileManager.default.removeItem(at: page) }
        let original = try String(contentsOfFile: Self.pages[0], encoding: .utf8)
        try original.replacingOccurrences(of: "<h1>CIS 162 - Computer Science I</h1>",
                                          with: "<h1>CIS 162 - =HYPERLINK(\"http://evil.example\")</h1>")
            .write(to: page, atomically: true, encoding: .utf8)
        let rows = Self.csvRows(try await Binary.run(["parse", page.path, "--format", "csv"]).stdout)
        #expect(rows.count == 2)
        #expect(rows.last?[4] == "'=HYPERLINK(\"http://evil.example\")", "\(rows)")
        #expect(rows.last?[3] == "162" && rows.last?[5] == "4")
    }

    @Test func searchWritesJSONLinesAndCSVWithTheMatch() async throws {
        let catalog = "Fixtures/snapshots/catalog.json"
        let json = try await Binary.run(["search", "--catalog", catalog, "--subject", "cis", "--json"])
        let records = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(!records.isEmpty)
        let lines = try await Binary.run(["search", "--catalog", catalog, "--subject", "cis", "--format", "jsonl"])
        #expect(lines.stdout.split(separator: "\n").count == records.count)
        let csv = Self.csvRows(try await Binary.run(["search", "--catalog", catalog, "--subject", "cis", "--format", "csv"]).stdout)
        #expect(csv.first?.last == "match")
        #expect(csv.dropFirst().map { $0[1] } == records.map { $0["name"] as? String ?? "" })
        #expect(csv.dropFirst().allSatisfy { $0.last == "filters" })
    }

    @Test func searchFindsTheCatalogAConfigurationPublishes() async throws {
        let project = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-search-config-\(UUID().uuidString)")
        let out = project.appendingPathComponent("published")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: project) }
        try FileManager.default.copyItem(at: Binary.fixtures.appendingPathComponent("snapshots/catalog.json"),
                                         to: out.appendingPathComponent("catalog.json"))
        try Data(#"{"schemaVersion": 1, "catalogs": [{"id": "x", "name": "X", "system": "gvsu", "source": {"directory": "."}}], "outputs": {"directory": "published"}}"#.utf8)
            .write(to: project.appendingPathComponent("pipeline.json"))
        let explicit = try await Binary.run(["search", "--config", project.appendingPathComponent("pipeline.json").path, "--subject", "cis"])
        #expect(explicit.status == 0, "\(explicit.stderr)")
        #expect(!explicit.stdout.isEmpty)
        // pipeline.json in the current directory is the default.
        let implicit = try await Binary.run(["search", "--subject", "cis"], in: project)
        #expect(implicit.status == 0, "\(implicit.stderr)")
        #expect(implicit.stdout == explicit.stdout)
    }

    @Test func diffStatPrintsTheCountsAndQuietNothing() async throws {
        let pair = ["Fixtures/snapshots/fall.json", "Fixtures/snapshots/winter.json"]
        let stat = try await Binary.run(["diff"] + pair + ["--stat"])
        #expect(stat.status == 1)
        #expect(stat.stdout == "2 added, 1 removed, 1 renumbered, 1 changed\n")
        let quiet = try await Binary.run(["diff"] + pair + ["--quiet"])
        #expect(quiet.status == 1)
        #expect(quiet.stdout.isEmpty && quiet.stderr.isEmpty)
        let same = try await Binary.run(["diff", pair[0], pair[0], "--quiet"])
        #expect(same.status == 0 && same.stdout.isEmpty)
        #expect(try await Binary.run(["diff"] + pair + ["--stat", "--json"]).status == 64)
    }
}
