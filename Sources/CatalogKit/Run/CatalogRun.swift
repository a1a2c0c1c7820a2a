import Foundation

/// One run of the pipeline for one catalog, logged and reported: fetch, parse, normalize, diff, announce, write
/// the outputs, then publish them into Firestore when the configuration says where.
public struct CatalogRun: Sendable {
    public var catalog: CatalogConfig
    public var config: PipelineConfig
    /// The run's clock (`RunClock.now`): capture times, `createdAt` and `updatedAt` come from it.
    public var now: Date
    /// Recognize the pages' system and label the catalog with the one most courses came from.
    public var detectSystem = false
    /// Fetch, parse, normalize and diff, but write nothing.
    public var dryRun = false
    public var acceptRemovals = false
    /// A backfill's edition (`Backfill`): the snapshot is labelled and dated by it; nothing is announced, published to
    /// Firestore or rendered as the site.
    public var edition: String?
    /// Paces this run's requests together with other runs' on the same hosts (`ShardRun`); nil: a gate of its own.
    var gate: ConcurrencyGate?

    public init(catalog: CatalogConfig, config: PipelineConfig, now: Date) {
        self.catalog = catalog
        self.config = config
        self.now = now
    }

    /// How a run ended.
    public enum Outcome: Sendable {
        /// The outputs and the snapshot were written (and published, where the configuration asks).
        case committed(CommitReport)
        /// The outputs and the snapshot were written, but rendering the website or publishing into Firestore failed;
        /// they stand, and `gvingest site` or `gvingest publish` can be run again.
        case publishFailed(CommitReport, CatalogError)
        /// A dry run: the diff a real run would publish, against the snapshot of `comparedWith` (nil: none yet).
        case dryRun(diff: CatalogDiff, comparedWith: String?)
        /// The source could not be read at all (no such directory, an unreadable mirror).
        case sourceUnavailable(CatalogError)
        /// The source is down for now (DNS, refused or reset connections, TLS, timeouts), or the crawl reached its deadline.
        case temporaryFailure(String)
        /// Nothing was written: a guard refused, or the previous snapshot, the news or an output stood in the way.
        case notCommitted(CommitError, temporary: Bool)

        /// What kind of trouble ended the run; nil when it did what it was asked.
        public var cause: CatalogError.Cause? {
            switch self {
            case .committed, .dryRun: nil
            case let .publishFailed(_, failure), let .sourceUnavailable(failure): failure.cause
            case .temporaryFailure: .temporary
            case let .notCommitted(error, temporary): temporary ? .temporary : error.cause
            }
        }
    }

    /// Says when the clock is before the last snapshot's: news and stamps would be dated back, and found late in the app.
    private func warnOfClock(before last: String?, log: RunLog) {
        guard let last, let then = Timestamp.date(last), now < then else { return }
        log.warning("clock", "news and stamps dated \(Timestamp.string(now)), before the last run's \(last): check \(RunClock.variable) or the clock")
    }

    public func execute(log: RunLog, progress: (@Sendable (CrawlReport) -> Void)? = nil,
                        report: inout RunReport) async -> Outcome {
        var catalog = catalog
        log.info("start", "catalog \(catalog.id) (\(detectSystem ? "auto" : catalog.system.rawValue)) from \(catalog.source)\(dryRun ? ", dry run" : "")")
        if !dryRun, let link = plantedLink() {
            let error = Self.linkRefused(link)
            log.error("outputs", "\(error)")
            report.outcome = "\(error)"
            return .notCommitted(error, temporary: false)
        }
        var loaded: CrawlReport
        do throws(CatalogError) {
            loaded = try await report.stage("fetch+parse") { () async throws(CatalogError) -> (CrawlReport, [String: Int]) in
                let result = try await load(progress: progress)
                return (result, ["pagesExpected": result.pagesExpected, "pagesFetched": result.pagesFetched, "pagesFailed": result.pagesFailed,
                                 "notModified": result.notModified, "retries": result.retries, "courses": result.courseCount])
            }
        } catch {
            log.error("fetch", "source unavailable: \(error)", remedy: error.remedy)
            report.outcome = "source unavailable: \(error)"
            return .sourceUnavailable(error)
        }
        if let stopped = reportFetch(loaded, log: log, report: &report) { return stopped }
        // The pages are let go once their courses are out: held through the run, they would add to its peak memory.
        let parsed = loaded.coursePages.flatMap(\.courses)
        loaded.coursePages = []
        if detectSystem, let system = Self.commonestSystem(parsed) {
            catalog.system = system
            log.info("fetch", "recognized as \(system.rawValue)")
        }

        let courses = await report.stage("normalize") { [config] () async -> ([Course], [String: Int]) in
            let courses = Normalizer(rules: config.normalize).normalize(catalog: parsed)
            return (courses, ["courses": courses.count, "withPrerequisite": courses.filter { $0.prerequisite != nil }.count])
        }
        for course in courses {
            for warning in course.warnings { log.warning("normalize", "\(course.code): \(warning)", ["course": .string(course.id)]) }
        }
        let pages = PageCounts(expected: loaded.pagesExpected, fetched: loaded.pagesFetched, failed: loaded.pagesFailed,
                               unparsed: loaded.parseGaps, subjectNames: loaded.subjectNames)
        var pipeline = NewsPipeline(store: config.outputs.store(for: catalog.id), outputDirectory: config.outputs.directory,
                                    news: config.news, guards: config.guards, keepSnapshots: config.outputs.keepSnapshots)
        pipeline.edition = edition
        if dryRun {
            do throws(CommitError) {
                let proposal = try pipeline.proposal(catalog: catalog, pages: pages, courses: courses,
                                                     acceptRemovals: acceptRemovals, now: now)
                for violation in proposal.violations { log.warning("guards", "a real run would refuse: \(violation)") }
                warnOfClock(before: proposal.previous?.capturedAt, log: log)
                report.outcome = "dry run: \(DiffReport.summary(proposal.diff))"
                log.info("diff", "dry run: \(DiffReport.summary(proposal.diff)); nothing written")
                return .dryRun(diff: proposal.diff, comparedWith: proposal.previous?.capturedAt)
            } catch {
                log.error("diff", "\(error)")
                report.outcome = "\(error)"
                return .notCommitted(error, temporary: false)
            }
        }
        // The outbox is made before the commit: made after it, it would start past this run's news.
        if config.announce != nil, let news = try? pipeline.loadNews(), let (outbox, isNew) = try? Outbox.load(pipeline.store, news: news), isNew {
            do throws(CatalogError) { try outbox.save(pipeline.store) } catch { log.warning("announce", "\(error)") }
        }
        do {
            let committed = try await report.stage(RunReport.commitStage) { [now, acceptRemovals] () async throws(CommitError) -> (CommitReport, [String: Int]) in
                let committed = try pipeline.commit(catalog: catalog, pages: pages, courses: courses, acceptRemovals: acceptRemovals, now: now)
                return (committed, ["added": committed.diff.added.count, "returned": committed.diff.returned.count,
                                    "removed": committed.diff.removed.count,
                                    "changed": committed.diff.changed.count, "renumbered": committed.diff.renumbered.count,
                                    "news": committed.news.count])
            }
            for warning in committed.warnings { log.warning("commit", warning) }
            warnOfClock(before: committed.previous?.capturedAt, log: log)
            let change = committed.previous == nil ? "first snapshot" : DiffReport.summary(committed.diff)
            log.info("commit", "\(change); \(committed.news.count) news item(s); wrote \(pipeline.catalogFile.path) and \(committed.snapshotFile.lastPathComponent)",
                     ["snapshot": .string(committed.snapshotFile.path), "news": .int(committed.news.count)])
            report.outcome = committed.diff.isEmpty && committed.previous != nil ? "no changes" : "ok"
            // Independent stages: the site is for people and Firestore for the app, both made from the outputs just
            // committed, so a site that could not be written says nothing against publishing (the first failure
            // decides the exit status; each is logged and in the report).
            let siteFailure = await renderSite(courses, log: log, report: &report)
            let firestoreFailure = await publishToFirestore(log: log, report: &report)
            let failure = siteFailure ?? firestoreFailure
            await announce(committed, pipeline: pipeline, log: log, report: &report, failure: failure)
            FlightLog.current?.mark(stage: nil, report: reportFile)
            return failure.map { .publishFailed(committed, $0) } ?? .committed(committed)
        } catch {
            log.error("commit", "\(error)", remedy: error.remedy)
            report.outcome = "\(error)"
            // Pages failed for passing reasons explain other refusals too (no listing: too few courses): retry later.
            let violations = if case let .refused(violations) = error { violations } else { [GuardViolation]() }
            let failedPages = violations.contains { if case .failedPages = $0 { true } else { false } }
            return .notCommitted(error, temporary: failedPages && !loaded.failures.isEmpty && loaded.failures.allSatisfy(\.temporary))
        }
    }

    /// A symbolic link where the run writes or deletes: the output folder (its lock and report), the snapshot folders
    /// and outbox, the response cache, the commit journal, each checked below the output directory or, outside it,
    /// below the configuration's folder. Every command that writes there asks first, before its lock.
    public static func plantedLink(config: PipelineConfig, catalogID: String) -> String? {
        let outputs = config.outputs
        let project = config.file?.deletingLastPathComponent() ?? outputs.directory
        let written = [outputs.directory, outputs.snapshots, outputs.store(for: catalogID).directory,
                       outputs.directory.appendingPathComponent(".gvingest-commit.json")]
            + [config.fetch.cacheDirectory].compactMap { $0 }
        return written.lazy.compactMap {
            AtomicFile.symbolicLink(from: outputs.directory, to: $0) ?? AtomicFile.symbolicLink(from: project, to: $0)
        }.first
    }

    /// The refusal of a planted link.
    public static func linkRefused(_ link: String) -> CommitError {
        .cannotWrite(path: link, reason: "a symbolic link under the outputs, which gvingest never writes or deletes through "
            + "(remove it, or point the configuration at the real folder)")
    }

    private func plantedLink() -> String? { Self.plantedLink(config: config, catalogID: catalog.id) }

    var reportFile: URL { config.outputs.directory.appendingPathComponent("run-report.json") }

    /// Writes the report so far before a stage after the commit, saying the stage is under way: a run that stops in it
    /// leaves a report that says what was done (its supervisor records the crash in it, `RunReport.recordCrash`).
    private func reportUnderWay(_ stage: String, _ report: RunReport, log: RunLog, cause: CatalogError.Cause? = nil, outcome: String? = nil) {
        var interim = report
        interim.warnings = log.warnings
        interim.stageUnderWay = stage
        interim.causeSoFar = cause
        if let outcome { interim.outcome = outcome }
        try? AtomicFile.write(JSONFile.fileBytes(interim), to: reportFile)
        FlightLog.current?.mark(stage: stage, report: reportFile)
    }

    /// Renders the website where `outputs.site` says, from the outputs just written and the rule each field was read by.
    private func renderSite(_ courses: [Course], log: RunLog, report: inout RunReport) async -> CatalogError? {
        guard let site = config.outputs.site, edition == nil else { return nil }
        reportUnderWay("site", report, log: log)
        var interim = report
        interim.warnings = log.warnings
        let provenance = Dictionary(courses.map { ($0.id, $0.parsed.provenance) }) { first, _ in first }
        let failure = await report.stage("site") { [config, catalog] () async -> (CatalogError?, [String: Int]) in
            do throws(CatalogError) {
                var input = try SitePublisher.input(outputs: config.outputs, catalog: catalog, provenance: provenance)
                input.report = interim
                input.apply(config)
                let files = CatalogSite.render(input)
                try Result { () throws(FileWriteError) in try SitePublisher.write(files, to: site) }
                    .mapError { CatalogError("\($0); the outputs stand, `gvingest site` can render it again", .cannotWrite) }.get()
                log.info("site", "wrote \(files.count) files into \(site.path)")
                return (nil, ["files": files.count])
            } catch {
                return (error, [:])
            }
        }
        guard let failure else { return nil }
        log.error("site", "\(failure)")
        report.outcome = "outputs written; the site was not: \(failure)"
        return failure
    }

    /// Publishes the written outputs where `publish.firestore` says; the failure, if any, after logging it.
    private func publishToFirestore(log: RunLog, report: inout RunReport) async -> CatalogError? {
        guard let settings = config.firestore, edition == nil else { return nil }
        // Written now and again at the end: a run killed while publishing leaves a report `gvingest publish` accepts.
        reportUnderWay(FirestoreDocuments.publishStage, report, log: log, outcome: report.outcome + "; publishing into Firestore")
        var options = FirestorePublishOptions()
        options.maximumRemovalFraction = config.guards.maximumRemovalFraction
        options.acceptRemovals = acceptRemovals
        options.userAgent = config.fetch.requestUserAgent
        // A failed publish is a stage too, one with no counts.
        let failure = await report.stage(FirestoreDocuments.publishStage) { [config] () async -> (CatalogError?, [String: Int]) in
            do throws(CatalogError) {
                let summary = try await FirestorePublisher.publish(directory: config.outputs.directory, checkReport: false,
                                                                   settings: settings, options: options)
                log.info("publish.firestore", "published into \(settings.project): \(summary.line)")
                return (nil, summary.counts)
            } catch {
                return (error, [:])
            }
        }
        guard let failure else { return nil }
        log.error("publish.firestore", "\(failure); the outputs stand, `gvingest publish` can be run again", remedy: failure.remedy)
        let before = report.outcome.hasPrefix("outputs written;") ? report.outcome : "outputs written"  // the site's failure stays
        report.outcome = "\(before); Firestore publish failed: \(failure)"
        return failure
    }

    /// Sends the run's news to the configured channels; what is not delivered stays in the outbox, is warned of and
    /// listed in the report, and never changes the run's outcome.
    private func announce(_ committed: CommitReport, pipeline: NewsPipeline, log: RunLog, report: inout RunReport,
                          failure: CatalogError?) async {
        guard let settings = config.announce else { return }
        guard edition == nil else {
            // A backfill announces nothing: its news counts as queued, so that no later run announces it either.
            if let news = try? pipeline.loadNews(), var (outbox, _) = try? Outbox.load(pipeline.store, news: news) {
                outbox.queued.formUnion(news.map(\.id))
                do throws(CatalogError) { try outbox.save(pipeline.store) } catch { log.warning("announce", "\(error)") }
            }
            return
        }
        // The status the run has so far: a crash while announcing leaves it as it is.
        reportUnderWay("announce", report, log: log, cause: failure?.cause)
        var announcer = Announcer(settings: settings, catalog: catalog, store: pipeline.store, now: now)
        (announcer.subjectNames, announcer.site) = (config.subjectNames(readIn: committed.snapshot), config.site)
        announcer.userAgent = config.fetch.requestUserAgent
        do throws(CatalogError) {
            let news = try Result { () throws(CommitError) in try pipeline.loadNews() }.mapError { CatalogError("\($0)", .invalidData) }.get()
            let outbox = try announcer.outbox(news: news, snapshot: committed.snapshot)
            try outbox.save(pipeline.store)
            let channels = await report.stage("announce") { () async -> ([ChannelReport], [String: Int]) in
                let channels = await announcer.deliver(outbox)
                return (channels, ["delivered": channels.map(\.delivered).reduce(0, +), "messages": channels.map(\.messages).reduce(0, +),
                                   "pending": channels.map(\.pending.count).reduce(0, +)])
            }
            for channel in channels where !channel.pending.isEmpty {
                let name = "channel \(channel.channel): ", problem = channel.problem ?? "not delivered"
                log.warning("announce", (problem.hasPrefix(name) ? "" : name) + "\(problem); \(channel.pending.count) news item(s) "
                    + "stay pending for the next run or `gvingest announce`")
            }
            report.pendingDeliveries = channels.filter { !$0.pending.isEmpty }
        } catch {
            log.warning("announce", "\(error); nothing was announced, the news stays for the next run or `gvingest announce`")
        }
    }

    /// The catalog's pages, crawled, replayed from a mirror or read from a directory, and parsed; throws (69) when the
    /// source cannot be read at all.
    private func load(progress: (@Sendable (CrawlReport) -> Void)?) async throws(CatalogError) -> CrawlReport {
        let settings = config.fetch
        let parser = PageParser(system: detectSystem ? .auto : catalog.systemChoice)
        func unavailable(_ message: String) -> CatalogError { CatalogError(message, .unavailable) }
        switch catalog.source {
        case let .http(urls):
            let fetcher = HTTPFetcher(settings: settings, startURLs: urls, gate: gate ?? ConcurrencyGate(settings: settings))
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
            if let problem = FileBytes.directoryProblem(directory.path) { throw unavailable("\(directory.path): \(problem)") }
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
            for result in results { report.noteSubject(of: result.listing) }
            return report
        }
    }

    /// Logs what fetching found; an outage or a crawl deadline ends the run here.
    private func reportFetch(_ loaded: CrawlReport, log: RunLog, report: inout RunReport) -> Outcome? {
        log.info("fetch", "\(loaded.pagesFetched)/\(loaded.pagesExpected) pages, \(loaded.pagesFailed) failed, "
                 + "\(loaded.parseGaps.count) not read (parse gaps), \(loaded.courseCount) courses parsed",
                 ["pagesExpected": .int(loaded.pagesExpected), "pagesFetched": .int(loaded.pagesFetched), "pagesFailed": .int(loaded.pagesFailed)])
        report.failedPages = loaded.failures.filter { !$0.atDeadline }.map { RunReport.FailedPage(url: Self.shown($0.url), reason: $0.reason) }
        if let outage = Outage.cause(of: loaded, allowFailedPages: config.guards.allowFailedPages), !loaded.deadlineReached {
            log.error("fetch", outage, ["failures": .array(loaded.failures.map { .string("\(Self.shown($0.url)): \($0.reason)") })])
            report.outcome = outage
            return .temporaryFailure(outage)
        }
        for failure in report.failedPages {
            log.warning("fetch", "\(failure.url): \(failure.reason)", ["url": .string(failure.url)])
        }
        for warning in loaded.coursePages.flatMap(\.unreadableCourseWarnings) { log.warning("parse", warning) }
        for gap in loaded.parseGaps { log.warning("parse", "parse gap: \(gap.url): \(gap.reason)", ["url": .string(gap.url)]) }
        report.parseGaps = loaded.parseGaps
        guard loaded.deadlineReached else { return nil }
        // One line however many pages were left: the run report lists them.
        report.unfetchedAtDeadline = loaded.failures.filter(\.atDeadline).map(\.url)
        let summary = "the crawl deadline of \(config.fetch.deadlineSeconds) s was reached: \(report.unfetchedAtDeadline.count) page(s) "
            + "not fetched (listed in the run report); nothing was published and the previous outputs are untouched"
        log.error("fetch", summary, ["unfetched": .int(report.unfetchedAtDeadline.count)])
        report.outcome = "deadline reached: \(summary)"
        return .temporaryFailure(summary)
    }

    /// A URL as the log and the report show it: one of megabytes (refused before any request) by its start and length.
    static func shown(_ url: String) -> String {
        url.utf8.count <= 2_048 ? url : "\(url.prefix(2_048))… (\(url.utf8.count) bytes)"
    }

    /// The system most of the catalog's courses were recognized as.
    public static func commonestSystem(_ courses: [ParsedCourse]) -> CatalogSystem? {
        let counts = Dictionary(courses.map { ($0.system, 1) }, uniquingKeysWith: +)
        return counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key.rawValue > $1.key.rawValue) }?.key
    }
}
