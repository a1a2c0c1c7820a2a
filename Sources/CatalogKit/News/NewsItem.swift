/// One news item in the app's News shape, with `kind`, `courseId` and `link` (the course's page) for other readers.
public struct NewsItem: Sendable, Equatable {
    public var id: String
    public var title: String
    /// One sentence: the first of the course's description, for a new course.
    public var description: String
    public var thumbnail: String?
    /// Markdown; catalog text in it is escaped.
    public var content: String
    public var featured: Bool
    /// RFC 3339, UTC: the capture time of the snapshot that brought the news.
    public var createdAt: String
    public var kind: DiffKind
    public var courseID: String
    public var link: String?

    public var json: JSONValue {
        .object([
            "id": .string(id), "title": .string(title), "description": .string(description),
            "thumbnail": .from(thumbnail, JSONValue.string), "content": .string(content), "featured": .bool(featured),
            "createdAt": .string(createdAt), "kind": .string(kind.rawValue), "courseId": .string(courseID),
            "link": .from(link, JSONValue.string),
        ])
    }
}

extension NewsItem {
    /// Reads an item as `json` writes it.
    public init(json: JSONValue) throws(FormatError) {
        func text(_ key: String) throws(FormatError) -> String {
            guard case let .string(value)? = json[key] else {
                throw FormatError(message: "expected a string \"\(key)\", got \(json[key]?.shortDescription ?? "nothing")")
            }
            return value
        }
        func optionalText(_ key: String) throws(FormatError) -> String? {
            if json[key] == nil || json[key] == .null { return nil }
            return try text(key)
        }
        guard case let .bool(featured)? = json["featured"] else {
            throw FormatError(message: "expected true or false for \"featured\", got \(json["featured"]?.shortDescription ?? "nothing")")
        }
        let kindText = try text("kind")
        guard let kind = DiffKind(rawValue: kindText) else { throw FormatError(message: "unknown kind \"\(kindText)\"") }
        self.init(id: try text("id"), title: try text("title"), description: try text("description"), thumbnail: try optionalText("thumbnail"),
                  content: try text("content"), featured: featured, createdAt: try text("createdAt"), kind: kind,
                  courseID: try text("courseId"), link: try optionalText("link"))
    }
}

/// The accumulated news file: every item ever published, one an id, newest first.
public enum NewsFile {
    public static let schemaVersion = 1

    /// Adds `new` to `existing`, newest first: an id already there keeps its first item, so a re-run never duplicates.
    public static func merge(existing: [NewsItem], new: [NewsItem]) -> [NewsItem] {
        var seen = Set<String>()
        let items = (existing + new).filter { seen.insert($0.id).inserted }
        return items.sorted { ($0.createdAt, $1.id) > ($1.createdAt, $0.id) }
    }

    /// `{"schemaVersion": 1, "news": [items]}`, one item a line.
    public static func encoded(_ items: [NewsItem]) -> [UInt8] {
        var bytes = JSONValue.object(["schemaVersion": .int(schemaVersion), "news": .array(items.map(\.json))])
            .serializedBytes(indentingLevels: 2)
        bytes.append(0x0A)
        return bytes
    }

    public static func decode(_ bytes: [UInt8]) throws(FormatError) -> [NewsItem] {
        let root = try Result { try JSONValue.parse(bytes) }
            .mapError { FormatError(message: "not valid JSON: \($0)") }.get()
        guard root["schemaVersion"] == .int(schemaVersion), case let .array(list)? = root["news"] else {
            throw FormatError(message: "expected {\"schemaVersion\": \(schemaVersion), \"news\": [...]}")
        }
        return try list.enumerated().map { index, entry throws(FormatError) in
            try Result { try NewsItem(json: entry) }.mapError { FormatError(message: "news[\(index)]: \($0)") }.get()
        }
    }
}
