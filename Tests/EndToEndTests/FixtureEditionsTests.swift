import Foundation
import Testing

/// The README's first command runs two editions of the recorded catalog: the second brings news, a diff and a feed.
/// Run here as the script runs them (the same commands, against the debug binary, in a scratch copy).
@Suite(.serialized) struct FixtureEditionsTests {
    static let script = Binary.packageRoot.appendingPathComponent("scripts/setup-and-run.sh")

    @Test func theFirstCommandRunsBothEditions() throws {
        let text = try String(contentsOf: Self.script, encoding: .utf8)
        #expect(text.contains(#""$bin" run --config Fixtures/pipeline.json"#))
        #expect(text.contains(#""$bin" run --config Fixtures/pipeline.json --replay Fixtures/gvsu-next"#))
        #expect(text.contains(#""$bin" diff --config Fixtures/pipeline.json"#))
        // It ends with the website and where to open it.
        #expect(text.contains(#""$bin" site --config Fixtures/pipeline.json --out Fixtures/out/site"#))
        #expect(text.contains("open $PWD/Fixtures/out/site/index.html in a browser"))
        #expect(text.contains(#""$bin" announce --config Fixtures/pipeline.json --dry-run"#))
    }

    @Test func theSecondEditionBringsNewsADiffAndAFeed() async throws {
        let project = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-editions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: project) }
        for edition in ["gvsu", "gvsu-next"] {
            try FileManager.default.createSymbolicLink(at: project.appendingPathComponent(edition),
                                                       withDestinationURL: Binary.fixtures.appendingPathComponent(edition))
        }
        try FileManager.default.copyItem(at: Binary.fixtures.appendingPathComponent("pipeline.json"),
                                         to: project.appendingPathComponent("pipeline.json"))
        let first = try await Binary.run(["run", "--config", "pipeline.json", "--quiet"], in: project)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("0 news item(s)"))
        let second = try await Binary.run(["run", "--config", "pipeline.json", "--replay", "gvsu-next", "--quiet"], in: project)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("3 added, 2 removed, 1 renumbered, 3 changed; 3 news item(s)"), "\(second.stderr)")

        let diff = try await Binary.run(["diff", "--config", "pipeline.json", "--json"], in: project)
        #expect(diff.status == 1)
        let changes = try #require(try JSONSerialization.jsonObject(with: Data(diff.stdout.utf8)) as? [String: [[String: Any]]])
        #expect(Set((changes["added"] ?? []).compactMap { $0["name"] as? String }) == ["BIO 330", "CIS 380", "STA 419"])
        #expect(Set((changes["removed"] ?? []).compactMap { $0["name"] as? String }) == ["CIS 499", "WRT 098"])
        #expect((changes["renumbered"] ?? []).map { "\($0["from"] ?? "") → \($0["to"] ?? "")" } == ["CIS 367 → CIS 467"])
        #expect(Set((changes["changed"] ?? []).compactMap { $0["name"] as? String }) == ["CIS 162", "MTH 201", "STA 318"])

        // Its channels have no webhook set: the news waits for them, and a dry run shows what they would get.
        #expect(second.stderr.contains("channel discord: GVINGEST_DISCORD_WEBHOOK is not set"), "\(second.stderr)")
        let messages = try await Binary.run(["announce", "--config", "pipeline.json", "--dry-run"], in: project)
        #expect(messages.status == 0, "\(messages.stderr)")
        #expect(messages.stdout.contains(#""content" : "Recorded GVSU catalog (written for the tests): 3 new courses""#))
        #expect(messages.stdout.contains("--- channel slack: 3 news item(s) ---"), "\(messages.stdout)")

        let atom = try String(contentsOf: project.appendingPathComponent("out/news.atom"), encoding: .utf8)
        #expect(atom.components(separatedBy: "<entry>").count - 1 == 3)
        #expect(atom.contains("New course: CIS 380 — Machine Learning"))
        // The README's search examples work on what the first command leaves.
        let search = try await Binary.run(["search", "--config", "pipeline.json", "machine learning"], in: project)
        #expect(search.status == 0)
        #expect(search.stdout.hasPrefix("CIS 380  Machine Learning"), "\(search.stdout)")
        let requires = try await Binary.run(["search", "--requires", "CIS", "162"], in: project)  // pipeline.json's catalog by default
        #expect(requires.status == 0 && !requires.stdout.isEmpty, "\(requires.stderr)")
    }

    /// README's walkthrough after the first command: every line of its example block runs without an error, in a
    /// fresh copy holding only what the first command leaves (its two runs, done here with the debug binary).
    @Test func theREADMEsWalkthroughRunsWithoutAnError() async throws {
        let project = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-walkthrough-\(UUID().uuidString)")
        let fixtures = project.appendingPathComponent("Fixtures")
        try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: project) }
        for edition in ["gvsu", "gvsu-next"] {
            try FileManager.default.createSymbolicLink(at: fixtures.appendingPathComponent(edition),
                                                       withDestinationURL: Binary.fixtures.appendingPathComponent(edition))
        }
        try FileManager.default.copyItem(at: Binary.fixtures.appendingPathComponent("pipeline.json"), to: fixtures.appendingPathComponent("pipeline.json"))
        let gvingest = "gvingest() { '\(Binary.url.path)' \"$@\"; }"
        for line in ["gvingest run --config Fixtures/pipeline.json --quiet",
                     "gvingest run --config Fixtures/pipeline.json --replay Fixtures/gvsu-next --quiet"] {
            let outcome = try await RecipeTests.shell("cd '\(project.path)' && \(gvingest) && \(line)")
            #expect(outcome.status == 0, "\(line): \(outcome.stderr)")
        }
        let readme = try String(contentsOf: Binary.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "From there, in a fresh checkout:\n\n```sh\n"))
        let block = readme[start.upperBound...].prefix { $0 != "`" }
        let lines = block.split(separator: "\n").filter { $0.hasPrefix("gvingest ") }
        #expect(lines.count >= 3)
        for line in lines {
            let outcome = try await RecipeTests.shell("cd '\(project.path)' && \(gvingest) && \(line)")
            // diff exits 1 when the catalogs differ, as diff(1) does; everything else 0.
            #expect(outcome.status == (line.hasPrefix("gvingest diff") ? 1 : 0), "\(line): \(outcome.stderr)")
            #expect(!outcome.stdout.isEmpty, "\(line)")
            #expect(!outcome.stderr.contains("error"), "\(line): \(outcome.stderr)")
        }
    }

    /// The generator renders the committed pages exactly, both editions, and answers --help without writing anything.
    @Test func theGeneratorReproducesBothEditions() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-render-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let render = Binary.fixtures.appendingPathComponent("gvsu/generator/render.py").path
        for (edition, committed) in [("first", "gvsu"), ("next", "gvsu-next")] {
            let out = scratch.appendingPathComponent(committed).path
            let rendered = try await RecipeTests.shell("python3 '\(render)' --edition \(edition) '\(out)'")
            #expect(rendered.status == 0, "\(rendered.stderr)")
            let compared = try await RecipeTests.shell("diff -r '\(out)/course' '\(Binary.fixtures.path)/\(committed)/course' && "
                + "diff -r '\(out)/subject' '\(Binary.fixtures.path)/\(committed)/subject'"
                + (edition == "next" ? " && diff '\(out)/index.json' '\(Binary.fixtures.path)/\(committed)/index.json'" : ""))
            #expect(compared.status == 0, "\(edition): \(compared.stdout)")
        }
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let help = try await RecipeTests.shell("cd '\(scratch.path)' && python3 '\(render)' --help")
        #expect(help.status == 0)
        #expect(help.stdout.contains("--edition"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0 != "gvsu" && $0 != "gvsu-next" }.isEmpty)
    }
}
