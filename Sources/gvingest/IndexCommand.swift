import CatalogKit
import Foundation

/// `gvingest index`: index.json over every catalog's outputs under an output root.
enum IndexCommand: Command {
    static let name = "index"
    static let summary = "Write index.json over every catalog's outputs under an output root (after the shards ran)."
    static let options: [CommandOption] = [
        .option("--config", "FILE", "The pipeline configuration whose outputs.directory is the root, whose outputs.snapshots "
                + "holds the snapshots, and whose names name catalogs that never published (default: pipeline.json, when "
                + "--root is not given)."),
        .option("--root", "DIR", "The output root (snapshots under DIR/snapshots unless --config says)."),
        .option("--out", "DIR", "Where index.json goes (default: the root)."),
    ]
    static let discussion = """
    Writes DIR/index.json, the entry point to a directory of catalogs: for each folder of the
    output root holding a catalog.json or a run-report.json (as 'gvingest run' writes them for a
    shard, one folder a catalog), its id, name, system, edition, courseCount, lastSuccess (its last
    snapshot's capture time), lastRun, outcome and exitStatus (from its run-report.json).
    'gvingest site' renders a landing page from it.
    """
    static let exitStatus = """
    Exit status: 0 ok, 64 bad usage, 65 a catalog.json, run report or snapshot is not valid,
    66 the root or the configuration can't be read, 73 index.json can't be written.
    """

    static func run(_ words: [String]) async throws -> ExitStatus {
        let arguments = try parseArguments(words)
        guard arguments.positional.isEmpty else { throw UsageError(message: "unexpected argument '\(arguments.positional[0])'") }
        let config = try (arguments.value("--root") == nil ? arguments.value("--config") ?? "pipeline.json" : arguments.value("--config"))
            .map { try loadConfiguration($0) }
        let root = arguments.value("--root").map { URL(fileURLWithPath: $0) } ?? config?.outputs.directory ?? URL(fileURLWithPath: "out")
        let snapshots = config?.outputs.snapshots ?? root.appendingPathComponent("snapshots")
        guard FileManager.default.fileExists(atPath: root.path) else {
            throw CommandFailure("\(root.path): no such output root", .missingInput)
        }
        let index = try CommandFailure.catching(.invalidData) { try CatalogIndex.build(root: root, snapshots: snapshots, known: config?.catalogs ?? []) }
        let file = (arguments.value("--out").map { URL(fileURLWithPath: $0) } ?? root).appendingPathComponent("index.json")
        try CommandFailure.catching(.cannotWrite) { try AtomicFile.write(JSONFile.fileBytes(index), to: file) }
        let failing = index.catalogs.filter { ($0.exitStatus ?? 0) != 0 }.count
        printError("gvingest index: wrote \(file.path): \(index.catalogs.count) catalog(s), \(failing) whose last run failed")
        return .ok
    }
}
