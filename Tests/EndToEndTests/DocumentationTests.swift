import Foundation
import Testing

/// The README stays short, and what it leaves out is in docs/: every command, every configuration key, every link.
@Suite struct DocumentationTests {
    static func text(_ path: String) throws -> String {
        try String(contentsOf: Binary.packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func theREADMEIsShortAndNamesEveryCommand() async throws {
        let readme = try Self.text("README.md")
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 250, "README.md has \(lines) lines")
        let reference = try Self.text("docs/commands.md")
        for command in try await CommandLineConventionTests.commands() {
            #expect(readme.contains("| `gvingest \(command)"), "README's table lacks \(command)")
            #expect(reference.contains("\n## gvingest \(command)\n"), "docs/commands.md lacks \(command)")
        }
    }

    /// The README's configuration is one `config check` accepts.
    @Test func theREADMEsConfigurationIsValid() async throws {
        let readme = try Self.text("README.md")
        let start = try #require(readme.range(of: "```json\n"))
        let json = readme[start.upperBound...].prefix { $0 != "`" }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(json.utf8).write(to: folder.appendingPathComponent("pipeline.json"))
        let outcome = try await Binary.run(["config", "check", "pipeline.json"], in: folder)
        #expect(outcome.status == 0, "\(outcome.stderr)")
    }

    /// Every key `config check` allows, at every place, is in docs/configuration.md as its path (arrays as `[]`). The
    /// keys are the decoder's own: a configuration with an unknown key in every object gets, for each, the list of
    /// keys allowed there.
    @Test func everyConfigurationKeyIsDocumented() async throws {
        let probe = #"""
        {"schemaVersion": 1, "zzz": 1,
         "catalogs": [{"id": "x", "name": "x", "system": "gvsu", "zzz": 1,
           "source": {"http": {"startUrls": ["https://example.edu/"], "zzz": 1}, "zzz": 1},
           "rules": {"course": "//div", "code": ".//p", "zzz": 1, "listing": {"courses": "//a", "zzz": 1}}}],
         "fetch": {"zzz": 1},
         "normalize": {"zzz": 1, "levels": [{"from": 0, "level": "graduate", "zzz": 1}]},
         "outputs": {"zzz": 1}, "news": {"zzz": 1, "featured": {"zzz": 1}}, "guards": {"zzz": 1},
         "publish": {"zzz": 1, "firestore": {"project": "gvcourse-app", "zzz": 1}},
         "announce": {"zzz": 1, "channels": [{"name": "a", "zzz": 1}, {"name": "b", "discord": {"zzz": 1}},
           {"name": "c", "slack": {"zzz": 1}}, {"name": "d", "webhook": {"zzz": 1}}, {"name": "e", "email": {"zzz": 1}}]}}
        """#
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(probe.utf8).write(to: folder.appendingPathComponent("pipeline.json"))
        let outcome = try await Binary.run(["config", "check"], in: folder)
        #expect(outcome.status == 65)
        var keys: [String] = []
        for line in outcome.stderr.split(separator: "\n") {
            guard let match = line.firstMatch(of: /^  (.*)zzz: unknown key; allowed here: (.*)$/) else { continue }
            let place = String(match.output.1).replacing(/\[[0-9]+\]/, with: "[]")
            keys += match.output.2.split(separator: ", ").map { place + $0 }
        }
        #expect(keys.count > 70, "\(outcome.stderr)")
        #expect(keys.contains("announce.channels[].email.smtpUrl") && keys.contains("fetch.maxAttempts"))
        let documented = try Self.text("docs/configuration.md")
        let missing = keys.filter { !documented.contains("`\($0)`") }
        #expect(missing.isEmpty, "docs/configuration.md lacks \(missing)")
    }

    /// Every relative link of the README and docs/ reaches a file, and a `#fragment` a heading of it.
    @Test func everyLinkOfTheDocsResolves() throws {
        let root = Binary.packageRoot
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        func anchors(_ text: String) -> Set<String> {
            Set(text.split(separator: "\n").filter { $0.hasPrefix("#") }.map { heading in
                String(heading.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
                    .filter { $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" || $0 == "_" }
                    .replacingOccurrences(of: " ", with: "-"))
            })
        }
        var broken: [String] = []
        for file in ["README.md"] + docs {
            let text = try Self.text(file)
            let folder = URL(fileURLWithPath: file).deletingLastPathComponent().relativePath
            for link in text.matches(of: /\]\(([^)\s]+)\)/).map({ String($0.output.1) }) where !link.contains("://") {
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let target = parts[0].isEmpty ? file : (folder == "." ? parts[0] : folder + "/" + parts[0])
                let url = root.appendingPathComponent(target).standardizedFileURL
                guard FileManager.default.fileExists(atPath: url.path) else { broken.append("\(file): \(link)"); continue }
                if parts.count == 2, url.pathExtension == "md",
                   !anchors(try String(contentsOf: url, encoding: .utf8)).contains(parts[1]) {
                    broken.append("\(file): \(link)")
                }
            }
        }
        #expect(broken.isEmpty, "\(broken)")
    }
}
