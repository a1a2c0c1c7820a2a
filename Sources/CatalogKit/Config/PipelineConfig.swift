import Foundation

/// Where a catalog's pages come from.
public enum CatalogSource: Sendable, Equatable {
    /// Crawl from these start URLs (subject pages, an Acalog listing).
    case http(startURLs: [URL])
    /// Saved pages: every `.html`/`.htm` file under a directory.
    case directory(URL)
    /// A recorded mirror, served with no network at all.
    case replay(URL)
}

/// One catalog gvingest keeps: its id, name, system and source.
public struct CatalogConfig: Sendable, Equatable {
    public var id: String
    public var name: String
    public var system: CatalogSystem
    public var source: CatalogSource
    /// Declarative parse rules: when present, they read the catalog's pages instead of the system's parser.
    public var rules: ParseRules?
    /// The edition's label where the pages name none ("2024-2025"); without either, a run's day labels it.
    public var edition: String?
    /// Catalogs that name one group are crawled as if they shared a host: never at once (`ShardPlan`).
    public var politenessGroup: String?

    public init(id: String, name: String, system: CatalogSystem, source: CatalogSource, rules: ParseRules? = nil,
                edition: String? = nil, politenessGroup: String? = nil) {
        self.id = id
        self.name = name
        self.system = system
        self.source = source
        self.rules = rules
        self.edition = edition
        self.politenessGroup = politenessGroup
    }

    /// How the catalog's pages are read: its rules, or its system's parser.
    public var systemChoice: SystemChoice {
        rules.map { .rules($0, system) } ?? .fixed(system)
    }
}

/// What the normalize stage needs to know about one university's catalog.
public struct NormalizationRules: Sendable, Equatable {
    /// Subject names and retired codes mapped to current codes.
    public var subjects: SubjectAliases
    /// Levels implied by course numbers when a page states none; nil: `Normalizer.numberingScheme` of the catalog.
    public var levels: [LevelRange]?
    /// Subject codes the catalog is known to use; a course under another gets a warning (empty: no check).
    public var knownSubjects: Set<String>
    /// Each code's name for people, from the entries of `subjects` that map a name to a code ("Computer Science": "COSC").
    public var subjectNames: [String: String] = [:]

    public init(subjects: SubjectAliases = SubjectAliases(), levels: [LevelRange]? = nil,
                knownSubjects: Set<String> = []) {
        self.subjects = subjects
        self.levels = levels
        self.knownSubjects = knownSubjects
    }

    /// No aliases, no subject check, and levels from the catalog's own numbering.
    public static let standard = NormalizationRules()
}

/// The contents of `pipeline.json`, validated.
public struct PipelineConfig: Sendable, Equatable {
    public static let schemaVersion = 1

    public var catalogs: [CatalogConfig]
    public var fetch = FetchSettings()
    public var normalize = NormalizationRules.standard
    /// Where snapshots and news go (default: `out/` and `out/snapshots/` beside the file).
    public var outputs: OutputSettings
    public var news = NewsSettings()
    public var guards = GuardSettings()
    /// `publish.firestore`: where a successful run publishes (nil: files only).
    public var firestore: FirestoreSettings?
    /// `announce`: where a run's news is sent after its commit (nil: nowhere).
    public var announce: AnnounceSettings?
    /// `site`: where the website is served (none: links stay relative).
    public var site = SiteSettings()
    /// The file it was read from; relative paths in it are resolved against its directory.
    public var file: URL?

    /// A configuration made in code (`gvingest run --source`): default fetch, normalization, news and guard settings.
    public init(catalogs: [CatalogConfig], outputs: OutputSettings) {
        self.catalogs = catalogs
        self.outputs = outputs
    }

    /// Why a configuration could not be used: every problem, each with its JSON path.
    public struct Invalid: Error, Sendable, CustomStringConvertible {
        public var file: String
        public var issues: [ConfigIssue]
        public var description: String {
            "\(file): \(issues.count) problem(s):\n" + issues.map { "  \($0)" }.joined(separator: "\n")
        }
    }

    /// Reads and validates a configuration file.
    public static func load(_ file: URL) throws(Invalid) -> PipelineConfig {
        let bytes = try Result { try FileBytes.read(file, limit: FileBytes.Limit.configuration) }
            .mapError { Invalid(file: file.path, issues: [ConfigIssue(path: "", message: "cannot read: \($0)")]) }.get()
        return try parse(Data(bytes), file: file)
    }


    /// Validates configuration JSON; paths in it are relative to `file`'s directory.
    public static func parse(_ data: Data, file: URL) throws(Invalid) -> PipelineConfig {
        // Editors on Windows save UTF-8 with a byte-order mark; it is not part of the JSON.
        let json = Array(data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data)
        guard let root = JSONValue(parsing: json) else {
            throw Invalid(file: file.path, issues: [ConfigIssue(path: "", message: JSONFile.syntaxProblem(Data(json)) ?? "not valid JSON")])
        }
        if let repeated = JSONFile.repeatedKey(in: json) {
            throw Invalid(file: file.path, issues: [ConfigIssue(path: "", message: "not valid JSON: \(repeated)")])
        }
        let context = ConfigContext(file: file)
        let config = ConfigValue(root, path: [], context: context).decode(PipelineConfig.self)
        guard let config, context.issues.isEmpty else { throw Invalid(file: file.path, issues: context.issues) }
        return config
    }

    /// A relative path that stays under `base`: configuration must not reach outside the project.
    static func confinedPath(_ text: String, base: URL) -> URL? {
        guard !text.hasPrefix("/"), !text.split(separator: "/").contains(".."), !text.contains("\0") else { return nil }
        return base.appendingPathComponent(text).standardizedFileURL
    }
}

extension PipelineConfig: ConfigDecodable {
    init(config: ConfigValue) throws {
        let object = try config.object(allowing: ["schemaVersion", "catalogs", "fetch", "normalize", "outputs", "news",
                                           "guards", "publish", "announce", "site"])
        self.init(catalogs: [], outputs: OutputSettings(directory: object.base.appendingPathComponent("out")))
        file = object.context.file
        if let version = object.required("schemaVersion").integer(minimum: 1), version != Self.schemaVersion {
            object.fail("expected \(Self.schemaVersion), got \(version)", at: "schemaVersion")
        }
        _ = object.required("catalogs").elements(ifEmpty: "expected at least one catalog") { entry in
            entry.decode(CatalogConfig.self).map { catalog in
                if catalogs.contains(where: { $0.id == catalog.id }) { entry.fail("duplicate catalog id \"\(catalog.id)\"", at: "id") }
                catalogs.append(catalog)
            }
        }
        // A section left out is an empty one: every setting at its default.
        fetch = object["fetch"]?.decode(FetchSettings.self) ?? fetch
        normalize = object["normalize"]?.decode(NormalizationRules.self) ?? normalize
        outputs = object["outputs"]?.decode(OutputSettings.self) ?? outputs
        news = object["news"]?.decode(NewsSettings.self) ?? news
        // The feed's defaults name the first catalog, so two deployments do not share a feed id.
        if let first = catalogs.first {
            let given = object["news"]?.keys ?? []
            if !given.contains("feedTitle") { news.feedTitle = "\(first.name): new courses" }
            if !given.contains("feedId") { news.feedID = "urn:gvingest:\(first.id):news" }
        }
        guards = object["guards"]?.decode(GuardSettings.self) ?? guards
        firestore = object["publish"]?.object(allowed: ["firestore"])?["firestore"]?.decode(FirestoreSettings.self)
        announce = object["announce"]?.decode(AnnounceSettings.self)
        site = object["site"]?.decode(SiteSettings.self) ?? site
    }

    /// The site's "what changed" page, when `site.baseUrl` says where the site is.
    public var changesPage: URL? { site.url("changes.html").flatMap { URL(string: $0) } }
}

extension CatalogConfig: ConfigDecodable {
    init(config: ConfigValue) throws {
        let object = try config.object(allowing: ["id", "name", "system", "source", "rules", "edition", "politenessGroup"])
        let id = object.required("id").string { id in
            id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
                ? nil : "expected letters, digits, - and _ only, got \"\(id)\""
        }
        let name = object.required("name").string()
        let system = object.required("system").choice(CatalogSystem.self)
        let source = object.required("source").decode(CatalogSource.self)
        let rules = object["rules"]?.decode(ParseRules.self)
        let edition = object["edition"]?.string()
        let group = object["politenessGroup"]?.string()
        guard let id, let name, let system, let source else { throw ConfigContext.Incomplete() }
        self.init(id: id, name: name, system: system, source: source, rules: rules, edition: edition, politenessGroup: group)
    }
}

extension CatalogSource: ConfigDecodable {
    init(config: ConfigValue) throws {
        let kinds = ["http", "directory", "replay"]
        let object = try config.object(allowing: kinds)
        let present = kinds.filter { object[$0] != nil }
        guard present.count == 1, let kind = present.first else {
            object.fail("expected exactly one of http, directory or replay, got \(present.isEmpty ? "none" : present.joined(separator: " and "))")
            throw ConfigContext.Incomplete()
        }
        if kind == "http" {
            let urls = object["http"]?.object(allowed: ["startUrls"])?.required("startUrls").elements(ifEmpty: "expected at least one URL") {
                $0.string { URL(string: $0).flatMap(Origin.init) != nil ? nil : "expected an http or https URL \(Origin.rule), got \"\($0)\"" }
                    .flatMap { URL(string: $0) }
            }
            guard let urls else { throw ConfigContext.Incomplete() }
            self = .http(startURLs: urls)
        } else {
            guard let directory = object[kind]?.confinedPath() else { throw ConfigContext.Incomplete() }
            self = kind == "directory" ? .directory(directory) : .replay(directory)
        }
    }
}

extension NormalizationRules: ConfigDecodable {
    init(config: ConfigValue) throws {
        let object = try config.object(allowing: ["subjects", "levels", "knownSubjects"])
        self.init()
        if let names = object["subjects"]?.object() {
            subjects = SubjectAliases(Dictionary(uniqueKeysWithValues: names.keys.compactMap { name in
                names[name]?.subjectCode().map { (name, $0) }
            }))
            subjectNames = Self.names(from: names.keys.compactMap { name in names[name]?.subjectCode().map { (name, $0.uppercased()) } })
        }
        levels = object["levels"]?.elements { $0.decode(LevelRange.self) }
        knownSubjects = Set((object["knownSubjects"]?.elements { $0.string() } ?? []).map { $0.uppercased() })
    }
}

extension NormalizationRules {
    /// Code to name from alias entries: a key that is not a code itself (it has a lower-case letter) names its code;
    /// of several names for one code, the longest, then the first in order, so the choice does not depend on the file's order.
    static func names(from aliases: [(String, String)]) -> [String: String] {
        let named = aliases.filter { name, code in name != code && name.contains(where: \.isLowercase) }
            .map { (code: $0.1, name: TextCleaner.cleanLine($0.0)) }
        return Dictionary(named.map { ($0.code, $0.name) }) { a, b in (a.count, b) > (b.count, a) ? a : b }
    }
}

extension LevelRange: ConfigDecodable {
    /// Course numbers a range may name: six digits, beyond any catalog's numbering.
    static let numberRange = 0...999_999

    init(config: ConfigValue) throws {
        let object = try config.object(allowing: ["from", "to", "level"])
        let from = object.required("from").integer(in: Self.numberRange)
        let to = object["to"]?.integer(in: Self.numberRange)
        if let from, let to, to < from { object.fail("expected an integer ≥ \(from) (from), got \(to)", at: "to") }
        let level = object.required("level").choice(CourseLevel.self)
        guard let from, let level else { throw ConfigContext.Incomplete() }
        self.init(from: from, to: to, level: level)
    }
}
