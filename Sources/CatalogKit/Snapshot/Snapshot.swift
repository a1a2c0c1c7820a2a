import Foundation

/// How many pages a run expected, fetched and could not fetch.
public struct PageCounts: Sendable, Equatable {
    public var expected: Int
    public var fetched: Int
    public var failed: Int
    /// Pages that were fetched (and count as such) but gave no course: parse gaps, each with its URL and why.
    public var unparsed: [ParseGap]

    public init(expected: Int, fetched: Int, failed: Int, unparsed: [ParseGap] = []) {
        self.expected = expected
        self.fetched = fetched
        self.failed = failed
        self.unparsed = unparsed
    }

    var json: JSONValue {
        var object: [String: JSONValue] = ["expected": .int(expected), "fetched": .int(fetched), "failed": .int(failed)]
        if !unparsed.isEmpty { object["unparsed"] = .array(unparsed.map(\.json)) }
        return .object(object)
    }
}

/// A page fetched but not read: on its own no reason to refuse a run (`guards.maximumUnparsedFraction` bounds them).
public struct ParseGap: Sendable, Equatable {
    public var url: String
    public var reason: String

    public var json: JSONValue { .object(["url": .string(url), "reason": .string(reason)]) }
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

/// One run's catalog with its courses' stamps; the file is canonical JSON: keys sorted, courses by id, one a line.
public struct Snapshot: Sendable, Equatable {
    public static let schemaVersion = 1

    public var catalogID: String
    /// The catalog's source as the configuration gave it.
    public var source: JSONValue
    /// When the run captured it (RFC 3339, UTC, whole seconds).
    public var capturedAt: String
    public var pages: PageCounts
    /// Sorted by id; one course an id.
    public internal(set) var courses: [SnapshotCourse]

    /// A snapshot of `courses`, sorted by id; of two courses with one id the first is kept.
    public init(catalogID: String, source: JSONValue, capturedAt: String, pages: PageCounts, courses: [SnapshotCourse]) {
        self.catalogID = catalogID
        self.source = source
        self.capturedAt = capturedAt
        self.pages = pages
        var seen = Set<String>()
        self.courses = courses.filter { seen.insert($0.id).inserted }.sorted { $0.id < $1.id }
    }

    public var json: JSONValue {
        .object([
            "schemaVersion": .int(Self.schemaVersion),
            "catalog": .object(["id": .string(catalogID), "source": source]),
            "capturedAt": .string(capturedAt), "pages": pages.json, "courseCount": .int(courses.count),
            "courses": .array(courses.map(\.json)),
        ])
    }

    /// The file's bytes: the document indented two levels deep (one course a line), ending in a newline.
    public func encoded() -> [UInt8] {
        var bytes = json.serializedBytes(indentingLevels: 2)
        bytes.append(0x0A)
        return bytes
    }

    /// Reads a snapshot file's bytes, strictly: every field a snapshot has must be there and well formed.
    public init(bytes: [UInt8]) throws(FormatError) {
        var courses: [SnapshotCourse] = []
        let header = try CourseDocument.read(bytes) { (record, _) throws(FormatError) in
            let course = try SnapshotCourse(json: record)
            guard course.createdAt != nil, course.updatedAt != nil else {
                throw FormatError(message: "\(course.id): a snapshot's course needs createdAt and updatedAt")
            }
            courses.append(course)
        }
        func fail(_ message: String) -> FormatError { FormatError(message: message) }
        guard case let .int(version)? = header["schemaVersion"] else { throw fail("no schemaVersion: not a snapshot") }
        guard version == Self.schemaVersion else {
            throw fail("schemaVersion \(version): this gvingest reads snapshots of version \(Self.schemaVersion)")
        }
        guard case let .object(catalog)? = header["catalog"], case let .string(catalogID)? = catalog["id"], let source = catalog["source"] else {
            throw fail("expected \"catalog\": {\"id\": …, \"source\": …}")
        }
        guard case let .string(capturedAt)? = header["capturedAt"], Timestamp.date(capturedAt) != nil else {
            throw fail("expected \"capturedAt\" as a time like 2024-05-01T12:00:00Z, got \(header["capturedAt"]?.shortDescription ?? "nothing")")
        }
        guard case let .object(pages)? = header["pages"], case let .int(expected)? = pages["expected"],
              case let .int(fetched)? = pages["fetched"], case let .int(failed)? = pages["failed"] else {
            throw fail("expected \"pages\": {\"expected\": n, \"fetched\": n, \"failed\": n}")
        }
        guard case let .array(gaps) = pages["unparsed"] ?? .array([]) else {
            throw fail("expected \"pages.unparsed\" as a list of {\"url\", \"reason\"}")
        }
        let unparsed = try gaps.map { gap throws(FormatError) in
            guard case let .string(url)? = gap["url"], case let .string(reason)? = gap["reason"] else {
                throw fail("expected each of \"pages.unparsed\" as {\"url\": …, \"reason\": …}")
            }
            return ParseGap(url: url, reason: reason)
        }
        guard case let .int(count)? = header["courseCount"], count == courses.count else {
            throw fail("courseCount is \(header["courseCount"]?.shortDescription ?? "missing") but \(courses.count) courses are listed")
        }
        var seen = Set<String>()
        for course in courses where !seen.insert(course.id).inserted { throw fail("course id \(course.id) appears twice") }
        self.init(catalogID: catalogID, source: source, capturedAt: capturedAt,
                  pages: PageCounts(expected: expected, fetched: fetched, failed: failed, unparsed: unparsed), courses: courses)
    }
}

/// A JSON document with a `"courses"` array of course records: a snapshot or a published catalog.
public enum CourseDocument {
    /// Hands each course record and its index to `each` as it is parsed (never all at once); returns the other members.
    public static func read(_ bytes: [UInt8],
                            each: (JSONValue, Int) throws(FormatError) -> Void) throws(FormatError) -> [String: JSONValue] {
        try document { index in
            try JSONValue.parse(bytes, streaming: "courses") { record in
                try each(record, index)
                index += 1
            }
        }
    }

    /// The same with each course's comparable form (only the members comparing needs become values).
    public static func comparableCourses(_ bytes: [UInt8], each: (ComparableCourse) -> Void) throws(FormatError) -> [String: JSONValue] {
        try document { index in
            try JSONValue.parse(bytes, streaming: "courses", selecting: ComparableCourse.recordKeys.map(\.rawValue)) { values in
                each(try ComparableCourse(selected: values))
                index += 1
            }
        }
    }

    /// Runs a streaming parse that counts records in `index`, and says what went wrong where.
    private static func document(_ parse: (inout Int) throws -> JSONValue) throws(FormatError) -> [String: JSONValue] {
        var index = 0
        let root: JSONValue
        do {
            root = try parse(&index)
        } catch let error as JSONSyntaxError {
            throw FormatError(message: "not valid JSON: \(error)")
        } catch let error as FormatError {
            throw FormatError(message: "courses[\(index)]: \(error.message)")
        } catch {
            throw FormatError(message: "\(error)")
        }
        guard case let .object(members) = root, members["courses"] != nil else {
            throw FormatError(message: "expected an object with a \"courses\" array")
        }
        guard case .array? = members["courses"] else { throw FormatError(message: "expected \"courses\" to be an array") }
        return members
    }
}
