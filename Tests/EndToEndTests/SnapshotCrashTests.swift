import CatalogKit
import Foundation
import Testing

/// A writer killed with SIGKILL in the middle of writing a snapshot leaves every earlier snapshot whole.
@Suite struct SnapshotCrashTests {
    /// The test-support writer (benchmarks/SyntheticSnapshots), built by `swift test` with the suite: it stays
    /// there when `GVINGEST_BIN` points the tests at another gvingest binary.
    static let helper = Binary.productsDirectory.appendingPathComponent("SyntheticSnapshots")

    static func temporaries(_ directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasPrefix(".") && $0.hasSuffix(".tmp") }
    }

    /// Runs the helper with `arguments` until it has printed `line`, then until `inProgress` says so (or a
    /// long while has passed), and kills it with SIGKILL there. Returns what it printed, whether it was
    /// caught in progress, and the process (exited).
    static func killHelper(_ arguments: [String], after line: String, when inProgress: () -> Bool) throws
        -> (printed: String, caught: Bool, process: Process) {
        let writer = Process()
        writer.executableURL = helper
        writer.arguments = arguments
        let output = Pipe()
        writer.standardOutput = output
        try writer.run()
        var printed = ""
        while !printed.contains(line) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            printed += String(decoding: chunk, as: UTF8.self)
        }
        #expect(printed.contains(line), "the writer stopped early: \(printed)")
        var caught = false
        for _ in 0..<5_000_000 where writer.isRunning {
            if inProgress() {
                kill(writer.processIdentifier, SIGKILL)
                caught = true
                break
            }
        }
        if !caught { kill(writer.processIdentifier, SIGKILL) }
        writer.waitUntilExit()
        printed += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(writer.terminationReason == .uncaughtSignal && writer.terminationStatus == SIGKILL)
        return (printed, caught, writer)
    }

    @Test func killingAWriterMidSnapshotLeavesThePreviousSnapshotsWhole() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-crash-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Wait until one snapshot is complete, then until a write is in progress (its temporary file
        // exists), and kill the writer there.
        let (printed, killedMidWrite, _) = try Self.killHelper(["write-loop", directory.path, "--courses", "4000"], after: "wrote 1\n") {
            !Self.temporaries(directory).isEmpty
        }

        #expect(killedMidWrite, "never saw a write in progress")
        // Nearly always the torn write's temporary file is still there (it could have been renamed in the
        // microseconds between seeing it and the kill).
        let leftovers = Self.temporaries(directory)

        // Every snapshot the store lists is whole, the torn one is not among them, and the newest is at
        // least the last one the writer reported.
        let store = SnapshotStore(directory: directory)
        let entries = try store.list()
        let reported = printed.split(separator: "\n").compactMap { Int($0.dropFirst("wrote ".count)) }.max() ?? 0
        #expect(reported >= 1)
        #expect((reported...(reported + 1)).contains(entries.last?.sequence ?? -1), "listed \(entries.map(\.sequence)), reported \(reported)")
        for entry in entries {
            let snapshot = try SnapshotStore.load(entry.file)
            #expect(snapshot.courses.count == 4000, "\(entry.name)")
        }
        #expect(try store.latest()?.snapshot.courses.count == 4000)

        // The next run cleans the leftovers up at once, however fresh, because their writer is gone; and only them.
        let removed = try store.prune(keeping: entries.count)
        #expect(removed.map(\.lastPathComponent).sorted() == leftovers.sorted())
        #expect(Self.temporaries(directory).isEmpty)
        #expect(try store.list() == entries)
    }
}
