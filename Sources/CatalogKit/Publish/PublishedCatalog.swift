import Foundation

/// The published catalog, `catalog.json`, what the app reads: from the run's snapshot, the same bytes each time.
public struct PublishedCatalog: Codable, Sendable {
    /// 2 added each course's `firstEdition` and `history`.
    public static let schemaVersion = 2

    /// Which catalog it is and where its pages came from.
    public struct Catalog: Codable, Sendable {
        public var id: String
        public var name: String
        public var system: CatalogSystem
        /// The start URLs, or the directory or mirror by name.
        public var source: String
    }

    public var schemaVersion = Self.schemaVersion
    public var catalog: Catalog
    public var courseCount: Int
    /// The snapshot's records with their times, without fingerprints.
    public var courses: [CourseRecord]

    public init(catalog: CatalogConfig, snapshot: Snapshot) {
        self.catalog = Catalog(id: catalog.id, name: catalog.name, system: catalog.system, source: catalog.source.description)
        courses = snapshot.courses
        courseCount = courses.count
    }
}

extension CatalogSource: CustomStringConvertible {
    /// Where the pages came from, in one line: the start URLs, or the directory or mirror (by name).
    public var description: String {
        switch self {
        case let .http(urls): return urls.map(\.absoluteString).joined(separator: " ")
        case let .directory(url): return "directory \(url.lastPathComponent)"
        case let .replay(url): return "replay \(url.lastPathComponent)"
        }
    }
}
