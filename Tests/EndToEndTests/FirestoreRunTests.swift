import CatalogKit
import Foundation
import LoopbackServer
import Testing

/// `gvingest run` with `publish.firestore`, and what publish refuses: part of FirestorePublishTests' suite, so they
/// share its emulator and run one at a time.
extension FirestorePublishTests {
    @Test func aRunWithAPublishSectionPublishesAfterItsOutputs() async throws {
        let emulator = try await emulator(), project = "demo-scheduled-run", scratch = Scratch()
        try FileManager.default.createDirectory(at: scratch.root, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: scratch.root.appendingPathComponent("pages"), withDestinationURL: Self.gvsuPages)
        let config = scratch.root.appendingPathComponent("pipeline.json")
        try Data("""
        {"schemaVersion": 1,
         "catalogs": [{"id": "gvsu", "name": "GVSU", "system": "gvsu", "source": {"directory": "pages"}}],
         "outputs": {"directory": "out"},
         "publish": {"firestore": {"project": "\(project)", "coursesCollection": "catalogCourses", "deadlineSeconds": 60}}}
        """.utf8).write(to: config)
        let check = try await Binary.run(["config", "check", config.path])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("publishes into Firestore project \(project) ((default): catalogCourses, news)"))
        let bad = scratch.root.appendingPathComponent("bad.json")
        try Data(String(decoding: try Data(contentsOf: config), as: UTF8.self).replacingOccurrences(of: "deadlineSeconds", with: "deadline").utf8).write(to: bad)
        let refused = try await Binary.run(["config", "check", bad.path])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("publish.firestore.deadline: unknown key; allowed here: project, database, coursesCollection, "
                                        + "newsCollection, tokenCommand, deadlineSeconds"))

        let first = try await Binary.run(["run", "--config", config.path, "--quiet"], environment: ["FIRESTORE_EMULATOR_HOST": emulator.hostPort])
        #expect(first.status == 0, "\(first.stderr)")
        let total = try Self.catalogCourses(scratch).count
        let held = try emulator.documents(project: project, collection: "catalogCourses")
        #expect(held.count == total && total > 0)
        #expect(held.values.compactMap { Self.appRejects(course: $0.fields) }.isEmpty)
        let stage = try Self.reportStage(scratch, "publish.firestore")
        #expect(stage?["coursesWritten"] == total && stage?["coursesUnchanged"] == 0)

        // Again: the run finds no change and the publish writes nothing.
        let second = try await Binary.run(["run", "--config", config.path, "--quiet"], environment: ["FIRESTORE_EMULATOR_HOST": emulator.hostPort])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try Self.reportStage(scratch, "publish.firestore")?["coursesWritten"] == 0)

        // Without credentials the outputs stand, and the run says so with publish's status.
        let noCredentials = try await Binary.run(["run", "--config", config.path, "--quiet"],
                                           environment: ["FIRESTORE_EMULATOR_HOST": "", "GOOGLE_OAUTH_ACCESS_TOKEN": ""])
        #expect(noCredentials.status == 77)
        #expect(noCredentials.stderr.contains("no credentials"))
        #expect(FileManager.default.fileExists(atPath: scratch.out.appendingPathComponent("catalog.json").path))
    }

    /// The site and Firestore are independent stages: a site that cannot be written keeps nothing from the app.
    @Test func aSiteThatCannotBeWrittenDoesNotStopThePublish() async throws {
        let emulator = try await emulator(), project = "demo-site-refused", scratch = Scratch()
        try FileManager.default.createDirectory(at: scratch.root.appendingPathComponent("site"), withIntermediateDirectories: true)
        try Data("not gvingest's".utf8).write(to: scratch.root.appendingPathComponent("site/notes.txt"))
        try FileManager.default.createSymbolicLink(at: scratch.root.appendingPathComponent("pages"), withDestinationURL: Self.gvsuPages)
        let config = scratch.root.appendingPathComponent("pipeline.json")
        try Data("""
        {"schemaVersion": 1,
         "catalogs": [{"id": "gvsu", "name": "GVSU", "system": "gvsu", "source": {"directory": "pages"}}],
         "outputs": {"directory": "out", "site": "site"},
         "publish": {"firestore": {"project": "\(project)", "deadlineSeconds": 60}}}
        """.utf8).write(to: config)
        let run = try await Binary.run(["run", "--config", config.path, "--quiet"], environment: ["FIRESTORE_EMULATOR_HOST": emulator.hostPort])
        #expect(run.status == 73, "\(run.stderr)")
        #expect(run.stderr.contains("gvingest run [site] error: "), "\(run.stderr)")
        #expect(run.stderr.contains("gvingest run [publish.firestore] published into \(project)"), "\(run.stderr)")
        let total = try Self.catalogCourses(scratch).count
        let held = try emulator.documents(project: project, collection: "courses")
        #expect(total > 0 && held.count == total)
        #expect(try Self.reportStage(scratch, "publish.firestore")?["coursesWritten"] == total)
        #expect(try Self.reportStage(scratch, RunReport.commitStage) != nil)
    }

    static func reportStage(_ scratch: Scratch, _ name: String) throws -> [String: Int]? {
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: scratch.out.appendingPathComponent("run-report.json"))) as? [String: Any]
        let stages = report?["stages"] as? [[String: Any]] ?? []
        return stages.first { $0["name"] as? String == name }?["counts"] as? [String: Int]
    }

    @Test func aRunThatGuardsRefusedNeverPublishes() async throws {
        let emulator = try await emulator(), project = "demo-refused-run", scratch = Scratch()
        try await Self.run(Self.gvsuPages, system: "gvsu", into: scratch, catalog: "gvsu")
        // Then the same catalog with most of its pages gone: the removal guard refuses, the old outputs stay.
        let few = scratch.root.appendingPathComponent("few")
        try FileManager.default.createDirectory(at: few, withIntermediateDirectories: true)
        for page in try FileManager.default.contentsOfDirectory(atPath: Self.gvsuPages.path).sorted().prefix(4) {
            try FileManager.default.copyItem(at: Self.gvsuPages.appendingPathComponent(page), to: few.appendingPathComponent(page))
        }
        let refused = try await Binary.run(["run", "--source", few.path, "--system", "gvsu", "--catalog", "gvsu", "--out", scratch.out.path, "--quiet"])
        #expect(refused.status == 65)
        let published = try await Self.publish(scratch, project: project, host: emulator.hostPort)
        #expect(published.status == 65)
        #expect(published.stderr.contains("run-report.json") && published.stderr.contains("nothing published"))
        #expect(try !emulator.hasDocuments(project: project, collection: "courses"))
    }

    @Test func deletionsAreBoundedByTheRemovalGuard() async throws {
        let emulator = try await emulator(), project = "demo-removal-guard", scratch = Scratch()
        try await Self.run(Self.gvsuPages, system: "gvsu", into: scratch, catalog: "gvsu")
        let total = try Self.catalogCourses(scratch).count
        await #expect(try Self.publish(scratch, project: project, host: emulator.hostPort).courses?.written == total)
        // A run told to accept losing most of the catalog; its publish must be told too.
        let few = scratch.root.appendingPathComponent("few")
        try FileManager.default.createDirectory(at: few, withIntermediateDirectories: true)
        for page in try FileManager.default.contentsOfDirectory(atPath: Self.gvsuPages.path).sorted().prefix(4) {
            try FileManager.default.copyItem(at: Self.gvsuPages.appendingPathComponent(page), to: few.appendingPathComponent(page))
        }
        let run = try await Binary.run(["run", "--source", few.path, "--system", "gvsu", "--catalog", "gvsu", "--out", scratch.out.path,
                                  "--accept-removals", "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        let remaining = try Self.catalogCourses(scratch).count
        let refused = try await Self.publish(scratch, project: project, host: emulator.hostPort)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("maximumRemovalFraction") && refused.stderr.contains("nothing written"))
        #expect(try emulator.documents(project: project, collection: "courses").count == total)
        let accepted = try await Self.publish(scratch, project: project, host: emulator.hostPort, extra: ["--accept-removals"])
        #expect(accepted.status == 0 && accepted.courses?.deleted == total - remaining)
        try Self.expectCatalogHeld(emulator, project: project, scratch)
    }

    @Test func withoutCredentialsOrWithBadUsagePublishStopsClearly() async throws {
        let scratch = Scratch()
        try await Self.run(Self.gvsuPages, system: "gvsu", into: scratch, catalog: "gvsu")
        let bare = try await Binary.run(["publish", "--firestore", "gvcourse-app", "--out", scratch.out.path],
                                  environment: ["FIRESTORE_EMULATOR_HOST": "", "GOOGLE_OAUTH_ACCESS_TOKEN": ""])
        #expect(bare.status == 77)
        #expect(bare.stderr.contains("GOOGLE_OAUTH_ACCESS_TOKEN"))
        let failingCommand = try await Binary.run(["publish", "--firestore", "gvcourse-app", "--out", scratch.out.path, "--token-command", "exit 4"],
                                            environment: ["FIRESTORE_EMULATOR_HOST": "", "GOOGLE_OAUTH_ACCESS_TOKEN": ""])
        #expect(failingCommand.status == 77)
        #expect(failingCommand.stderr.contains("token command"))
        for words in [["--out", scratch.out.path], ["--firestore", "gvcourse-app"], ["--firestore", "Not A Project", "--out", scratch.out.path],
                      ["--firestore", "gvcourse-app", "--out", scratch.out.path, "--parallel", "0"]] {
            #expect(try await Binary.run(["publish"] + words).status == 64)
        }
        let missing = try await Binary.run(["publish", "--firestore", "gvcourse-app", "--out", scratch.root.appendingPathComponent("nowhere").path])
        #expect(missing.status == 66)
        let aFile = try await Binary.run(["publish", "--firestore", "gvcourse-app", "--out", "Package.swift"])
        #expect(aFile.status == 66)
        #expect(aFile.stderr.contains("Package.swift: not a directory"), "\(aFile.stderr)")
    }
}
