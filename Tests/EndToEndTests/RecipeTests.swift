import Foundation
import Testing

/// Each operations recipe in docs/recipes is run as written, with only its paths pointed at a scratch copy
/// of the recorded catalog: the cron line, the systemd unit's command, and the publish-on-success script
/// the CI workflow calls.
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

    static func shell(_ command: String) throws -> Binary.Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", command]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Binary.Outcome(status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self),
                              stderr: String(decoding: errors, as: UTF8.self))
    }

    /// The recipe's paths, pointed at the scratch project and the built binary.
    static func localized(_ command: String, project: URL) -> String {
        command.replacingOccurrences(of: "/srv/gvingest/.build/release/gvingest", with: Binary.url.path)
            .replacingOccurrences(of: "./.build/release/gvingest", with: Binary.url.path)
            .replacingOccurrences(of: "/var/log/gvingest/run.log", with: project.appendingPathComponent("run.log").path)
            .replacingOccurrences(of: "/srv/gvingest", with: project.path)
    }

    @Test func theCronLineRunsThePipeline() throws {
        let project = try Self.project()
        defer { try? FileManager.default.removeItem(at: project) }
        let text = try String(contentsOf: Self.recipes.appendingPathComponent("gvingest.cron"), encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { !$0.hasPrefix("#") && !$0.isEmpty })
        let fields = line.split(separator: " ", maxSplits: 5)
        #expect(fields.count == 6)
        let command = Self.localized(String(fields[5]), project: project)
        let outcome = try Self.shell(command)
        #expect(outcome.status == 0, "\(command)\n\(outcome.stderr)")
        #expect(FileManager.default.fileExists(atPath: project.appendingPathComponent("out/catalog.json").path))
        let log = try String(contentsOf: project.appendingPathComponent("run.log"), encoding: .utf8)
        let lines = log.split(separator: "\n")
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil })
    }

    @Test func theSystemdUnitRunsThePipelineAndRetriesOnlyTemporaryFailures() throws {
        let project = try Self.project()
        defer { try? FileManager.default.removeItem(at: project) }
        let unit = try String(contentsOf: Self.recipes.appendingPathComponent("gvingest.service"), encoding: .utf8)
        func value(_ key: String) throws -> String {
            let line = try #require(unit.split(separator: "\n").first { $0.hasPrefix(key + "=") })
            return String(line.dropFirst(key.count + 1))
        }
        let directory = Self.localized(try value("WorkingDirectory"), project: project)
        let command = Self.localized(try value("ExecStart"), project: project)
        let outcome = try Self.shell("cd '\(directory)' && \(command)")
        #expect(outcome.status == 0, "\(command)\n\(outcome.stderr)")
        #expect(FileManager.default.fileExists(atPath: project.appendingPathComponent("out/news.atom").path))
        // The unit restarts on 75, which is what a run that finds the lock taken exits with.
        #expect(try value("RestartForceExitStatus") == "75")
        let timer = try String(contentsOf: Self.recipes.appendingPathComponent("gvingest.timer"), encoding: .utf8)
        #expect(timer.contains("OnCalendar="))
        #expect(timer.contains("Persistent=true"))
    }

    @Test func theWorkflowPublishesOnlyWhenTheRunSucceeded() throws {
        let workflow = try String(contentsOf: Self.recipes.appendingPathComponent("publish-catalog.yml"), encoding: .utf8)
        #expect(workflow.contains("docs/recipes/publish-catalog.sh .build/release/gvingest pipeline.json out site"))
        #expect(workflow.components(separatedBy: "if: success()").count - 1 == 2)

        let project = try Self.project()
        defer { try? FileManager.default.removeItem(at: project) }
        let script = Self.recipes.appendingPathComponent("publish-catalog.sh").path
        let site = project.appendingPathComponent("site")
        let good = try Self.shell("cd '\(project.path)' && '\(script)' '\(Binary.url.path)' pipeline.json out site")
        #expect(good.status == 0, "\(good.stderr)")
        let published = try Data(contentsOf: site.appendingPathComponent("catalog.json"))
        #expect(published == (try Data(contentsOf: project.appendingPathComponent("out/catalog.json"))))

        // A run that fails publishes nothing: the site keeps the last good catalog.
        try FileManager.default.removeItem(at: project.appendingPathComponent("gvsu"))
        let bad = try Self.shell("cd '\(project.path)' && '\(script)' '\(Binary.url.path)' pipeline.json out site")
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("nothing published"))
        #expect(try Data(contentsOf: site.appendingPathComponent("catalog.json")) == published)
    }
}
