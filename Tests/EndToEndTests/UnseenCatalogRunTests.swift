import Foundation
import Testing

/// `gvingest run --source` on catalogs it has no configuration for, and the run's clock.
@Suite struct UnseenCatalogRunTests {
    static let uh = Binary.realworld.appendingPathComponent("acalog-uh")

    static func scratch(_ label: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-\(label)-\(UUID().uuidString)")
    }

    /// UH's graduate edition publishes with no configuration: every page a course, levels from its numbering.
    @Test func theGraduateEditionPublishesWithNoConfiguration() async throws {
        let out = Self.scratch("uh40")
        defer { try? FileManager.default.removeItem(at: out) }
        let outcome = try await Binary.run(["run", "--source", Self.uh.appendingPathComponent("40").path, "--system", "acalog",
                                      "--catalog", "uh-graduate", "--out", out.path, "--quiet"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        // Each different course sharing a code is named in the run's warnings.
        #expect(outcome.stderr.contains("MANA 7334 is also the code of a different course"))
        let catalog = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("catalog.json")))
            as? [String: Any])
        let courses = try #require(catalog["courses"] as? [[String: Any]])
        #expect(courses.count == 4062)
        let lettered = try #require(courses.first { $0["name"] as? String == "ACCT 7A98" })
        #expect(lettered["number"] as? Int == 7098)
        #expect(lettered["numberText"] as? String == "7A98")
        #expect(lettered["level"] as? String == "Graduate")
        #expect(!courses.contains { ($0["level"] as? String) == "Doctoral" && !(($0["title"] as? String ?? "").contains("Doctora")) })
        try await RunCommandTests.expectValidAgainstSchema(out.appendingPathComponent("catalog.json"))
    }

    /// The same pages run into two fresh output directories under one SOURCE_DATE_EPOCH give byte-identical
    /// outputs and snapshots, news included.
    @Test func sourceDateEpochMakesRunsReproducible() async throws {
        let first = Self.scratch("repro-a"), second = Self.scratch("repro-b")
        defer {
            try? FileManager.default.removeItem(at: first)
            try? FileManager.default.removeItem(at: second)
        }
        for out in [first, second] {
            for (edition, epoch) in [("41", "1630000000"), ("44", "1660000000")] {
                let outcome = try await Binary.run(["run", "--source", Self.uh.appendingPathComponent(edition).path, "--system", "acalog",
                                              "--catalog", "uh", "--out", out.path, "--quiet"],
                                             environment: ["SOURCE_DATE_EPOCH": epoch])
                #expect(outcome.status == 0, "\(outcome.stderr)")
            }
        }
        let files = ["catalog.json", "news.json", "news.atom"]
        for file in files {
            let a = try Data(contentsOf: first.appendingPathComponent(file)), b = try Data(contentsOf: second.appendingPathComponent(file))
            #expect(a == b, "\(file) differs")
        }
        let news = try String(contentsOf: first.appendingPathComponent("news.json"), encoding: .utf8)
        #expect(news.contains("2022-08-08T23:06:40Z"))
        let snapshots = { (out: URL) in
            try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("snapshots/uh").path).sorted()
        }
        #expect(try snapshots(first) == snapshots(second))
        #expect(try snapshots(first).count == 2)
        for name in try snapshots(first) {
            #expect(try Data(contentsOf: first.appendingPathComponent("snapshots/uh/\(name)"))
                == Data(contentsOf: second.appendingPathComponent("snapshots/uh/\(name)")))
        }
        let bad = try await Binary.run(["run", "--source", Self.uh.appendingPathComponent("41").path, "--out", first.path],
                                 environment: ["SOURCE_DATE_EPOCH": "yesterday"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("SOURCE_DATE_EPOCH"))
    }
}

/// A page that was fetched but gave no course is a parse gap: listed, not fatal, until there are many.
@Suite struct ParseGapRunTests {
    /// The recorded GVSU course pages, plus `broken` pages that read as no course, in a fresh directory.
    static func pages(broken: Int) throws -> URL {
        let directory = UnseenCatalogRunTests.scratch("gaps")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let courses = Binary.packageRoot.appendingPathComponent("Fixtures/gvsu/course")
        for name in try FileManager.default.contentsOfDirectory(atPath: courses.path) where name.hasSuffix(".html") {
            try FileManager.default.copyItem(at: courses.appendingPathComponent(name), to: directory.appendingPathComponent(name))
        }
        for index in 0..<broken {
            try Data("<html><body><h1>Page moved</h1><p>Course \(index) is elsewhere now.</p></body></html>".utf8)
                .write(to: directory.appendingPathComponent("moved-\(index).html"))
        }
        return directory
    }

    @Test func aFewUnreadPagesAreListedAndTheRunPublishes() async throws {
        let source = try Self.pages(broken: 1), out = UnseenCatalogRunTests.scratch("gaps-out")
        defer {
            try? FileManager.default.removeItem(at: source)
            try? FileManager.default.removeItem(at: out)
        }
        let outcome = try await Binary.run(["run", "--source", source.path, "--system", "gvsu", "--catalog", "gvsu", "--out", out.path,
                                      "--quiet"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("parse gap:") && outcome.stderr.contains("moved-0.html"))
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run-report.json")))
            as? [String: Any])
        let gaps = try #require(report["parseGaps"] as? [[String: String]])
        #expect(gaps.count == 1)
        #expect(gaps.first?["url"]?.hasSuffix("moved-0.html") == true)
        #expect(gaps.first?["reason"]?.contains("no course found") == true)
        let digest = try String(contentsOf: out.appendingPathComponent("digest-gvsu.md"), encoding: .utf8)
        #expect(digest.contains("Parse gaps: 1 page fetched but not read"))
        #expect(digest.contains("moved-0.html"))
    }

    @Test func manyUnreadPagesFailTheRunClosed() async throws {
        let source = try Self.pages(broken: 6), out = UnseenCatalogRunTests.scratch("gaps-many")
        defer {
            try? FileManager.default.removeItem(at: source)
            try? FileManager.default.removeItem(at: out)
        }
        let outcome = try await Binary.run(["run", "--source", source.path, "--system", "gvsu", "--out", out.path, "--quiet"])
        #expect(outcome.status == 65)
        #expect(outcome.stderr.contains("guards.maximumUnparsedFraction"))
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("catalog.json").path))
    }
}
