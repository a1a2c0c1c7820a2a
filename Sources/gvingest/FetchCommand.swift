import CatalogKit
import Foundation
import Synchronization

/// `gvingest fetch`: crawls a catalog politely, optionally recording it as a mirror or replaying one.
enum FetchCommand: Command {
    static let name = "fetch"
    static let usesNetwork = true
    static let summary = "Crawl a catalog (or replay a recorded one), recording it as a mirror if asked."
    static let options: [CommandOption] = [
        .option("--start", "URL", "A start URL (GVSU subject page, Acalog listing).", repeatable: true),
        .system("Parser for the pages."),
        .option("--config", "FILE", "Take catalogs and fetch settings from a pipeline configuration."),
        .option("--catalog", "ID", "With --config: the catalog to crawl (needed when it has several)."),
        .option("--record", "DIR", "Store everything fetched as a mirror in DIR: new, empty, or a mirror not replayed."),
        .option("--replay", "DIR", "Serve the crawl from such a mirror, with no network at all (no --config or --cache); "
                + "without --start, start where the recording started."),
        .option("--cache", "DIR", "Keep responses with their ETag/Last-Modified and re-fetch conditionally."),
        .flag("--ignore-robots", "Do not fetch or obey robots.txt (a warning is printed)."),
        .flag("--json", "End with one JSON object: pagesExpected, pagesFetched, pagesFailed, notModified, retries, bytes, "
              + "failures (url and reason)."),
        .flag("--quiet", "No progress line (there is none off a terminal anyway)."),
    ]
    static let usages = [
        Usage(required: ["--start"], optional: ["--system", "--record", "--cache", "--ignore-robots", "--json", "--quiet"]),
        Usage(required: ["--config"], optional: ["--catalog"], after: "[other options above]"),
        Usage(required: ["--replay"], optional: ["--start", "--system", "--record", "--json", "--quiet"]),
    ]
    static let discussion = """
    Crawls a catalog: every listing page from the start URLs (every page of an Acalog pager, its count
    checked), then every course page they link to. Requests are bounded in total and per host, spaced
    per host, retried with backoff on connection errors, timeouts, 408, 429 and 5xx (Retry-After
    honoured), and robots.txt is obeyed. A one-line summary always goes to stderr.
    """
    static let exitStatus = """
    Exit status: 0 every page fetched, 75 some failed for reasons worth retrying (DNS, a refused or
    reset connection, TLS, timeouts, 5xx, robots.txt out of reach), 69 some failed otherwise (404,
    refused redirect, disallowed by robots.txt), 73 the recording could not be written, 65 the
    configuration is invalid, 66 a mirror or the configuration can't be read, 64 bad usage.
    """

    static func run(_ words: [String]) async throws -> ExitStatus {
        let arguments = try parseArguments(words)
        guard arguments.positional.isEmpty else { throw UsageError(message: "unexpected argument '\(arguments.positional[0])'") }
        var settings = FetchSettings()
        var starts = try (arguments.values["--start"] ?? []).map { text in
            guard let url = URL(string: text), Origin(url) != nil else {
                throw UsageError(message: "--start needs an http or https URL \(Origin.rule), not '\(text)'\(SourceRun.schemeHint(text))")
            }
            return url
        }
        var system = try systemChoice(arguments)
        // A mirror is read from disk: there is no catalog source to crawl and no response to cache.
        if arguments.value("--replay") != nil, let other = ["--config", "--cache"].first(where: { arguments.value($0) != nil }) {
            throw UsageError(message: "\(other) and --replay do not go together")
        }
        if let path = arguments.value("--config") {
            let config = try loadConfiguration(path)
            settings = config.fetch
            // One crawl reads its pages with one parser: catalogs of other systems are crawled one at a time.
            let catalog = try oneCatalog(of: config, at: path, named: arguments.value("--catalog"))
            guard case let .http(urls) = catalog.source else {
                throw UsageError(message: "catalog \(catalog.id) in \(path) has no http source; replay or parse it instead")
            }
            starts += urls
            if arguments.value("--system") == nil { system = catalog.systemChoice }
        }
        if let cache = arguments.value("--cache") { settings.cacheDirectory = URL(fileURLWithPath: cache) }
        if arguments.has("--ignore-robots") { settings.ignoreRobots = true }

        let source: any PageSource
        var honourRobots = !settings.ignoreRobots
        if let replay = arguments.value("--replay") {
            let directory = URL(fileURLWithPath: replay)
            let mirror = try MirrorSource(directory: directory)
            if starts.isEmpty { starts = mirror.index.startURLs.compactMap(URL.init(string:)) }
            source = mirror
            honourRobots = false
        } else {
            source = HTTPFetcher(settings: settings, startURLs: starts)
            if settings.ignoreRobots { printError("gvingest fetch: warning: robots.txt is ignored (--ignore-robots / fetch.ignoreRobots)") }
        }
        guard !starts.isEmpty else { throw UsageError(message: "name at least one --start URL (or --config, or a --replay mirror that recorded them)") }

        let recorder = try arguments.value("--record")
            .map { path throws(CatalogError) in try MirrorRecorder(wrapping: source, into: URL(fileURLWithPath: path), startURLs: starts) }
        let line = ProgressLine(enabled: !arguments.has("--quiet") && isCapableTerminal(STDERR_FILENO))
        let crawler = Crawler(source: recorder ?? source, parser: PageParser(system: system), settings: settings, honourRobots: honourRobots,
                              progress: { line.show($0) })
        let report = await crawler.crawl(start: starts)
        line.finish()
        printError("gvingest fetch: \(report.summary)")
        for failure in report.failures.prefix(20) { printError("  failed: \(failure.url): \(failure.reason)") }
        if report.failures.count > 20 { printError("  … and \(report.failures.count - 20) more (see --json)") }
        if arguments.has("--json") { print(report.json.serialized()) }
        if let recorder {
            try CommandFailure.catching(.cannotWrite, "cannot write the mirror \(recorder.directory.path): ") {
                try recorder.finish()
            }
        }
        guard report.pagesFailed > 0 else { return .ok }
        return report.failures.allSatisfy(\.temporary) ? .temporaryFailure : .unavailable
    }
}

/// A live progress line on a terminal: pages done of those known, rate, retries, errors.
final class ProgressLine: Sendable {
    private let enabled: Bool
    private let lastDraw = Mutex(0.0)

    init(enabled: Bool) {
        self.enabled = enabled
    }

    /// `soFar`: the crawl's report as it stands, its pages expected those known so far (listings reveal more).
    func show(_ soFar: CrawlReport) {
        guard enabled else { return }
        lastDraw.withLock { lastDraw in
            let now = ProcessInfo.processInfo.systemUptime
            let done = soFar.pagesFetched + soFar.pagesFailed
            guard now - lastDraw > 0.1 || done == soFar.pagesExpected else { return }
            lastDraw = now
            let rate = soFar.elapsedSeconds > 0 ? Double(done) / soFar.elapsedSeconds : 0
            let text = String(format: "\r\u{1B}[2K[fetch] %d/%d pages, %.1f/s, %d retries, %d errors",
                              done, soFar.pagesExpected, rate, soFar.retries, soFar.pagesFailed)
            FileHandle.standardError.write(Data(text.utf8))
        }
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}
