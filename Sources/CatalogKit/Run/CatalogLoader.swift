import Foundation

/// Reads a catalog from its source: crawls start URLs, replays a mirror, or parses a directory of saved pages.
public enum CatalogLoader {
    /// The catalog's pages, fetched (or read) and parsed: its courses are those of `coursePages`; throws (69) when the
    /// source cannot be read at all. `system`: how to read the pages when not by the catalog's own system or rules.
    public static func load(_ catalog: CatalogConfig, settings: FetchSettings, system: SystemChoice? = nil,
                            progress: (@Sendable (CrawlReport) -> Void)? = nil) async throws(CommandFailure) -> CrawlReport {
        let parser = PageParser(system: system ?? catalog.systemChoice)
        func unavailable(_ message: String) -> CommandFailure { CommandFailure(message, status: .unavailable) }
        switch catalog.source {
        case let .http(urls):
            let fetcher = HTTPFetcher(settings: settings, startURLs: urls)
            let crawler = Crawler(source: fetcher, parser: parser, settings: settings, honourRobots: !settings.ignoreRobots,
                                  progress: progress)
            return await crawler.crawl(start: urls)
        case let .replay(directory):
            let mirror = try Result { try MirrorSource(directory: directory) }.mapError { unavailable("\($0)") }.get()
            let starts = mirror.index.startURLs.compactMap(URL.init(string:))
            guard !starts.isEmpty else {
                throw unavailable("\(directory.path)/index.json records no start URLs to replay from")
            }
            let crawler = Crawler(source: mirror, parser: parser, settings: settings, honourRobots: false, progress: progress)
            return await crawler.crawl(start: starts)
        case let .directory(directory):
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw unavailable("\(directory.path): no such directory")
            }
            let (inputs, errors) = PageInputs.expand([directory.path])
            guard !inputs.isEmpty else {
                throw unavailable(errors.first.map(\.description) ?? "\(directory.path): no pages")
            }
            let results = await ParseRunner.run(inputs, parser: parser)
            let courseless = results.filter { !$0.yieldedRecord }
            var report = CrawlReport()
            report.failures = courseless.filter(\.unreadable).map {
                CrawlFailure(url: $0.sourceURL, reason: $0.failure ?? "could not be read")
            }
            report.parseGaps = courseless.filter { !$0.unreadable }.map {
                ParseGap(url: $0.sourceURL, reason: $0.gapReason)
            }
            report.pagesExpected = inputs.count
            report.pagesFetched = inputs.count - report.failures.count
            report.coursePages = results.filter(\.yieldedRecord)
            return report
        }
    }
}
