import Foundation

/// Where the package's fixtures and the shared real-world pages are, from this file's location.
enum TestPaths {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = packageRoot.appendingPathComponent("Fixtures")
    static let gvsuFixtures = fixtures.appendingPathComponent("gvsu")
    /// `../shared/` beside the project root: real catalog pages published by others (read-only).
    static let shared = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
    static let realworld = shared.appendingPathComponent("realworld")

    static func files(in directory: URL, suffix: String) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(suffix) }.sorted().map { directory.appendingPathComponent($0) }
    }
}
