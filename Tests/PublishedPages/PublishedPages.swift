import Foundation

/// The real catalog pages published by others (Fixtures/realworld/SOURCES.md), unpacked from
/// `Fixtures/realworld.tar.xz` by `scripts/realworld.sh` into `.build/fixtures/published` on first use, and read there
/// by the tests and benchmarks; never unpacked into the source tree.
public enum PublishedPages {
    /// The package root, from this file's location (`Tests/PublishedPages/`).
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `.build/fixtures/published`, with `realworld/` and `prereqs/` in it: unpacked by the script if it is missing or
    /// was unpacked from another archive. The script keeps a copy of the archive beside the folder and compares the
    /// same way; comparing here first starts no process when the copy is current, as in every run but the first.
    public static let root: URL = {
        let root = packageRoot.appendingPathComponent(".build/fixtures/published")
        let archive = packageRoot.appendingPathComponent("Fixtures/realworld.tar.xz").path
        if FileManager.default.fileExists(atPath: root.path),
           FileManager.default.contentsEqual(atPath: archive, andPath: root.path + ".tar.xz") {
            return root
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [packageRoot.appendingPathComponent("scripts/realworld.sh").path]
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
            process.waitUntilExit()
        } catch {
            FileHandle.standardError.write(Data("scripts/realworld.sh could not start: \(error)\n".utf8))
        }
        return root
    }()

    /// `realworld/`: `acalog-uh/40`, `41`, `44` with their manifests, `acalog-lsu`, `courseleaf-umdearborn`, `banner`.
    public static var realworld: URL { root.appendingPathComponent("realworld") }
    /// 70 real prerequisite sentences: `source_url`, `course`, `prerequisite_text`.
    public static var prereqsTSV: URL { root.appendingPathComponent("prereqs/prereqs.tsv") }
}
