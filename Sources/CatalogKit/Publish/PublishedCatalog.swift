/// The published catalog, `catalog.json`, what the app reads: from the run's snapshot, the same bytes each time.
public enum PublishedCatalog {
    public static let schemaVersion = 1

    public static func json(catalog: CatalogConfig, snapshot: Snapshot) -> JSONValue {
        let records = snapshot.courses.map { JSONValue.object($0.stampedRecord) }
        return .object([
            "schemaVersion": .int(schemaVersion),
            "catalog": .object(["id": .string(catalog.id), "name": .string(catalog.name), "system": .string(catalog.system.rawValue),
                                "source": .string(catalog.source.description)]),
            "courseCount": .int(records.count),
            "courses": .array(records),
        ])
    }

    /// The file's bytes: pretty JSON ending in a newline.
    public static func encoded(catalog: CatalogConfig, snapshot: Snapshot) -> [UInt8] {
        Array((json(catalog: catalog, snapshot: snapshot).serialized() + "\n").utf8)
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
