import CatalogKit
import Foundation
import Testing

/// `FileSet` replaces several files as one; these run on an ordinary directory (the full-disk and
/// read-only cases run the binary on a tmpfs: `UnwritableOutputTests`).
struct FileSetTests {
    static func scratch() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-fileset-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        return root
    }

    static func contents(_ directory: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            result[name] = (try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? "<directory>"
        }
        return result
    }

    @Test func aFileThatCannotBeStagedLeavesTheEarlierOnesUntouched() throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("old a".utf8).write(to: root.appendingPathComponent("a.json"))
        try Data("a file, not a directory".utf8).write(to: root.appendingPathComponent("blocked"))
        let before = try Self.contents(root)
        var files = FileSet()
        let error = #expect(throws: FileWriteError.self) {
            try files.replace([(root.appendingPathComponent("a.json"), Data("new a".utf8)),
                               (root.appendingPathComponent("blocked/b.json"), Data("new b".utf8))])
        }
        #expect(error?.code == ENOTDIR)
        #expect(error?.path == root.appendingPathComponent("blocked").path)
        #expect(try Self.contents(root) == before)
    }

    @Test func restorePutsBackOldFilesAndRemovesNewOnes() throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("old a".utf8).write(to: root.appendingPathComponent("a.json"))
        let before = try Self.contents(root)
        var files = FileSet()
        try files.replace([(root.appendingPathComponent("a.json"), Data("new a".utf8)),
                           (root.appendingPathComponent("b.json"), Data("new b".utf8))])
        #expect(try String(contentsOf: root.appendingPathComponent("a.json"), encoding: .utf8) == "new a")
        files.restore()
        #expect(try Self.contents(root) == before)
    }

    @Test func finishKeepsTheNewFilesAndLeavesNoSecondNames() throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("old a".utf8).write(to: root.appendingPathComponent("a.json"))
        var files = FileSet()
        try files.replace([(root.appendingPathComponent("a.json"), Data("new a".utf8))])
        files.finish()
        #expect(try Self.contents(root) == ["a.json": "new a"])
        files.restore()  // nothing left to undo once finished
        #expect(try Self.contents(root) == ["a.json": "new a"])
    }
}
