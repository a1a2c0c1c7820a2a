import CatalogKit
import Foundation

/// `gvingest run`: every stage, once, safely: fetch → parse → normalize → diff → announce → publish.
enum RunCommand: Command {
    static let name = "run"
    static let help = """
    Usage: gvingest run [--config FILE] [--catalog ID] [--replay DIR] [--dry-run] [--accept-removals]
                        [--log-format human|json] [--report FILE] [--quiet]
           gvingest run --source PATH|URL [--system gvsu|acalog|courseleaf|banner] --out DIR [--catalog ID] [--dry-run] …

    Runs the pipeline for a catalog of a configuration (default pipeline.json; --catalog picks one
    when it has several), or, with --source, for one source with default settings and no
    configuration: a URL is crawled, a directory with an index.json is replayed as a mirror, any
    other directory is read as saved pages. Outputs go to the configuration's outputs.directory
    (or --out DIR): catalog.json, news.json, news.atom, digest-<catalog>.md, snapshots/<catalog>/,
    and run-report.json (per-stage timings, counts and warnings; written after every run). With a
    publish.firestore section, a successful run then publishes into Firestore as `gvingest publish`
    does (credentials as there); if that fails, the outputs stand and the run exits with publish's status.

    The run fails closed: failed pages, fewer courses than guards.minimumCourses, or more removals
    than guards.maximumRemovalFraction (default 10 %) write no snapshot and no output and leave the
    previous ones untouched. A second run on the same outputs at the same time stops at once.

    Options:
      --config FILE      The pipeline configuration (default: pipeline.json).
      --catalog ID       The catalog to run (needed when the configuration has several); with --source,
                         the id to give it (default: the host or directory name), which names its
                         snapshot store, so runs over two directories can be compared.
      --replay DIR       Read the catalog from a recorded mirror instead of its source.
      --source PATH|URL  Run one source with defaults and no configuration (needs --out).
      --system S         With --source: gvsu (default), acalog, courseleaf or banner.
      --out DIR          With --source: the output directory.
      --dry-run          Fetch, parse, normalize and print the diff against the last snapshot; write nothing.
      --accept-removals  Publish even when more courses disappeared than guards allow.
      --log-format F     human (default) or json: one JSON object per line on stderr.
      --report FILE      Where to write the run report (default: <outputs>/run-report.json).
      --quiet            No progress line.

    Exit status: 0 ok, 64 bad usage, 65 data error (a guard refused, a corrupt snapshot or news
    file, an invalid configuration), 66 the configuration can't be read, 69 the source is
    unavailable, 73 an output can't be written, 75 a temporary failure worth retrying (another run
    holds the lock, pages failed for passing reasons, Firestore still failing at the deadline),
    77 no Firestore credentials.
    """

    static func run(_ words: [String]) async throws(UsageError) -> ExitStatus {
        let arguments = try Arguments(words, flags: ["--dry-run", "--accept-removals", "--quiet"],
                                      options: ["--config", "--catalog", "--replay", "--source", "--system", "--out", "--log-format", "--report"])
        guard arguments.positional.isEmpty else { throw UsageError(message: "unexpected argument '\(arguments.positional[0])'") }
        let formatWord = arguments.value("--log-format") ?? "human"
        guard let format = RunLog.Format(rawValue: formatWord) else { throw UsageError(message: "--log-format must be human or json, not '\(formatWord)'") }
        let log = RunLog(format: format)

        var config: PipelineConfig
        if let source = arguments.value("--source") {
            guard arguments.value("--config") == nil else { throw UsageError(message: "--source and --config do not go together") }
            guard let out = arguments.value("--out") else { throw UsageError(message: "--source needs --out DIR") }
            let systemWord = arguments.value("--system") ?? "gvsu"
            guard let system = CatalogSystem(rawValue: systemWord) else { throw UsageError(message: "--system must be \(CatalogSystem.allCases.map(\.rawValue).joined(separator: ", ")), not '\(systemWord)'") }
            config = try adHocConfig(source: source, system: system, out: URL(fileURLWithPath: out), id: arguments.value("--catalog"))
        } else {
            guard arguments.value("--out") == nil, arguments.value("--system") == nil else {
                throw UsageError(message: "--out and --system go with --source; a configuration names its own")
            }
            switch loadConfiguration(arguments.value("--config") ?? "pipeline.json", command: name) {
            case let .success(loaded): config = loaded
            case let .failure(failure): return failure.status
            }
        }
        var catalogs = config.catalogs
        if let id = arguments.value("--catalog") {
            catalogs = catalogs.filter { $0.id == id }
            guard !catalogs.isEmpty else {
                throw UsageError(message: "no catalog '\(id)'; the configuration has \(config.catalogs.map(\.id).joined(separator: ", "))")
            }
        }
        guard catalogs.count == 1, var catalog = catalogs.first else {
            throw UsageError(message: "the configuration has \(catalogs.count) catalogs (\(catalogs.map(\.id).joined(separator: ", "))); name one with --catalog")
        }
        if let replay = arguments.value("--replay") { catalog.source = .replay(URL(fileURLWithPath: replay)) }

        let dryRun = arguments.has("--dry-run")
        let lock: RunLock?
        do {
            lock = dryRun ? nil : try RunLock(directory: config.outputs.directory)
        } catch let busy as RunLock.Busy {
            log.error("lock", "\(busy)")
            return .temporaryFailure
        } catch {
            log.error("lock", "\(error)")
            return .cannotCreate
        }
        defer { withExtendedLifetime(lock) {} }

        var report = RunReport(catalog: catalog.id, startedAt: Timestamp.string(Date()))
        var status = await execute(catalog: catalog, config: config, dryRun: dryRun, acceptRemovals: arguments.has("--accept-removals"),
                                   quiet: arguments.has("--quiet"), log: log, report: &report)
        if status == .ok, !dryRun {
            status = await PublishCommand.afterRun(config: config, acceptRemovals: arguments.has("--accept-removals"), log: log, report: &report)
        }
        report.exitStatus = status.rawValue
        report.warnings = log.warnings
        if !dryRun {
            let file = arguments.value("--report").map(URL.init(fileURLWithPath:))
                ?? config.outputs.directory.appendingPathComponent("run-report.json")
            do {
                try AtomicFile.write(Data((report.json.serialized() + "\n").utf8), to: file)
            } catch {
                log.warning("report", "cannot write the run report: \(error)")
            }
        }
        return status
    }

    static func execute(catalog: CatalogConfig, config: PipelineConfig, dryRun: Bool, acceptRemovals: Bool, quiet: Bool,
                        log: RunLog, report: inout RunReport) async -> ExitStatus {
        log.info("start", "catalog \(catalog.id) (\(catalog.system.rawValue)) from \(catalog.source)\(dryRun ? ", dry run" : "")")
        let line = ProgressLine(enabled: !quiet && log.format == .human && isatty(STDERR_FILENO) == 1)
        let loaded: LoadedCatalog
        do {
            loaded = try await report.stage("fetch+parse") { () async throws(SourceUnavailable) -> (LoadedCatalog, [String: Int]) in
                let result = try await CatalogLoader.load(catalog, settings: config.fetch, progress: { line.show($0) })
                return (result, ["pagesExpected": result.pagesExpected, "pagesFetched": result.pagesFetched, "pagesFailed": result.pagesFailed,
                                 "notModified": result.notModified, "retries": result.retries, "courses": result.courses.count])
            }
        } catch {
            line.finish()
            log.error("fetch", "source unavailable: \(error)")
            report.outcome = "source unavailable: \(error)"
            return .unavailable
        }
        line.finish()
        log.info("fetch", "\(loaded.pagesFetched)/\(loaded.pagesExpected) pages, \(loaded.pagesFailed) failed, \(loaded.courses.count) courses parsed",
                 ["pagesExpected": .int(loaded.pagesExpected), "pagesFetched": .int(loaded.pagesFetched), "pagesFailed": .int(loaded.pagesFailed)])
        for failure in loaded.failures { log.warning("fetch", "\(failure.url): \(failure.reason)", ["url": .string(failure.url)]) }

        let courses = await report.stage("normalize") { () async -> ([Course], [String: Int]) in
            let courses = Normalizer(rules: config.normalize).normalize(catalog: loaded.courses)
            return (courses, ["courses": courses.count, "withPrerequisite": courses.filter { $0.prerequisite != nil }.count])
        }
        for course in courses {
            for warning in course.warnings { log.warning("normalize", "\(course.code): \(warning)", ["course": .string(course.id)]) }
        }
        let pages = PageCounts(expected: loaded.pagesExpected, fetched: loaded.pagesFetched, failed: loaded.pagesFailed)
        let pipeline = NewsPipeline(config: config, catalogID: catalog.id)

        if dryRun {
            return dryRunDiff(catalog: catalog, pipeline: pipeline, pages: pages, courses: courses, acceptRemovals: acceptRemovals,
                              log: log, report: &report)
        }
        do {
            let committed = try await report.stage("diff+announce+publish") { () async throws(CommitError) -> (CommitReport, [String: Int]) in
                let committed = try pipeline.commit(catalog: catalog, pages: pages, courses: courses, acceptRemovals: acceptRemovals, now: Date())
                return (committed, ["added": committed.diff.added.count, "removed": committed.diff.removed.count,
                                    "changed": committed.diff.changed.count, "renumbered": committed.diff.renumbered.count,
                                    "news": committed.news.count])
            }
            for warning in committed.warnings { log.warning("publish", warning) }
            let change = committed.previous == nil ? "first snapshot" : DiffReport.summary(committed.diff)
            log.info("publish", "\(change); \(committed.news.count) news item(s); wrote \(pipeline.catalogFile.path) and \(committed.snapshotFile.lastPathComponent)",
                     ["snapshot": .string(committed.snapshotFile.path), "news": .int(committed.news.count)])
            report.outcome = committed.diff.isEmpty && committed.previous != nil ? "no changes" : "ok"
            return .ok
        } catch let error as CommitError {
            log.error("publish", "\(error)")
            report.outcome = "\(error)"
            // Pages that failed for passing reasons (5xx, timeouts) explain the other refusals too: a
            // catalog with its listing missing has "too few courses". Running again later is the remedy.
            if case let .refused(violations) = error, violations.contains(where: { if case .failedPages = $0 { return true } else { return false } }),
               !loaded.failures.isEmpty, loaded.failures.allSatisfy(\.temporary) {
                return .temporaryFailure
            }
            return error.exitStatus
        } catch {
            log.error("publish", "\(error)")
            report.outcome = "\(error)"
            return .dataError
        }
    }

    static func dryRunDiff(catalog: CatalogConfig, pipeline: NewsPipeline, pages: PageCounts, courses: [Course], acceptRemovals: Bool,
                           log: RunLog, report: inout RunReport) -> ExitStatus {
        let previous: Snapshot?
        do {
            previous = try pipeline.store.latest()?.snapshot
        } catch {
            log.error("diff", "\(error)")
            return .dataError
        }
        let (snapshot, diff) = Snapshot.capture(catalogID: catalog.id, source: catalog.source.json, pages: pages, courses: courses,
                                                previous: previous, at: Date())
        print(DiffReport.human(diff, old: previous?.capturedAt ?? "(no snapshot yet)", new: "this run (not written)",
                               colors: isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil))
        let violations = RunGuards.check(pages: pages, courseCount: snapshot.courses.count, previousCourseCount: previous?.courses.count,
                                         removedCount: diff.removed.count, settings: pipeline.guards, acceptRemovals: acceptRemovals)
        for violation in violations { log.warning("guards", "a real run would refuse: \(violation)") }
        report.outcome = "dry run: \(DiffReport.summary(diff))"
        log.info("diff", "dry run: \(DiffReport.summary(diff)); nothing written")
        return .ok
    }

    /// A configuration for `--source`: one catalog with default settings, outputs in `out`.
    static func adHocConfig(source: String, system: CatalogSystem, out: URL, id chosenID: String?) throws(UsageError) -> PipelineConfig {
        let catalogSource: CatalogSource
        let id: String
        if let url = URL(string: source), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host {
            catalogSource = .http(startURLs: [url])
            id = host
        } else {
            let directory = URL(fileURLWithPath: source).standardizedFileURL
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw UsageError(message: "--source must be an http(s) URL or a directory, not '\(source)'")
            }
            let isMirror = FileManager.default.fileExists(atPath: directory.appendingPathComponent(MirrorIndex.fileName).path)
            catalogSource = isMirror ? .replay(directory) : .directory(directory)
            id = directory.lastPathComponent
        }
        let safeID = String((chosenID ?? id).map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" })
        return PipelineConfig(catalogs: [CatalogConfig(id: safeID.isEmpty ? "catalog" : safeID, name: source, system: system,
                                                       source: catalogSource)],
                              outputs: OutputSettings(directory: out.standardizedFileURL))
    }
}
