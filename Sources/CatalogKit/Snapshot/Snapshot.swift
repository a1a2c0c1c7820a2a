import Foundation

/// How many pages a run expected, fetched and could not fetch.
public struct PageCounts: Sendable, Equatable, Codable {
    public var expected: Int
    public var fetched: Int
    public var failed: Int
    /// Pages that were fetched (and count as such) but gave no course: parse gaps, each with its URL and why.
    public var unparsed: [ParseGap]
    /// The subjects the listing pages named, by code: the site shows them before the configuration's names.
    public var subjectNames: [String: String]

    public init(expected: Int, fetched: Int, failed: Int, unparsed: [ParseGap] = [], subjectNames: [String: String] = [:]) {
        self.expected = expected
        self.fetched = fetched
        self.failed = failed
        self.unparsed = unparsed
        self.subjectNames = subjectNames
    }

    private enum CodingKeys: String, CodingKey { case expected, fetched, failed, unparsed, subjectNames }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(expected: try container.decode(Int.self, forKey: .expected), fetched: try container.decode(Int.self, forKey: .fetched),
                  failed: try container.decode(Int.self, forKey: .failed),
                  unparsed: try container.decodeIfPresent([ParseGap].self, forKey: .unparsed) ?? [],
                  subjectNames: try container.decodeIfPresent([String: String].self, forKey: .subjectNames) ?? [:])
    }

    /// `unparsed` only when there are gaps, as snapshots have always had it; `subjectNames` only when pages named some.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(expected, forKey: .expected)
        try container.encode(fetched, forKey: .fetched)
        try container.encode(failed, forKey: .failed)
        if !unparsed.isEmpty { try container.encode(unparsed, forKey: .unparsed) }
        if !subjectNames.isEmpty { try container.encode(subjectNames, forKey: .subjectNames) }
    }
}

/// A page fetched but not read: on its own no reason to refuse a run (`guards.maximumUnparsedFraction` bounds them).
public struct ParseGap: Sendable, Equatable, Codable {
    public var url: String
    public var reason: String
}

extension CatalogSource {
    /// The source in the configuration's shape: `{"http": {"startUrls": […]}}`, `{"directory": path}`, `{"replay": path}`.
    public var json: JSONValue {
        switch self {
        case let .http(urls): return .object(["http": .object(["startUrls": .array(urls.map { .string($0.absoluteString) })])])
        case let .directory(url): return .object(["directory": .string(url.path)])
        case let .replay(url): return .object(["replay": .string(url.path)])
        }
    }
}

/// Why a file (a snapshot, a published catalog, the news) or a record in it is not what it should be.
public struct FormatError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// One run's catalog with its courses' stamps; the file is canonical JSON: keys sorted, courses by id.
public struct Snapshot: Sendable, Equatable {
    /// 2 added each course's `firstEdition` and `history`, the snapshot's `edition` and `retired`; version 1 still reads.
    public static let schemaVersion = 2
    static let readableVersions = 1...2

    public var catalogID: String
    /// The catalog's source as the configuration gave it.
    public var source: JSONValue
    /// When the run captured it (RFC 3339, UTC, whole seconds).
    public var capturedAt: String
    public var pages: PageCounts
    /// Sorted by id; one course an id; stamped, without diagnostics.
    public internal(set) var courses: [CourseRecord]
    /// The label of the edition it holds (`Snapshot.capture` says whence); nil in snapshots from before runs kept one.
    public var edition: String?
    /// Courses that left the catalog, with their history, by id.
    public var retired: [RetiredCourse] = []

    /// A snapshot of `courses`, sorted by id; of two courses with one id the first is kept.
    public init(catalogID: String, source: JSONValue, capturedAt: String, pages: PageCounts, courses: [CourseRecord]) {
        self.catalogID = catalogID
        self.source = source
        self.capturedAt = capturedAt
        self.pages = pages
        var seen = Set<String>()
        self.courses = courses.filter { seen.insert($0.id).inserted }.sorted { $0.id < $1.id }
    }

    /// The file as it is written and read.
    private struct File: Codable {
        struct Catalog: Codable {
            var id: String
            var source: JSONValue
        }
        var schemaVersion: Int
        var catalog: Catalog
        var capturedAt: String
        var edition: String?
        var pages: PageCounts
        var courseCount: Int
        var courses: [CourseRecord]
        var retired: [RetiredCourse]?
    }

    /// The file's bytes, each course with its fingerprint, ending in a newline.
    public func encoded() -> Data {
        let courses = courses.map { course in
            var course = course
            course.fingerprint = ComparableCourse(course).fingerprint
            return course
        }
        return JSONFile.fileBytes(File(schemaVersion: Self.schemaVersion, catalog: File.Catalog(id: catalogID, source: source),
                                       capturedAt: capturedAt, edition: edition, pages: pages, courseCount: courses.count,
                                       courses: courses, retired: retired.isEmpty ? nil : retired))
    }

    /// Reads a snapshot file's bytes, strictly: every field a snapshot has must be there and well formed.
    public init(bytes: some Sequence<UInt8>) throws(FormatError) {
        let bytes = Array(bytes)
        func fail(_ message: String) -> FormatError { FormatError(message: message) }
        var file: File
        do {
            let (header, courses) = try CourseDocument.read(bytes, header: File.self) { $0 }
            file = header
            file.courses = courses
        } catch {
            // A snapshot of another version fails on its shape: say which version it is instead.
            if let version = (try? JSONFile.decode(SchemaVersion.self, from: bytes))?.schemaVersion, !Self.readableVersions.contains(version) {
                throw fail("schemaVersion \(version): this gvingest reads snapshots of versions 1 and 2")
            }
            throw error
        }
        guard Self.readableVersions.contains(file.schemaVersion) else {
            throw fail("schemaVersion \(file.schemaVersion): this gvingest reads snapshots of versions 1 and 2")
        }
        guard Timestamp.date(file.capturedAt) != nil else {
            throw fail("capturedAt: expected a time like 2024-05-01T12:00:00Z, got \"\(file.capturedAt)\"")
        }
        guard file.courseCount == file.courses.count else {
            throw fail("courseCount is \(file.courseCount) but \(file.courses.count) courses are listed")
        }
        var seen = Set<String>()
        var courses = file.courses
        for index in courses.indices {
            let course = courses[index]
            guard seen.insert(course.id).inserted else { throw fail("courses[\(index)].id: \(course.id) appears twice") }
            for (key, stamp) in [("createdAt", course.createdAt), ("updatedAt", course.updatedAt)] where stamp.flatMap(Timestamp.date) == nil {
                throw fail("courses[\(index)].\(key): a snapshot's course needs a time like 2024-05-01T12:00:00Z, got \(stamp.map { "\"\($0)\"" } ?? "none")")
            }
            // Recomputed when written, so a stale or edited fingerprint cannot hide a change.
            courses[index].fingerprint = nil
            courses[index].cleanTexts()
        }
        self.init(catalogID: file.catalog.id, source: file.catalog.source, capturedAt: file.capturedAt, pages: file.pages, courses: courses)
        edition = file.edition
        retired = file.retired ?? []
    }
}

/// A snapshot's members but its courses (`SnapshotStore.latestHeader`).
public struct SnapshotHeader: Sendable, Decodable {
    public var capturedAt: String
    public var edition: String?
    public var pages: PageCounts
}

/// Only the version of a file, to say which one it is when the rest does not read.
struct SchemaVersion: Decodable {
    var schemaVersion: Int?
}
