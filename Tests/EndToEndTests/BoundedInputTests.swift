import Foundation
import Testing

/// Issue 31, item 3: nothing outside the outputs is written or deleted through a planted symbolic link.
@Suite(.serialized) struct PlantedLinkTests {
    @Test(arguments: ["out/snapshots/gvsu", "out/snapshots", "out/.gvingest-commit.json", "cache"])
    func aRunRefusesALinkWhereItWrites(_ planted: String) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-links-\(UUID().uuidString)")
        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-elsewhere-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root); try? FileManager.default.removeItem(at: elsewhere) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("out/snapshots"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let bystander = elsewhere.appendingPathComponent("snapshot-000001-20200101T000000Z.json")
        try Data("not gvingest's".utf8).write(to: bystander)
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("pages"),
                                                   withDestinationURL: Binary.fixtures.appendingPathComponent("gvsu"))
        let config = root.appendingPathComponent("pipeline.json")
        try Data("""
        {"schemaVersion": 1, "catalogs": [{"id": "gvsu", "name": "GVSU", "system": "gvsu", "source": {"directory": "pages"}}],
         "fetch": {"cacheDirectory": "cache"}, "outputs": {"directory": "out", "keepSnapshots": 2}}
        """.utf8).write(to: config)
        let link = root.appendingPathComponent(planted)
        try? FileManager.default.removeItem(at: link)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: elsewhere)
        let outcome = try await Binary.run(["run", "--config", config.path, "--quiet"])
        #expect(outcome.status == 73, "\(outcome.stderr)")
        #expect(outcome.stderr.contains(link.path) && outcome.stderr.contains("symbolic link"), "\(outcome.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path) == [bystander.lastPathComponent])
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("out/catalog.json").path))
    }
}

/// Issue 31, item 4: every read is bounded, standard input included.
@Suite struct BoundedInputTests {
    /// Standard input without end: read to the page limit, then one clear error (66), not all of memory.
    @Test(arguments: [["prereq", "-"], ["parse", "-"]])
    func endlessStandardInputStopsAtItsLimit(_ arguments: [String]) async throws {
        let process = Process(), errors = Pipe()
        process.executableURL = Binary.url
        process.arguments = arguments
        process.standardInput = FileHandle(forReadingAtPath: "/dev/zero")
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try await Binary.offThePool { process.waitUntilExit() }
        #expect(process.terminationStatus == 66, "\(stderr)")
        #expect(stderr.contains("larger than 256 MiB"), "\(stderr)")
    }

    /// A device given as the configuration is refused by name, at once.
    @Test func aDeviceAsTheConfigurationIsRefused() async throws {
        let outcome = try await Binary.run(["config", "check", "/dev/zero"])
        #expect(outcome.status != 0)
        #expect((outcome.stdout + outcome.stderr).contains("/dev/zero") && (outcome.stdout + outcome.stderr).contains("not a regular file"),
                "\(outcome.stdout)\(outcome.stderr)")
    }
}
