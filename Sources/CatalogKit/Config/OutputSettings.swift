import Foundation

/// Where a run's outputs go and how many snapshots are kept (`outputs` in pipeline.json).
public struct OutputSettings: Sendable, Equatable {
    /// news.json, news.atom and the digests.
    public var directory: URL
    /// The snapshot stores, one subdirectory a catalog.
    public var snapshots: URL
    /// How many snapshots a catalog keeps; older ones are deleted after a run.
    public var keepSnapshots: Int
    /// Where a successful run renders the catalog website (`gvingest site`); none when nil.
    public var site: URL?

    public static let defaultKeepSnapshots = 10

    public init(directory: URL, snapshots: URL? = nil, keepSnapshots: Int = defaultKeepSnapshots, site: URL? = nil) {
        self.directory = directory
        self.snapshots = snapshots ?? directory.appendingPathComponent("snapshots")
        self.keepSnapshots = keepSnapshots
        self.site = site
    }

    /// One catalog's snapshot store: `<snapshots>/<catalog id>`.
    public func store(for catalogID: String) -> SnapshotStore {
        SnapshotStore(directory: snapshots.appendingPathComponent(catalogID))
    }
}

/// What news a run publishes and how its feed is named (`news` in pipeline.json).
public struct NewsSettings: Sendable, Equatable {
    /// A new course is featured when it matches every list given here; with neither, nothing is featured.
    public var featuredSubjects: Set<String> = []
    public var featuredLevels: Set<CourseLevel> = []
    /// Whether courses that leave the catalog get a news item too.
    public var announceRemoved = false
    /// Whether changed and renumbered courses get a news item too.
    public var announceChanged = false
    /// Whether a course back in the catalog after a gap gets a news item ("Back in the catalog: …").
    public var announceReturns = true
    public var feedTitle = "New courses"
    /// The Atom feed's id: an absolute IRI that never changes.
    public var feedID = "urn:gvingest:news"
    /// The image shown with each course's news (`thumbnail`), by subject.
    public var posters = PosterSettings()

    /// Every setting's default; the memberwise initializer (internal) sets any of them.
    public static let defaults = NewsSettings()

    /// Whether a course of this subject and level is featured.
    public func isFeatured(subject: String?, level: CourseLevel?) -> Bool {
        guard !featuredSubjects.isEmpty || !featuredLevels.isEmpty else { return false }
        if !featuredSubjects.isEmpty, !featuredSubjects.contains(subject?.uppercased() ?? "") { return false }
        if !featuredLevels.isEmpty, !(level.map(featuredLevels.contains) ?? false) { return false }
        return true
    }
}

/// When a run refuses to publish (`guards` in pipeline.json): the checks that fail closed.
public struct GuardSettings: Sendable, Equatable {
    /// Fewer courses than this means the crawl went wrong.
    public var minimumCourses = 1
    /// More than this fraction of the previous courses removed at once means the crawl went wrong (unless accepted).
    public var maximumRemovalFraction = 0.1
    /// Whether a run with pages that could not be fetched may publish.
    public var allowFailedPages = false
    /// More than this fraction of fetched pages giving no course means the layout changed; fewer are parse gaps.
    public var maximumUnparsedFraction = 0.02

    /// Every setting's default; the memberwise initializer (internal) sets any of them.
    public static let defaults = GuardSettings()
}

extension OutputSettings: ConfigDecodable {
    /// At least two, so a run has one to compare with; a thousand daily runs are years of history.
    static let keepSnapshotsRange = 2...1_000

    init(config: ConfigValue) throws {
        let object = try config.object(allowing: ["directory", "snapshots", "keepSnapshots", "site"])
        self.init(directory: object["directory"]?.confinedPath() ?? object.base.appendingPathComponent("out"),
                  snapshots: object["snapshots"]?.confinedPath(),
                  keepSnapshots: object["keepSnapshots"]?.integer(in: Self.keepSnapshotsRange) ?? Self.defaultKeepSnapshots,
                  site: object["site"]?.confinedPath())
    }
}

extension NewsSettings: ConfigDecodable {
    init(config: ConfigValue) throws {
        let object = try config.object(allowing: ["featured", "announceRemoved", "announceChanged", "announceReturns",
                                           "feedTitle", "feedId", "posters"])
        self.init()
        if let featured = object["featured"]?.object(allowed: ["subjects", "levels"]) {
            featuredSubjects = Set((featured["subjects"]?.elements { $0.subjectCode() } ?? []).map { $0.uppercased() })
            featuredLevels = Set(featured["levels"]?.elements { $0.choice(CourseLevel.self) } ?? [])
        }
        announceRemoved = object["announceRemoved"]?.bool() ?? announceRemoved
        announceChanged = object["announceChanged"]?.bool() ?? announceChanged
        announceReturns = object["announceReturns"]?.bool() ?? announceReturns
        feedTitle = object["feedTitle"]?.string() ?? feedTitle
        feedID = object["feedId"]?.string {
            Self.isAbsoluteIRI($0) ? nil : "expected an absolute IRI such as \"urn:gvingest:gvsu:news\" or \"https://…\", got \"\($0)\""
        } ?? feedID
        posters = object["posters"]?.decode(PosterSettings.self) ?? posters
    }

    /// "scheme:rest" with an RFC 3986 scheme and no white space: what Atom accepts as an id.
    static func isAbsoluteIRI(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex, text.index(after: colon) != text.endIndex,
              !text.contains(where: \.isWhitespace) else { return false }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }
}

extension GuardSettings: ConfigDecodable {
    /// No university lists a million courses: a larger minimum is a typing error.
    static let minimumCoursesRange = 0...1_000_000

    init(config: ConfigValue) throws {
        let object = try config.object(allowing: ["minimumCourses", "maximumRemovalFraction", "allowFailedPages",
                                           "maximumUnparsedFraction"])
        self.init()
        minimumCourses = object["minimumCourses"]?.integer(in: Self.minimumCoursesRange) ?? minimumCourses
        maximumRemovalFraction = object["maximumRemovalFraction"]?.number(in: 0...1) ?? maximumRemovalFraction
        allowFailedPages = object["allowFailedPages"]?.bool() ?? allowFailedPages
        maximumUnparsedFraction = object["maximumUnparsedFraction"]?.number(in: 0...1) ?? maximumUnparsedFraction
    }
}
