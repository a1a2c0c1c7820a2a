import Foundation

/// One news item in the app's News shape, with `kind`, `courseId` and `link` (the course's page) for other readers.
public struct NewsItem: Sendable, Equatable, Codable {
    public var id: String
    public var title: String
    /// One sentence: the first of the course's description, for a new course.
    public var description: String
    @Nullable public var thumbnail: String?
    /// Markdown; catalog text in it is escaped.
    public var content: String
    public var featured: Bool
    /// RFC 3339, UTC: the capture time of the snapshot that brought the news.
    public var createdAt: String
    public var kind: DiffKind
    public var courseId: String
    @Nullable public var link: String?

    public init(id: String, title: String, description: String, thumbnail: String? = nil, content: String, featured: Bool,
                createdAt: String, kind: DiffKind, courseId: String, link: String?) {
        self.id = id
        self.title = title
        self.description = description
        self.thumbnail = thumbnail
        self.content = content
        self.featured = featured
        self.createdAt = createdAt
        self.kind = kind
        self.courseId = courseId
        self.link = link
    }
}

/// The accumulated news file: every item ever published, one an id, newest first.
public struct NewsFile: Codable, Sendable {
    public static let schemaVersion = 1

    public var schemaVersion: Int
    public var news: [NewsItem]

    /// Adds `new` to `existing`, newest first: an id already there keeps its first item, so a re-run never duplicates.
    public static func merge(existing: [NewsItem], new: [NewsItem]) -> [NewsItem] {
        var seen = Set<String>()
        let items = (existing + new).filter { seen.insert($0.id).inserted }
        return items.sorted { ($0.createdAt, $1.id) > ($1.createdAt, $0.id) }
    }

    /// `{"schemaVersion": 1, "news": [items]}`.
    public static func encoded(_ items: [NewsItem]) -> Data {
        JSONFile.fileBytes(NewsFile(schemaVersion: schemaVersion, news: items))
    }

    public static func decode(_ bytes: some Sequence<UInt8>) throws(FormatError) -> [NewsItem] {
        let file = try JSONFile.decode(NewsFile.self, from: bytes)
        guard file.schemaVersion == schemaVersion else {
            throw FormatError(message: "schemaVersion \(file.schemaVersion): this gvingest reads news files of version \(schemaVersion)")
        }
        return file.news
    }
}
