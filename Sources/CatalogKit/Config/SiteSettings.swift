import Foundation

/// `site` in pipeline.json: where the website is served, so its pages and messages can give absolute URLs.
public struct SiteSettings: Sendable, Equatable {
    /// "https://catalog.example.edu/courses/", always ending in "/"; nil: the site is opened from disk, links stay relative.
    public var baseURL: String?

    public init(baseURL: String? = nil) {
        self.baseURL = baseURL.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
    }

    /// The absolute URL of a page of the site, by its relative path; nil without a base URL.
    public func url(_ path: String) -> String? { baseURL.map { $0 + path } }
}

extension SiteSettings: ConfigDecodable {
    init(config: ConfigValue) throws {
        let object = try config.object(allowing: ["baseUrl"])
        self.init(baseURL: object["baseUrl"]?.string(Self.webURLProblem))
    }

    /// Why `text` is not an http or https URL with a host (nil when it is one), for a configuration message.
    static func webURLProblem(_ text: String) -> String? {
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false,
              url.query == nil, url.fragment == nil else {
            return "expected an http or https URL with a host and no query, got \"\(text)\""
        }
        return nil
    }
}

/// `news.posters` in pipeline.json: the image shown with a course's news, by subject, and one for the others.
public struct PosterSettings: Sendable, Equatable {
    public var bySubject: [String: String] = [:]
    public var fallback: String?

    public init(bySubject: [String: String] = [:], fallback: String? = nil) {
        self.bySubject = Dictionary(bySubject.map { ($0.key.uppercased(), $0.value) }) { first, _ in first }
        self.fallback = fallback
    }

    /// The poster of a course of `subject`: its subject's, else the default; nil when neither is set.
    public func poster(for subject: String) -> String? { bySubject[subject.uppercased()] ?? fallback }
}

extension PosterSettings: ConfigDecodable {
    init(config: ConfigValue) throws {
        let object = try config.object(allowing: ["default", "subjects"])
        var bySubject: [String: String] = [:]
        if let subjects = object["subjects"]?.object() {
            for key in subjects.keys {
                guard (1...6).contains(key.count), key.allSatisfy({ $0.isLetter || $0 == "&" }) else {
                    subjects.fail("expected a subject code of 1 to 6 letters as the key, got \"\(key)\"", at: key)
                    continue
                }
                if let url = subjects[key]?.string(SiteSettings.webURLProblem) { bySubject[key] = url }
            }
        }
        self.init(bySubject: bySubject, fallback: object["default"]?.string(SiteSettings.webURLProblem))
    }
}

extension PipelineConfig {
    /// Each subject's name for people: the one the catalog's pages gave in `snapshot`, else `normalize.subjects`'.
    public func subjectNames(readIn snapshot: Snapshot?) -> [String: String] {
        normalize.subjectNames.merging(snapshot?.pages.subjectNames ?? [:]) { _, catalogs in catalogs }
    }

    /// The subject codes the configuration or the catalogs' latest snapshots use that have no name to show (neither
    /// from the catalog, `named`, nor from `normalize.subjects`), sorted.
    public func unnamedSubjects(seen: Set<String>, named: [String: String] = [:]) -> [String] {
        let used = seen.union(normalize.knownSubjects).union(news.featuredSubjects).union(news.posters.bySubject.keys)
        return used.filter { normalize.subjectNames[$0] == nil && named[$0] == nil }.sorted()
    }

    /// The subjects of each catalog's latest snapshot and the names its pages gave, where one can be read.
    public func subjectsInSnapshots() -> (used: Set<String>, named: [String: String]) {
        let latest = catalogs.compactMap { catalog in (try? outputs.store(for: catalog.id).latest())??.snapshot }
        return (Set(latest.flatMap { $0.courses.map(\.subject) }),
                latest.reduce(into: [:]) { names, snapshot in names.merge(snapshot.pages.subjectNames) { first, _ in first } })
    }
}
