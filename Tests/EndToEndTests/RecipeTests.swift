import Foundation
import Testing
import TestSupport

/// Each operations recipe in docs/recipes is run as written, with only its paths pointed at a scratch copy
/// of the recorded catalog, and through the real tools: the cron line (bash -n, then run), the systemd unit and timer
/// (systemd-analyze verify, then the unit's command), the CI workflow (actionlint), its state branch (keep-state.sh
/// against a local bare repository) and the publish-on-success script the workflow calls.
@Suite(.serialized) struct RecipeTests {
    static let recipes = Binary.packageRoot.appendingPathComponent("docs/recipes")

    /// A scratch "project": the fixture configuration with its mirror, as /srv/gvingest would hold it.
    static func project() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-recipe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("gvsu"),
                                                   withDestinationURL: Binary.fixtures.appendingPathComponent("gvsu"))
        try FileManager.default.copyItem(at: Binary.fixtures.appendingPathComponent("pipeline.json"),
                                         to: root.appendingPathComponent("pipeline.json"))
        return root
    }

    static func shell(_ command: String) async throws -> Binary.Outcome {
        try await Binary.run(["-c", command], executable: URL(fileURLWithPath: "/bin/bash"))
    }

    /// The recipe's paths, pointed at the scratch project and the built binary.
    static func localized(_ command: String, project: URL) -> String {
        command.replacingOccurrences(of: "/srv/gvingest/.build/release/gvingest", with: Binary.url.path)
            .replacingOccurrences(of: "./.build/release/gvingest", with: Binary.url.path)
            .replacingOccurrences(of: "/var/log/gvingest/run.log", with: project.appendingPathComponent("run.log").path)
            .replacingOccurrences(of: "/srv/gvingest", with: project.path)
    }

    @Test func theCronLineRunsThePipeline() async throws {
        let project = try Self.project()
        defer { try? FileManager.default.removeItem(at: project) }
        let text = try String(contentsOf: Self.recipes.appendingPathComponent("gvingest.cron"), encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { !$0.hasPrefix("#") && !$0.isEmpty })
        let fields = line.split(separator: " ", maxSplits: 5)
        #expect(fields.count == 6)
        // The command as cron hands it to the shell: it must parse as written.
        let syntax = try await Self.shell("bash -n -c \(Self.quoted(String(fields[5])))")
        #expect(syntax.status == 0, "\(syntax.stderr)")
        let command = Self.localized(String(fields[5]), project: project)
        let outcome = try await Self.shell(command)
        #expect(outcome.status == 0, "\(command)\n\(outcome.stderr)")
        #expect(FileManager.default.fileExists(atPath: project.appendingPathComponent("out/catalog.json").path))
        let log = try String(contentsOf: project.appendingPathComponent("run.log"), encoding: .utf8)
        let lines = log.split(separator: "\n")
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil })
    }

    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The unit and the timer, their paths pointed at the scratch project, through `systemd-analyze verify`.
    @Test(.needs(.systemdAnalyze)) func theSystemdUnitAndTimerPassSystemdAnalyzeVerify() async throws {
        try OptionalTool.systemdAnalyze.require()
        let project = try Self.project()
        defer { try? FileManager.default.removeItem(at: project) }
        let units = project.appendingPathComponent("units")
        try FileManager.default.createDirectory(at: units, withIntermediateDirectories: true)
        for name in ["gvingest.service", "gvingest.timer"] {
            let text = try String(contentsOf: Self.recipes.appendingPathComponent(name), encoding: .utf8)
            try Data(Self.localized(text, project: project).utf8).write(to: units.appendingPathComponent(name))
        }
        let verify = try await Self.shell("cd '\(units.path)' && systemd-analyze verify ./gvingest.service ./gvingest.timer")
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(verify.stderr.isEmpty, "\(verify.stderr)")
    }

    @Test func theSystemdUnitRunsThePipelineAndRetriesOnlyTemporaryFailures() async throws {
        let project = try Self.project()
        defer { try? FileManager.default.removeItem(at: project) }
        let unit = try String(contentsOf: Self.recipes.appendingPathComponent("gvingest.service"), encoding: .utf8)
        func value(_ key: String) throws -> String {
            let line = try #require(unit.split(separator: "\n").first { $0.hasPrefix(key + "=") })
            return String(line.dropFirst(key.count + 1))
        }
        let directory = Self.localized(try value("WorkingDirectory"), project: project)
        let command = Self.localized(try value("ExecStart"), project: project)
        let outcome = try await Self.shell("cd '\(directory)' && \(command)")
        #expect(outcome.status == 0, "\(command)\n\(outcome.stderr)")
        #expect(FileManager.default.fileExists(atPath: project.appendingPathComponent("out/news.atom").path))
        // systemd restarts when Restart= says so OR the status is in RestartForceExitStatus=: only 75 may restart.
        #expect(try value("Restart") == "no")
        #expect(try value("RestartForceExitStatus") == "75")
        // And 75 is what the command exits with when the catalog is out of reach for now.
        try FileManager.default.removeItem(at: project.appendingPathComponent("pipeline.json"))
        try Data(#"{"schemaVersion": 1, "catalogs": [{"id": "gvsu", "name": "GVSU", "system": "gvsu", "source": {"http": {"startUrls": ["http://127.0.0.1:9/catalog/subject/biology.htm"]}}}], "fetch": {"maxAttempts": 1}}"#.utf8)
            .write(to: project.appendingPathComponent("pipeline.json"))
        #expect(try await Self.shell("cd '\(directory)' && \(command)").status == 75)
        let timer = try String(contentsOf: Self.recipes.appendingPathComponent("gvingest.timer"), encoding: .utf8)
        #expect(timer.contains("OnCalendar="))
        #expect(timer.contains("Persistent=true"))
    }

    @Test(.needs(.actionlint)) func theWorkflowPassesActionlintDeploysAndKeepsItsStateOnABranch() async throws {
        try OptionalTool.actionlint.require()
        let file = Self.recipes.appendingPathComponent("publish-catalog.yml")
        let lint = try await Self.shell("actionlint -no-color '\(file.path)'")
        #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
        let workflow = try String(contentsOf: file, encoding: .utf8)
        #expect(workflow.contains("docs/recipes/publish-catalog.sh .build/release/gvingest pipeline.json out site"))
        #expect(workflow.components(separatedBy: "if: success()").count - 1 == 2)
        for needed in ["pages: write", "id-token: write", "contents: write", "actions/deploy-pages@", "name: github-pages",
                       "keep-state.sh restore", "keep-state.sh save"] {
            #expect(workflow.contains(needed), "\(needed)")
        }
        #expect(!workflow.contains("actions/cache"))
    }

    /// keep-state.sh against a local bare repository standing for GitHub: a first run finds no branch, a save
    /// creates it, the next restore brings the snapshots back, and a second save adds to it.
    @Test func theStateBranchKeepsSnapshotsAndNewsBetweenRuns() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let script = Self.recipes.appendingPathComponent("keep-state.sh").path
        let remote = root.appendingPathComponent("remote.git").path
        #expect(try await Self.shell("git init --quiet --bare '\(remote)'").status == 0)
        let out = root.appendingPathComponent("out")
        let store = out.appendingPathComponent("snapshots/gvsu")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)

        let first = try await Self.shell("'\(script)' restore '\(remote)' gvingest-state '\(out.path)'")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("no branch gvingest-state yet"))
        try Data("{}".utf8).write(to: store.appendingPathComponent("snapshot-000001-20250101T000000Z.json"))
        try Data(#"{"schemaVersion": 1, "news": []}"#.utf8).write(to: out.appendingPathComponent("news.json"))
        let saved = try await Self.shell("'\(script)' save '\(remote)' gvingest-state '\(out.path)'")
        #expect(saved.status == 0, "\(saved.stderr)")

        let fresh = root.appendingPathComponent("fresh-out")
        let restored = try await Self.shell("'\(script)' restore '\(remote)' gvingest-state '\(fresh.path)'")
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stderr.contains("restored 1 snapshot(s)"))
        #expect(FileManager.default.fileExists(atPath: fresh.appendingPathComponent("snapshots/gvsu/snapshot-000001-20250101T000000Z.json").path))
        #expect(FileManager.default.fileExists(atPath: fresh.appendingPathComponent("news.json").path))

        try Data("{}".utf8).write(to: fresh.appendingPathComponent("snapshots/gvsu/snapshot-000002-20250102T000000Z.json"))
        #expect(try await Self.shell("'\(script)' save '\(remote)' gvingest-state '\(fresh.path)'").status == 0)
        let log = try await Self.shell("git --git-dir='\(remote)' log --oneline gvingest-state")
        #expect(log.stdout.split(separator: "\n").count == 2, "\(log.stdout)")

        // A remote that cannot be reached fails the step instead of starting a new baseline unnoticed.
        let unreachable = try await Self.shell("'\(script)' restore '\(root.path)/no-such-remote.git' gvingest-state '\(fresh.path)'")
        #expect(unreachable.status == 75, "\(unreachable.stderr)")
    }

    @Test func thePublishScriptPublishesOnlyWhenTheRunSucceeded() async throws {
        let project = try Self.project()
        defer { try? FileManager.default.removeItem(at: project) }
        let script = Self.recipes.appendingPathComponent("publish-catalog.sh").path
        let site = project.appendingPathComponent("site")
        let good = try await Self.shell("cd '\(project.path)' && '\(script)' '\(Binary.url.path)' pipeline.json out site")
        #expect(good.status == 0, "\(good.stderr)")
        let published = try Data(contentsOf: site.appendingPathComponent("catalog.json"))
        #expect(published == (try Data(contentsOf: project.appendingPathComponent("out/catalog.json"))))
        // The count it prints is the catalog's own.
        let catalog = try #require(try JSONSerialization.jsonObject(with: published) as? [String: Any])
        let count = try #require(catalog["courseCount"] as? Int)
        #expect((catalog["courses"] as? [Any])?.count == count)
        #expect(good.stderr.contains("published \(count) courses to site"), "\(good.stderr)")
        // The website around it, and the feed at its URL.
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("index.html").path))
        #expect(try Data(contentsOf: site.appendingPathComponent("news.atom")) == (try Data(contentsOf: project.appendingPathComponent("out/news.atom"))))

        // A run that fails publishes nothing: the site keeps the last good catalog.
        try FileManager.default.removeItem(at: project.appendingPathComponent("gvsu"))
        let bad = try await Self.shell("cd '\(project.path)' && '\(script)' '\(Binary.url.path)' pipeline.json out site")
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("nothing published"))
        #expect(try Data(contentsOf: site.appendingPathComponent("catalog.json")) == published)
    }
}
