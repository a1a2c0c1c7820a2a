import CatalogKit
import Foundation
import Testing

/// What users hold keeps working: a snapshot written by 3119637 (the last build with its own JSON writer) loads, and
/// the next run from it writes what 3119637 wrote (Fixtures/compat-3119637, its README).
@Suite struct CompatibilityTests {
    static let recorded = Binary.fixtures.appendingPathComponent("compat-3119637")

    /// A file's JSON without what schemaVersion 2 added (docs/outputs.md, "Snapshots and news"): the courses' `firstEdition`
    /// and `history`, a snapshot's `edition`, `retired` and `pages.subjectNames`; all else must be as 3119637 wrote it.
    static func json(_ file: URL) throws -> NSObject? {
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: file))
        guard var object = root as? [String: Any], let courses = object["courses"] as? [[String: Any]] else { return root as? NSObject }
        object["courses"] = courses.map { $0.filter { $0.key != "firstEdition" && $0.key != "history" } }
        object["schemaVersion"] = (object["schemaVersion"] as? Int).map { $0 == 2 ? 1 : $0 }
        if let pages = object["pages"] as? [String: Any] { object["pages"] = pages.filter { $0.key != "subjectNames" } }
        return object.filter { $0.key != "retired" && $0.key != "edition" } as NSDictionary
    }

    /// What issue 38 changed on purpose in what 3119637 wrote: a new course's credits read "3 credits", not "3".
    static func issue38(_ content: String) -> String {
        content.replacingOccurrences(of: #"(- \*\*Credits:\*\* )([0-9.]+(-[0-9.]+)?)"#, with: "$1$2 credits", options: .regularExpression)
            .replacingOccurrences(of: #"(- \*\*Credits:\*\* [0-9.]+)-([0-9.]+ credits)"#, with: "$1–$2", options: .regularExpression)
    }

    /// news.json as 3119637 wrote it, with issue 38's changes to the content.
    static func recordedNews() throws -> NSObject? {
        guard var root = try json(Self.recorded.appendingPathComponent("news.json")) as? [String: Any],
              let items = root["news"] as? [[String: Any]] else { return nil }
        root["news"] = items.map { item in item.merging(["content": issue38(item["content"] as? String ?? "")]) { $1 } }
        return root as NSDictionary
    }

    /// An Atom feed's lines without the entries' content, which issue 38 made HTML.
    static func withoutContent(_ feed: String) -> String {
        feed.replacingOccurrences(of: #"<content type="[a-z]+">[^<]*</content>"#, with: "<content/>", options: .regularExpression)
    }

    /// A snapshot's JSON without its source, which names the folder the run was in.
    static func snapshotJSON(_ file: URL) throws -> NSDictionary? {
        guard var root = try json(file) as? [String: Any] else { return nil }
        root["catalog"] = (root["catalog"] as? [String: Any])?["id"]
        return root as NSDictionary
    }

    @Test func aRunFromA3119637SnapshotWritesWhat3119637Wrote() async throws {
        let project = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-compat-\(UUID().uuidString)")
        let store = project.appendingPathComponent("out/snapshots/gvsu-fixture")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: project) }
        try FileManager.default.createSymbolicLink(at: project.appendingPathComponent("gvsu-next"),
                                                   withDestinationURL: Binary.fixtures.appendingPathComponent("gvsu-next"))
        try FileManager.default.copyItem(at: Self.recorded.appendingPathComponent("pipeline.json"), to: project.appendingPathComponent("pipeline.json"))
        let first = "snapshot-000001-20250101T025320Z.json", second = "snapshot-000002-20250106T080000Z.json"
        try FileManager.default.copyItem(at: Self.recorded.appendingPathComponent(first), to: store.appendingPathComponent(first))

        let check = try await Binary.run(["config", "check", "pipeline.json"], in: project)
        #expect(check.status == 0, "\(check.stderr)")
        let run = try await Binary.run(["run", "--config", "pipeline.json", "--replay", "gvsu-next", "--quiet"], in: project,
                                       environment: ["SOURCE_DATE_EPOCH": "1736150400"])
        #expect(run.status == 0, "\(run.stderr)")
        let out = project.appendingPathComponent("out")
        #expect(try Self.json(out.appendingPathComponent("catalog.json")) == Self.json(Self.recorded.appendingPathComponent("catalog.json")))
        #expect(try Self.json(out.appendingPathComponent("news.json")) == Self.recordedNews())
        // The feed is the same but for its entries' content, which is now the news.json content as HTML.
        let feed = try String(contentsOf: out.appendingPathComponent("news.atom"), encoding: .utf8)
        #expect(Self.withoutContent(feed) == Self.withoutContent(try String(contentsOf: Self.recorded.appendingPathComponent("news.atom"), encoding: .utf8)))
        let news = try NewsFile.decode(Array(Data(contentsOf: out.appendingPathComponent("news.json"))))
        for item in news {
            #expect(feed.contains("<content type=\"html\">\(MarkupEscaping.xml(NewsHTML.render(item.content)))</content>"), "\(item.id)")
        }
        let written = try Self.snapshotJSON(store.appendingPathComponent(second))
        let recorded = try Self.snapshotJSON(Self.recorded.appendingPathComponent(second))
        #expect(written != nil && written == recorded)

        let diff = try await Binary.run(["diff", Self.recorded.appendingPathComponent(second).path, store.appendingPathComponent(second).path])
        #expect(diff.status == 0, "\(diff.stdout)\(diff.stderr)")
        #expect(diff.stdout.hasSuffix("no changes\n"), "\(diff.stdout)")
    }
}
