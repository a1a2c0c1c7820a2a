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

    public init(id: String, name: String, system: CatalogSystem, source: CatalogSource, rules: ParseRules? = nil) {
        self.id = id
        self.name = name
        self.system = system
        self.source = source
        self.rules = rules
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
        let bytes = try Result { try FileBytes.read(file) }
            .mapError { Invalid(file: file.path, issues: [ConfigIssue(path: "", message: "cannot read: \($0)")]) }.get()
        return try parse(Data(bytes), file: file)
    }

    /// Validates configuration JSON; paths in it are relative to `file`'s directory.
    public static func parse(_ data: Data, file: URL) throws(Invalid) -> PipelineConfig {
        let root: JSONValue
        // Editors on Windows save UTF-8 with a byte-order mark; it is not part of the JSON.
        let json = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data
        do {
            root = try JSONValue.parse(json)
        } catch {
            throw Invalid(file: file.path, issues: [ConfigIssue(path: "", message: "not valid JSON: \(error)")])
        }
        var reader = ConfigReader()
        let base = file.deletingLastPathComponent()
        var config = PipelineConfig(catalogs: [], outputs: OutputSettings(directory: base.appendingPathComponent("out")))
        config.file = file
        if let object = reader.object(root, "(top level)") {
            reader.rejectUnknownKeys(object, "", allowed: ["schemaVersion", "catalogs", "fetch", "normalize", "outputs", "news", "guards", "publish"])
            if let version = reader.integer(object["schemaVersion"], "schemaVersion", minimum: 1), version != schemaVersion {
                reader.fail("schemaVersion", "expected \(schemaVersion), got \(version)")
            }
            if let catalogs = reader.array(object["catalogs"], "catalogs") {
                if catalogs.isEmpty { reader.fail("catalogs", "expected at least one catalog") }
                for (index, entry) in catalogs.enumerated() {
                    if let catalog = readCatalog(entry, "catalogs[\(index)]", base: base, reader: &reader) {
                        if config.catalogs.contains(where: { $0.id == catalog.id }) {
                            reader.fail("catalogs[\(index)].id", "duplicate catalog id \"\(catalog.id)\"")
                        }
                        config.catalogs.append(catalog)
                    }
                }
            }
            // A section left out reads as an empty one: every setting at its default.
            func section(_ key: String) -> [String: JSONValue] { reader.object(object[key], key, required: false) ?? [:] }
            config.fetch = readFetch(section("fetch"), "fetch", base: base, reader: &reader)
            config.normalize = readNormalize(section("normalize"), "normalize", reader: &reader)
            config.outputs = readOutputs(section("outputs"), "outputs", base: base, reader: &reader)
            // The feed's defaults name the first catalog, so two deployments do not share a feed id.
            let news = config.catalogs.first.map {
                NewsSettings(feedTitle: "\($0.name): new courses", feedID: "urn:gvingest:\($0.id):news")
            }
            config.news = readNews(section("news"), "news", defaults: news ?? NewsSettings(), reader: &reader)
            config.guards = readGuards(section("guards"), "guards", reader: &reader)
            if let publish = reader.object(object["publish"], "publish", required: false) {
                config.firestore = readPublish(publish, "publish", reader: &reader)
            }
        }
        guard reader.issues.isEmpty else { throw Invalid(file: file.path, issues: reader.issues) }
        return config
    }

    private static func readCatalog(_ value: JSONValue, _ path: String, base: URL, reader: inout ConfigReader) -> CatalogConfig? {
        guard let object = reader.object(value, path) else { return nil }
        reader.rejectUnknownKeys(object, path, allowed: ["id", "name", "system", "source", "rules"])
        let id = reader.string(object["id"], "\(path).id")
        if let id, !id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) {
            reader.fail("\(path).id", "expected letters, digits, - and _ only, got \"\(id)\"")
        }
        let name = reader.string(object["name"], "\(path).name")
        let system = reader.oneOf(object["system"], "\(path).system", CatalogSystem.allCases.map(\.rawValue))
            .flatMap(CatalogSystem.init(rawValue:))
        let source = readSource(object["source"], "\(path).source", base: base, reader: &reader)
        let rules = object["rules"] == nil ? nil : ParseRules.read(object["rules"], "\(path).rules", reader: &reader)
        guard let id, let name, let system, let source else { return nil }
        return CatalogConfig(id: id, name: name, system: system, source: source, rules: rules)
    }

    private static func readSource(_ value: JSONValue?, _ path: String, base: URL, reader: inout ConfigReader) -> CatalogSource? {
        guard let object = reader.object(value, path) else { return nil }
        let kinds = ["http", "directory", "replay"]
        reader.rejectUnknownKeys(object, path, allowed: kinds)
        let present = kinds.filter { object[$0] != nil }
        guard present.count == 1, let kind = present.first else {
            reader.fail(path, "expected exactly one of http, directory or replay, got \(present.isEmpty ? "none" : present.joined(separator: " and "))")
            return nil
        }
        switch kind {
        case "http":
            guard let http = reader.object(object["http"], "\(path).http") else { return nil }
            reader.rejectUnknownKeys(http, "\(path).http", allowed: ["startUrls"])
            guard let list = reader.array(http["startUrls"], "\(path).http.startUrls") else { return nil }
            if list.isEmpty { reader.fail("\(path).http.startUrls", "expected at least one URL") }
            return .http(startURLs: list.enumerated().compactMap { index, entry in
                reader.string(entry, "\(path).http.startUrls[\(index)]") { text in
                    URL(string: text).flatMap(Origin.init) != nil ? nil
                        : "expected an http or https URL \(Origin.rule), got \"\(text)\""
                }.flatMap { URL(string: $0) }
            })
        default:
            guard let directory = reader.confinedPath(object[kind], "\(path).\(kind)", base: base) else { return nil }
            return kind == "directory" ? .directory(directory) : .replay(directory)
        }
    }

    /// A relative path that stays under `base`: configuration must not reach outside the project.
    static func confinedPath(_ text: String, base: URL) -> URL? {
        guard !text.hasPrefix("/"), !text.split(separator: "/").contains(".."), !text.contains("\0") else { return nil }
        return base.appendingPathComponent(text).standardizedFileURL
    }

    private static func readFetch(_ object: [String: JSONValue], _ path: String, base: URL, reader: inout ConfigReader) -> FetchSettings {
        var settings = FetchSettings()
        let integers = FetchSettings.ranges
        reader.rejectUnknownKeys(object, path, allowed: integers.map(\.key) + ["userAgent", "allowedHosts", "cacheDirectory", "ignoreRobots"])
        for (key, keyPath, range) in integers {
            if let value = reader.integer(object[key], "\(path).\(key)", in: range) { settings[keyPath: keyPath] = value }
        }
        if let agent = reader.string(object["userAgent"], "\(path).userAgent", required: false) { settings.userAgent = agent }
        settings.allowedHosts = reader.elements(object["allowedHosts"], "\(path).allowedHosts") { reader, value, at in
            reader.string(value, at) { entry in
                Origin.allowed(by: entry) != nil ? nil : "expected a host, host:port or an http(s) origin "
                    + "such as https://host:8443, got \"\(entry)\""
            }
        } ?? []
        settings.cacheDirectory = reader.confinedPath(object["cacheDirectory"], "\(path).cacheDirectory", base: base,
                                                      required: false)
        if let ignore = reader.bool(object["ignoreRobots"], "\(path).ignoreRobots") { settings.ignoreRobots = ignore }
        return settings
    }

    private static func readNormalize(_ object: [String: JSONValue], _ path: String, reader: inout ConfigReader) -> NormalizationRules {
        reader.rejectUnknownKeys(object, path, allowed: ["subjects", "levels", "knownSubjects"])
        var rules = NormalizationRules.standard
        if let subjects = reader.object(object["subjects"], "\(path).subjects", required: false) {
            rules.subjects = SubjectAliases(Dictionary(uniqueKeysWithValues: subjects.compactMap { name, value in
                reader.subjectCode(value, "\(path).subjects.\(name)").map { (name, $0) }
            }))
        }
        rules.levels = reader.elements(object["levels"], "\(path).levels") { reader, entry, entryPath in
            guard let range = reader.object(entry, entryPath) else { return nil }
            reader.rejectUnknownKeys(range, entryPath, allowed: ["from", "to", "level"])
            let from = reader.integer(range["from"], "\(entryPath).from", minimum: 0)
            let to = reader.integer(range["to"], "\(entryPath).to", minimum: 0, required: false)
            let level = reader.oneOf(range["level"], "\(entryPath).level", CourseLevel.allCases.map(\.rawValue))
                .flatMap(CourseLevel.init(rawValue:))
            if let from, let to, to < from {
                reader.fail("\(entryPath).to", "expected an integer ≥ \(from) (from), got \(to)")
            }
            guard let from, let level else { return nil }
            return LevelRange(from: from, to: to, level: level)
        }
        let known = reader.elements(object["knownSubjects"], "\(path).knownSubjects") { $0.string($1, $2) }
        rules.knownSubjects = Set((known ?? []).map { $0.uppercased() })
        return rules
    }
}
