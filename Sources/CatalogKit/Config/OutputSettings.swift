import Foundation

/// Where a run's outputs go and how many snapshots are kept (`outputs` in pipeline.json).
public struct OutputSettings: Sendable, Equatable {
    /// news.json, news.atom and the digests.
    public var directory: URL
    /// The snapshot stores, one subdirectory a catalog.
    public var snapshots: URL
    /// How many snapshots a catalog keeps; older ones are deleted after a run.
    public var keepSnapshots: Int

    public static let defaultKeepSnapshots = 10

    public init(directory: URL, snapshots: URL? = nil, keepSnapshots: Int = defaultKeepSnapshots) {
        self.directory = directory
        self.snapshots = snapshots ?? directory.appendingPathComponent("snapshots")
        self.keepSnapshots = keepSnapshots
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
    public var feedTitle = "New courses"
    /// The Atom feed's id: an absolute IRI that never changes.
    public var feedID = "urn:gvingest:news"

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

extension PipelineConfig {
    static func readOutputs(_ object: [String: JSONValue], _ path: String, base: URL, reader: inout ConfigReader) -> OutputSettings {
        reader.rejectUnknownKeys(object, path, allowed: ["directory", "snapshots", "keepSnapshots"])
        let keep = reader.integer(object["keepSnapshots"], "\(path).keepSnapshots", minimum: 2, required: false)
        let directory = reader.confinedPath(object["directory"], "\(path).directory", base: base, required: false)
        let snapshots = reader.confinedPath(object["snapshots"], "\(path).snapshots", base: base, required: false)
        return OutputSettings(directory: directory ?? base.appendingPathComponent("out"), snapshots: snapshots,
                              keepSnapshots: keep ?? OutputSettings.defaultKeepSnapshots)
    }

    static func readNews(_ object: [String: JSONValue], _ path: String, defaults: NewsSettings, reader: inout ConfigReader) -> NewsSettings {
        reader.rejectUnknownKeys(object, path, allowed: ["featured", "announceRemoved", "announceChanged", "feedTitle", "feedId"])
        var settings = defaults
        if let featured = reader.object(object["featured"], "\(path).featured", required: false) {
            let featuredPath = "\(path).featured"
            reader.rejectUnknownKeys(featured, featuredPath, allowed: ["subjects", "levels"])
            let subjects = reader.elements(featured["subjects"], "\(featuredPath).subjects") { $0.subjectCode($1, $2) }
            settings.featuredSubjects = Set((subjects ?? []).map { $0.uppercased() })
            let levels = reader.elements(featured["levels"], "\(featuredPath).levels") { reader, value, at in
                reader.oneOf(value, at, CourseLevel.allCases.map(\.rawValue)).flatMap(CourseLevel.init(rawValue:))
            }
            settings.featuredLevels = Set(levels ?? [])
        }
        if let flag = reader.bool(object["announceRemoved"], "\(path).announceRemoved") { settings.announceRemoved = flag }
        if let flag = reader.bool(object["announceChanged"], "\(path).announceChanged") { settings.announceChanged = flag }
        if let title = reader.string(object["feedTitle"], "\(path).feedTitle", required: false) { settings.feedTitle = title }
        if let id = reader.string(object["feedId"], "\(path).feedId", required: false, {
            isAbsoluteIRI($0) ? nil
                : "expected an absolute IRI such as \"urn:gvingest:gvsu:news\" or \"https://…\", got \"\($0)\""
        }) { settings.feedID = id }
        return settings
    }

    static func readGuards(_ object: [String: JSONValue], _ path: String, reader: inout ConfigReader) -> GuardSettings {
        reader.rejectUnknownKeys(object, path, allowed: ["minimumCourses", "maximumRemovalFraction", "allowFailedPages",
                                                         "maximumUnparsedFraction"])
        let minimum = reader.integer(object["minimumCourses"], "\(path).minimumCourses", minimum: 0, required: false)
        let removals = reader.number(object["maximumRemovalFraction"], "\(path).maximumRemovalFraction", in: 0...1)
        let allowFailed = reader.bool(object["allowFailedPages"], "\(path).allowFailedPages")
        let unparsed = reader.number(object["maximumUnparsedFraction"], "\(path).maximumUnparsedFraction", in: 0...1)
        let defaults = GuardSettings.defaults
        return GuardSettings(minimumCourses: minimum ?? defaults.minimumCourses,
                             maximumRemovalFraction: removals ?? defaults.maximumRemovalFraction,
                             allowFailedPages: allowFailed ?? defaults.allowFailedPages,
                             maximumUnparsedFraction: unparsed ?? defaults.maximumUnparsedFraction)
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
