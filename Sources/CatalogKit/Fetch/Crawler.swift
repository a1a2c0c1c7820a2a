import Foundation

/// A page the crawl could not get, and why.
public struct CrawlFailure: Sendable, Equatable {
    public var url: String
    public var reason: String
    /// Running again later may succeed (5xx, timeouts, the deadline) rather than not (404, robots.txt).
    public var temporary: Bool
    /// The page was not had because the crawl's deadline came first (not fetched, or cut off).
    public var atDeadline: Bool

    /// A failure at the deadline is temporary whatever the caller says: whether a run is worth retrying depends on it.
    public init(url: String, reason: String, temporary: Bool = false, atDeadline: Bool = false) {
        self.url = url
        self.reason = reason
        self.temporary = temporary || atDeadline
        self.atDeadline = atDeadline
    }
}

/// What a crawl fetched and what it did not.
public struct CrawlReport: Sendable {
    public var pagesExpected = 0
    public var pagesFetched = 0
    public var pagesFailed: Int { failures.count }
    /// Pages the server answered 304 for; their cached bodies were reused.
    public var notModified = 0
    public var retries = 0
    /// Body bytes received over the network (304s and mirrors count their transferred bytes: none).
    public var bytes = 0
    public var failures: [CrawlFailure] = []
    /// Course pages that were fetched but gave no course, by URL order; they count as fetched.
    public var parseGaps: [ParseGap] = []
    /// The parsed course pages, by URL order.
    public var coursePages: [PageResult] = []
    public var listingPages = 0
    /// The subjects the listing pages name, by code ("CIS": "Computer Information Systems").
    public var subjectNames: [String: String] = [:]
    public var elapsedSeconds = 0.0
    /// The crawl stopped at its deadline with pages still to get (they are among the failures, `atDeadline`).
    public var deadlineReached = false

    /// The summary as JSON (`--json`): counts and every failure with its reason.
    public var json: JSONValue {
        .object([
            "pagesExpected": .int(pagesExpected), "pagesFetched": .int(pagesFetched), "pagesFailed": .int(pagesFailed),
            "notModified": .int(notModified), "retries": .int(retries), "bytes": .int(bytes), "listingPages": .int(listingPages),
            "courses": .int(courseCount), "elapsedSeconds": .double((elapsedSeconds * 1000).rounded() / 1000),
            "failures": .array(failures.map { .object(["url": .string($0.url), "reason": .string($0.reason)]) }),
            "parseGaps": JSONValue(encoding: parseGaps),
        ])
    }

    var courseCount: Int { coursePages.reduce(0) { $0 + $1.courses.count } }

    /// Keeps the subject a listing names; of two names for one code, the first in order, whatever order pages came in.
    mutating func noteSubject(of listing: CourseListing?) {
        guard let code = listing?.subjectCode?.uppercased(), let name = listing?.heading, !name.isEmpty else { return }
        subjectNames[code] = subjectNames[code].map { min($0, name) } ?? name
    }

    public var summary: String {
        "\(pagesFetched)/\(pagesExpected) pages fetched (\(listingPages) listing, \(coursePages.count) course), "
            + "\(pagesFailed) failed, \(parseGaps.count) unparsed, \(notModified) not modified, \(retries) retries, "
            + "\(bytes) bytes, \(courseCount) courses " + String(format: "in %.2f s", elapsedSeconds)
    }
}

/// Crawls a catalog: the listing pages from the start URLs (a pager's too), then the course pages they link to.
public final class Crawler: Sendable {
    let source: any PageSource
    let parser: PageParser
    let settings: FetchSettings
    let robots: RobotsGate?
    let progress: (@Sendable (CrawlReport) -> Void)?

    /// - Parameter honourRobots: false for sources that are not the web (a mirror).
    public init(source: any PageSource, parser: PageParser, settings: FetchSettings, honourRobots: Bool,
                progress: (@Sendable (CrawlReport) -> Void)? = nil) {
        self.source = source
        self.parser = parser
        self.settings = settings
        self.progress = progress
        robots = honourRobots ? RobotsGate(source: source, userAgent: settings.userAgent) : nil
        if let robots {
            // Weakly: the gate holds the source, and the crawler holds the gate for as long as it crawls.
            source.vetRedirects { [weak robots] url in await robots?.refusal(for: url)?.reason }
        }
    }

    /// More listing pages than any catalog has: a pager claiming more is broken or hostile.
    static let maximumPagerPages = 2_000

    enum Kind: Sendable { case listing, course }

    typealias Job = (url: URL, kind: Kind)

    struct Outcome: Sendable {
        var job: Job
        var page: FetchedPage? = nil
        var failure: FetchFailure? = nil
        var result: PageResult? = nil
        /// Not a page: the watchdog that ends the crawl at its deadline went off.
        var isDeadline = false
    }

    public func crawl(start: [URL]) async -> CrawlReport {
        let started = ProcessInfo.processInfo.systemUptime
        let deadline = started + Double(settings.deadlineSeconds)
        var report = CrawlReport()
        var seen: Set<String> = []
        var queue: [Job] = []
        /// Per pager: pages announced and found, a link to copy, whether the unlinked ones were asked for, its parser.
        var pagers: [String: (count: Int, pages: Set<Int>, template: String, completed: Bool, parser: any CatalogParser)] = [:]

        func enqueue(_ url: URL, _ kind: Kind) {
            let normalized = URLNormalizer.normalize(url)
            guard seen.insert(normalized.absoluteString).inserted else { return }
            queue.append((normalized, kind))
            report.pagesExpected += 1
        }
        for url in start { enqueue(url, .listing) }

        let limit = max(1, settings.concurrency) * 2
        await withTaskGroup(of: Outcome.self) { group in
            var running = 0
            var deadlineHit = false
            func stopAtDeadline() {
                guard !deadlineHit, ProcessInfo.processInfo.systemUptime >= deadline else { return }
                deadlineHit = true
                group.cancelAll()
            }
            // The deadline holds while every page waits: the watchdog wakes the loop, and cancelling the group ends
            // every request and sleep in progress.
            if let first = start.first {
                group.addTask {
                    let wait = deadline - ProcessInfo.processInfo.systemUptime
                    try? await Task.sleep(nanoseconds: RetryAfter.nanoseconds(wait))
                    return Outcome(job: (first, .listing), isDeadline: true)
                }
            }
            while true {
                while running < limit, !queue.isEmpty, !deadlineHit {
                    stopAtDeadline()
                    if deadlineHit { break }
                    let job = queue.removeFirst()
                    running += 1
                    group.addTask { await self.process(job) }
                }
                if running == 0 {
                    guard !deadlineHit else { break }
                    // The queue drained: pages a pager announced but never linked are asked for by number.
                    for (key, pager) in pagers where !pager.completed && pager.pages.count < pager.count {
                        pagers[key]?.completed = true
                        guard pager.count <= Self.maximumPagerPages else {
                            report.failures.append(CrawlFailure(url: pager.template, reason: "the pager claims \(pager.count) pages, "
                                + "more than \(Self.maximumPagerPages); the pages it does not link were not asked for"))
                            continue
                        }
                        for number in 1...pager.count where !pager.pages.contains(number) {
                            if let url = pager.parser.pagerURL(pager.template, page: number) { enqueue(url, .listing) }
                        }
                    }
                    if queue.isEmpty { break }
                    continue
                }
                guard let outcome = await group.next() else { break }
                if outcome.isDeadline {
                    if !Task.isCancelled { stopAtDeadline() }
                    continue
                }
                running -= 1
                stopAtDeadline()
                let pageURL = outcome.job.url.absoluteString
                if let page = outcome.page {
                    report.pagesFetched += 1
                    if page.notModified { report.notModified += 1 } else { report.bytes += page.body.count }
                } else if let failure = outcome.failure {
                    report.failures.append(CrawlFailure(url: pageURL, reason: failure.reason,
                                                        temporary: failure.temporary, atDeadline: deadlineHit && failure.temporary))
                }
                if let result = outcome.result {
                    // A course page, or an expanded listing, which carries its courses inline.
                    if !result.courses.isEmpty { report.coursePages.append(result) }
                    if outcome.job.kind == .course, result.courses.isEmpty {
                        // Fetched, but not read: a gap in the parse, not a failed fetch.
                        report.parseGaps.append(ParseGap(url: pageURL, reason: result.gapReason))
                    } else if outcome.job.kind == .listing {
                        report.listingPages += 1
                        report.noteSubject(of: result.listing)
                        if let listing = result.listing {
                            for course in listing.courses { if let url = URL(string: course.url) { enqueue(url, .course) } }
                            if listing.pageCount > 1, let system = result.system {
                                let parser = CatalogParsers.parser(for: system)
                                let key = parser.pagerKey(outcome.job.url)
                                var pager = pagers[key] ?? (listing.pageCount, [], listing.pageLinks.first ?? pageURL, false, parser)
                                pager.count = max(pager.count, listing.pageCount)
                                pager.pages.insert(parser.pagerPage(of: pageURL) ?? 1)
                                for link in listing.pageLinks {
                                    if let number = parser.pagerPage(of: link) { pager.pages.insert(number) }
                                    if let url = URL(string: link) { enqueue(url, .listing) }
                                }
                                pagers[key] = pager
                            }
                        } else if result.courses.isEmpty {
                            let reason = "a start or listing page with no course links (\(result.systemRule))"
                            report.failures.append(CrawlFailure(url: pageURL, reason: reason))
                            report.pagesFetched -= 1
                        }
                    }
                }
                if let progress {
                    report.retries = source.retries
                    report.elapsedSeconds = ProcessInfo.processInfo.systemUptime - started
                    progress(report)
                }
            }
            if deadlineHit {
                report.deadlineReached = true
                report.failures += queue.map { job in
                    let reason = atDeadline(job, "not fetched").failure?.reason ?? ""
                    return CrawlFailure(url: job.url.absoluteString, reason: reason, atDeadline: true)
                }
            }
            // The watchdog, when the crawl ended first.
            group.cancelAll()
        }
        report.retries = source.retries
        report.coursePages.sort { $0.sourceURL < $1.sourceURL }
        report.failures.sort { $0.url < $1.url }
        report.parseGaps.sort { $0.url < $1.url }
        report.elapsedSeconds = ProcessInfo.processInfo.systemUptime - started
        return report
    }

    private func process(_ job: Job) async -> Outcome {
        if let refusal = source.refusal(for: job.url) {
            return Outcome(job: job, failure: FetchFailure(url: job.url, reason: refusal))
        }
        if let robots, let refusal = await robots.refusal(for: job.url) {
            // robots.txt cut off by the deadline says nothing about the page: it was not had in time.
            return Task.isCancelled ? atDeadline(job, "not fetched") : Outcome(job: job, failure: refusal)
        }
        switch await source.fetch(job.url) {
        case let .failure(failure):
            return Outcome(job: job, failure: failure)
        case let .success(page):
            // A page that arrives after the deadline is not parsed: parsing a large one takes seconds of its own.
            if Task.isCancelled { return atDeadline(job, "not parsed") }
            let result = parser.parse(bytes: page.body, sourceURL: page.finalURL, input: job.url.absoluteString,
                                      contentType: page.contentType)
            return Outcome(job: job, page: page, result: result)
        }
    }

    /// A page the deadline came before: `what` was not done to it.
    private func atDeadline(_ job: Job, _ what: String) -> Outcome {
        let reason = "\(what): the crawl deadline of \(settings.deadlineSeconds) s was reached"
        return Outcome(job: job, failure: FetchFailure(url: job.url, reason: reason, temporary: true))
    }
}

/// Fetches robots.txt once per origin and answers whether a URL may be crawled.
actor RobotsGate {
    private let source: any PageSource
    private let userAgent: String
    /// Each origin's policy, or why there is none (so nothing of that origin is crawled).
    private var policies: [String: Task<Result<RobotsPolicy, FetchFailure>, Never>] = [:]

    init(source: any PageSource, userAgent: String) {
        self.source = source
        self.userAgent = userAgent
    }

    /// Why robots.txt keeps `url` from being crawled (temporary when an outage kept the file away), or nil.
    func refusal(for url: URL) async -> FetchFailure? {
        guard let scheme = url.scheme, let host = url.host else { return nil }
        let origin = "\(scheme)://\(host)\(url.port.map { ":\($0)" } ?? "")"
        let task = policies[origin] ?? Task { [source, userAgent] in
            guard let robotsURL = URL(string: origin + "/robots.txt") else { return .success(.allowAll) }
            switch await source.fetch(robotsURL) {
            case let .success(page):
                let policy = RobotsPolicy(parsing: String(decoding: page.body, as: UTF8.self), userAgent: userAgent)
                if let delay = policy.crawlDelay { await source.setMinimumDelay(delay, for: host) }
                return .success(policy)
            case let .failure(failure):
                // RFC 9309: a missing robots.txt (4xx) allows everything; an unreachable one (5xx) allows nothing.
                if let status = failure.status, (400..<500).contains(status) { return .success(.allowAll) }
                return .failure(failure)
            }
        }
        policies[origin] = task
        // Shared by every page of the origin, the fetch is not a child of any: the deadline's cancellation is passed on.
        switch await withTaskCancellationHandler(operation: { await task.value }, onCancel: { task.cancel() }) {
        case let .failure(failure):
            return FetchFailure(url: url, reason: "robots.txt of \(origin) could not be fetched: \(failure.reason)",
                                temporary: failure.temporary)
        case let .success(policy):
            if let refusal = policy.refusal { return FetchFailure(url: url, reason: refusal) }
            let path = url.path.isEmpty ? "/" : url.path
            return policy.allows(url.query.map { "\(path)?\($0)" } ?? path) ? nil
                : FetchFailure(url: url, reason: "disallowed by robots.txt for \(userAgent)")
        }
    }
}
