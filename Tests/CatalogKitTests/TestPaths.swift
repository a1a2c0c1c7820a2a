import Foundation
import PublishedPages

/// Where the package's fixtures and the real pages published by others are.
enum TestPaths {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = packageRoot.appendingPathComponent("Fixtures")
    static let gvsuFixtures = fixtures.appendingPathComponent("gvsu")
    /// Real catalog pages published by others, unpacked from Fixtures/realworld.tar.xz into .build (read-only).
    static let realworld = PublishedPages.realworld

    static func files(in directory: URL, suffix: String) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(suffix) }.sorted().map { directory.appendingPathComponent($0) }
    }
}
