import Foundation

/// A catalog's pages, fetched (or read) and parsed: the courses, and how complete the reading was.
public struct LoadedCatalog: Sendable {
    public var courses: [ParsedCourse]
    public var pagesExpected: Int
    public var pagesFetched: Int
    public var pagesFailed: Int
    public var failures: [CrawlFailure]
    /// Pages read but with no course in them.
    public var parseGaps: [ParseGap]
    /// Course elements whose code could not be read on pages that gave other courses, one line each.
    public var unreadableCourses: [String]
    /// Pages the server answered 304 for (HTTP sources with a cache).
    public var notModified: Int
    public var retries: Int
    /// The crawl stopped at its deadline; the pages it did not get are among `failures`, marked `atDeadline`.
    public var deadlineReached = false
}

/// Why a source could not be read at all.
public struct SourceUnavailable: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// Reads a catalog from its source: crawls start URLs, replays a mirror, or parses a directory of saved pages.
public enum CatalogLoader {
    /// - Parameter system: how to read the pages when not by the catalog's own system or rules (`run --source --system auto`).
    public static func load(_ catalog: CatalogConfig, settings: FetchSettings, system: SystemChoice? = nil,
                            progress: (@Sendable (CrawlProgress) -> Void)? = nil) async throws(SourceUnavailable) -> LoadedCatalog {
        let parser = PageParser(system: system ?? catalog.systemChoice)
        switch catalog.source {
        case let .http(urls):
            let fetcher = HTTPFetcher(settings: settings, startURLs: urls)
            let crawler = Crawler(source: fetcher, parser: parser, settings: settings, honourRobots: !settings.ignoreRobots,
                                  progress: progress)
            return loaded(await crawler.crawl(start: urls))
        case let .replay(directory):
            let mirror: MirrorSource
            do {
                mirror = try MirrorSource(directory: directory)
            } catch {
                throw SourceUnavailable(message: "\(error)")
            }
            let starts = mirror.index.startURLs.compactMap(URL.init(string:))
            guard !starts.isEmpty else {
                throw SourceUnavailable(message: "\(directory.path)/index.json records no start URLs to replay from")
            }
            let crawler = Crawler(source: mirror, parser: parser, settings: settings, honourRobots: false, progress: progress)
            return loaded(await crawler.crawl(start: starts))
        case let .directory(directory):
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw SourceUnavailable(message: "\(directory.path): no such directory")
            }
            let (inputs, errors) = PageInputs.expand([directory.path])
            guard !inputs.isEmpty else {
                throw SourceUnavailable(message: errors.first.map(\.description) ?? "\(directory.path): no pages")
            }
            let results = await ParseRunner.run(inputs, parser: parser)
            let courseless = results.filter { !$0.yieldedRecord }
            let failures = courseless.filter(\.unreadable).map {
                CrawlFailure(url: $0.sourceURL, reason: $0.failure ?? "could not be read")
            }
            let gaps = courseless.filter { !$0.unreadable }.map { ParseGap(url: $0.sourceURL, reason: $0.gapReason) }
            return LoadedCatalog(courses: results.flatMap(\.courses), pagesExpected: inputs.count,
                                 pagesFetched: inputs.count - failures.count, pagesFailed: failures.count, failures: failures,
                                 parseGaps: gaps, unreadableCourses: results.filter(\.yieldedRecord).flatMap(\.unreadableCourseWarnings),
                                 notModified: 0, retries: 0)
        }
    }

    static func loaded(_ report: CrawlReport) -> LoadedCatalog {
        LoadedCatalog(courses: report.coursePages.flatMap(\.courses), pagesExpected: report.pagesExpected,
                      pagesFetched: report.pagesFetched, pagesFailed: report.pagesFailed, failures: report.failures,
                      parseGaps: report.parseGaps, unreadableCourses: report.coursePages.flatMap(\.unreadableCourseWarnings),
                      notModified: report.notModified, retries: report.retries, deadlineReached: report.deadlineReached)
    }
}
