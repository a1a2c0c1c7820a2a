/// When a course was first seen and last changed, carried from snapshot to snapshot (ISO 8601, UTC).
public struct CourseDates: Sendable, Equatable {
    public var createdAt: String
    public var updatedAt: String

    public init(createdAt: String, updatedAt: String) {
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// The published catalog, `catalog.json`: what the app reads.
///
/// Deterministic: the same courses and dates give a byte-identical file (sorted keys, courses by id, no
/// time of writing inside). Its form is described by `schemas/catalog.schema.json`.
public enum PublishedCatalog {
    public static let schemaVersion = 1

    /// Keys of a course record that describe how it was read, not the course: left out of the catalog.
    static let internalKeys: Set<String> = ["sources", "warnings"]

    public static func json(catalog: CatalogConfig, courses: [Course], dates: [String: CourseDates]) -> JSONValue {
        let records = courses.sorted { $0.id < $1.id }.map { course -> JSONValue in
            guard case var .object(record) = course.json else { return course.json }
            for key in internalKeys { record.removeValue(forKey: key) }
            // The app links to the course's page; where it was read from stays beside it.
            record["sourceUrl"] = record["url"]
            record["url"] = .string(course.pageURL ?? course.sourceURL)
            record.removeValue(forKey: "pageUrl")
            let date = dates[course.id]
            record["createdAt"] = .from(date?.createdAt, JSONValue.string)
            record["updatedAt"] = .from(date?.updatedAt, JSONValue.string)
            return .object(record)
        }
        return .object([
            "schemaVersion": .int(schemaVersion),
            "catalog": .object(["id": .string(catalog.id), "name": .string(catalog.name), "system": .string(catalog.system.rawValue),
                                "source": .string(catalog.source.description)]),
            "courseCount": .int(records.count),
            "courses": .array(records),
        ])
    }
}

extension CatalogSource: CustomStringConvertible {
    /// Where the pages came from, in one line: the start URLs, or the directory or mirror (relative names).
    public var description: String {
        switch self {
        case let .http(urls): return urls.map(\.absoluteString).joined(separator: " ")
        case let .directory(url): return "directory \(url.lastPathComponent)"
        case let .replay(url): return "replay \(url.lastPathComponent)"
        }
    }
}
