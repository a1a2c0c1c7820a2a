import Foundation
@testable import CatalogKit

/// Courses, snapshots and scratch directories for the snapshot, diff and news tests.
enum SnapshotTestSupport {
    static let snapshotFixtures = TestPaths.fixtures.appendingPathComponent("snapshots")

    /// A normalized course built from plain values, as the normalize stage would give it.
    static func course(_ code: String, title: String, description: String = "A course.", credits: String? = "3",
                       prerequisite: String? = nil, fields: [LabelledField] = []) -> Course {
        var parsed = ParsedCourse(code: CourseCode(parsing: code) ?? CourseCode(subject: "X", number: "00"), title: title,
                                  sourceURL: "file:///pages/\(code).html", system: .gvsu)
        parsed.description = description
        parsed.creditsText = credits
        parsed.prerequisiteText = prerequisite
        parsed.fields = fields
        parsed.pageURL = "https://www.gvsu.edu/catalog/course/\(code.lowercased().replacingOccurrences(of: " ", with: "-")).htm"
        parsed.provenance = ["title": "course heading <h1>"]
        return Normalizer().normalize(parsed)
    }

    static let catalog = CatalogConfig(id: "test", name: "Test catalog", system: .gvsu,
                                       source: .http(startURLs: [URL(string: "https://www.gvsu.edu/catalog/subject/cis.htm")].compactMap { $0 }))
    static let pages = PageCounts(expected: 3, fetched: 3, failed: 0)

    static func capture(_ courses: [Course], previous: Snapshot? = nil, at time: TimeInterval) -> (snapshot: Snapshot, diff: CatalogDiff) {
        Snapshot.capture(catalogID: catalog.id, source: catalog.source.json, pages: pages, courses: courses, previous: previous,
                         at: Date(timeIntervalSince1970: time))
    }

    static func fixture(_ name: String) throws -> Snapshot {
        try SnapshotStore.load(snapshotFixtures.appendingPathComponent(name))
    }

    /// A fresh directory under the system's temporary directory.
    static func scratchDirectory(_ label: String = #function) throws -> URL {
        let safe = label.filter { $0.isLetter || $0.isNumber }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("gvingest-\(safe)-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}

extension CatalogDiff {
    /// Compares two snapshots' courses.
    static func between(old: [CourseRecord], new: [CourseRecord]) -> CatalogDiff {
        between(old: old.map(ComparableCourse.init), new: new.map(ComparableCourse.init))
    }
}
