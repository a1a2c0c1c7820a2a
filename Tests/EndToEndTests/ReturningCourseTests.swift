import CatalogKit
import Foundation
import Testing

/// Issue 38, items 3 and 4: three editions of the recorded GVSU catalog, each naming itself as its pages do; CIS 452 is
/// left out of the second and comes back in the third. Run as a deployment runs them, with the website and channels.
@Suite(.serialized) struct ReturningCourseTests {
    static let label = "Undergraduate &amp; Graduate Catalog"

    /// Copies of the fixture's course pages for each edition, renamed "2019-2020 …", "2020-2021 …", "2021-2022 …".
    static func editions(in root: URL) throws -> [URL] {
        let pages = Binary.fixtures.appendingPathComponent("gvsu/course")
        let names = try FileManager.default.contentsOfDirectory(atPath: pages.path).filter { $0.hasSuffix(".html") }
        return try ["2019-2020", "2020-2021", "2021-2022"].map { year in
            let folder = root.appendingPathComponent(year)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for name in names where !(year == "2020-2021" && name == "cis-452.html") {
                // A page in another encoding is copied as it is.
                let bytes = try Data(contentsOf: pages.appendingPathComponent(name))
                let renamed = String(data: bytes, encoding: .utf8).map { Data($0.replacingOccurrences(of: "2024-2025 \(label)", with: "\(year) \(label)").utf8) }
                try (renamed ?? bytes).write(to: folder.appendingPathComponent(name))
            }
            return folder
        }
    }

    @Test func aCourseBackInTheCatalogIsNewsOfItsOwnKind() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-returning-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let editions = try Self.editions(in: root.appendingPathComponent("editions"))
        try Data("""
        {"schemaVersion": 1, "catalogs": [{"id": "gvsu", "name": "GVSU", "system": "gvsu", "source": {"directory": "pages"}}],
         "outputs": {"directory": "out", "site": "out/site"}, "news": {"featured": {"subjects": ["CIS"]}},
         "announce": {"channels": [{"name": "discord", "discord": {"webhookUrlEnv": "GVINGEST_TEST_UNSET_WEBHOOK"}}]}}
        """.utf8).write(to: root.appendingPathComponent("pipeline.json"))
        let pages = root.appendingPathComponent("pages")
        var last: Binary.Outcome?
        for (edition, year) in zip(editions, [2019, 2020, 2021]) {
            try? FileManager.default.removeItem(at: pages)
            try FileManager.default.createSymbolicLink(at: pages, withDestinationURL: edition)
            let epoch = Int(try #require(Timestamp.date("\(year)-08-01T06:00:00Z")).timeIntervalSince1970)
            let run = try await Binary.run(["run", "--config", "pipeline.json", "--quiet"], in: root,
                                           environment: ["SOURCE_DATE_EPOCH": String(epoch)])
            #expect(run.status == 0, "\(run.stderr)")
            last = run
        }
        #expect(last?.stderr.contains("0 added, 1 returned, 0 removed, 0 renumbered, 0 changed; 1 news item(s)") == true, "\(last?.stderr ?? "")")

        // The news: not "New course", but back, with the edition that last listed it; in Firestore's shape too.
        let out = root.appendingPathComponent("out")
        let (_, documents) = try FirestoreDocuments.outputs(in: out, checkReport: true)
        let news = try #require(documents.first)
        #expect(documents.count == 1 && news.id == "gvsu:returned:cis-452:20200801T060000Z")
        #expect(news.fields["title"] == .string("Back in the catalog: CIS 452 — Operating Systems Concepts"))
        #expect(news.fields["description"] == .string("Last listed in 2019-2020 Undergraduate & Graduate Catalog."))
        #expect(news.fields["kind"] == .string("returned") && news.fields["featured"] == .bool(true))
        for field in ["title", "description", "content", "featured", "thumbnail", "createdAt"] { #expect(news.fields[field] != nil, "\(field)") }
        if case let .string(content)? = news.fields["content"] {
            #expect(content.hasPrefix("CIS 452 — Operating Systems Concepts is back in the catalog, last listed in 2019-2020"), "\(content)")
        } else {
            Issue.record("no content")
        }

        // The diff of the last two snapshots, the course's history, the channels and the website say the same.
        let diff = try await Binary.run(["diff", "--config", "pipeline.json", "--json"], in: root)
        #expect(diff.status == 1)
        let lists = try #require(try JSONSerialization.jsonObject(with: Data(diff.stdout.utf8)) as? [String: [[String: Any]]])
        #expect(lists["added"]?.isEmpty == true)
        #expect(lists["returned"]?.map { "\($0["name"] ?? "") \($0["lastEdition"] ?? "")" } == ["CIS 452 2019-2020 Undergraduate & Graduate Catalog"])
        let history = try await Binary.run(["history", "CIS 452"], in: root)
        #expect(history.stdout.contains("first edition: 2019-2020 Undergraduate & Graduate Catalog, created 1 Aug 2019"), "\(history.stdout)")
        #expect(history.stdout.contains("  2020-2021 Undergraduate & Graduate Catalog  removed\n  2021-2022 Undergraduate & Graduate Catalog  returned"),
                "\(history.stdout)")
        let messages = try await Binary.run(["announce", "--config", "pipeline.json", "--dry-run"], in: root)
        #expect(messages.stdout.contains(#""content" : "GVSU: 1 course back""#), "\(messages.stdout)")
        #expect(messages.stdout.contains("Back in the catalog: CIS 452"), "\(messages.stdout)")

        let site = out.appendingPathComponent("site")
        let index = try String(contentsOf: site.appendingPathComponent("changes.html"), encoding: .utf8)
        #expect(index.contains("2020-2021 \(Self.label) (1 Aug 2020) → 2021-2022 \(Self.label) (1 Aug 2021)</a>: 0 added, 1 returned"), "\(index)")
        let page = try String(contentsOf: site.appendingPathComponent("changes/20210801T060000Z.html"), encoding: .utf8)
        #expect(page.contains("<h1>What changed: 2020-2021 \(Self.label) (1 Aug 2020) → 2021-2022 \(Self.label) (1 Aug 2021)</h1>"), "\(page)")
        #expect(page.contains("<h2>Back in the catalog (1)</h2>") && page.contains("Operating Systems Concepts (last listed in 2019-2020 \(Self.label))"))
        #expect(!page.contains("<h2>Added"))
        let course = try String(contentsOf: site.appendingPathComponent("course/cis-452.html"), encoding: .utf8)
        #expect(course.contains("<dt>First seen</dt><dd><time datetime=\"2019-08-01T06:00:00Z\">1 Aug 2019</time></dd>"), "\(course)")
        #expect(course.contains("<dt>Last changed</dt><dd><time datetime=\"2021-08-01T06:00:00Z\">1 Aug 2021</time></dd>"), "\(course)")
        #expect(course.contains("<dt>History</dt><dd>2019-2020 \(Self.label): added<br>2020-2021 \(Self.label): removed<br>2021-2022 \(Self.label): returned</dd>"))
        let home = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(home.contains("Edition: 2021-2022 \(Self.label)."), "\(home)")
    }
}
