import CatalogKit
import Foundation

/// `gvingest run`: every stage, once, safely: fetch → parse → normalize → diff → announce → publish.
enum RunCommand: Command {
    static let name = "run"
    static let usesNetwork = true
    static let summary = "Run every stage: fetch, parse, normalize, diff, announce, publish (the scheduled job)."
    static let options: [CommandOption] = [
        .option("--config", "FILE", "The pipeline configuration. With --source, only its normalization, fetch, news and "
                + "guard settings (and outputs, without --out).", default: "pipeline.json"),
        .option("--catalog", "ID", "The catalog to run (needed when the configuration has several); with --source, the id "
                + "to give it (default: the host or directory name). The id names the snapshot store, so runs over two "
                + "directories with one id are compared, and the feed (id urn:gvingest:ID:news, title \"ID: new courses\")."),
        .option("--replay", "DIR", "Read the catalog from a recorded mirror instead of its source (not with --source)."),
        .option("--source", "PATH|URL", "Run one source instead of a configuration's catalogs."),
        .system("With --source: the parser for the pages; with auto the catalog is labelled with the system most courses "
                + "came from."),
        .option("--out", "DIR", "With --source: the output directory (needed without --config). A warning says when it holds "
                + "snapshots of other catalogs but none of this one (a new baseline)."),
        .flag("--dry-run", "Fetch, parse, normalize and print the diff against the last snapshot; write nothing but the copy "
              + "of the run report --report names."),
        .flag("--accept-removals", "Publish even when more courses disappeared than guards allow."),
        .logFormat,
        .option("--report", "FILE", "Also write the run report to FILE (- is standard output, after a dry run's diff); 73 if "
                + "a good run can't write either."),
        .flag("--quiet", "No progress line."),
        .color("The --dry-run diff's colours"),
        .option("--shard", "I/N", "Run shard I of N of the configuration's catalogs (I \"index\": JOB_COMPLETION_INDEX)."),
        .flag("--all", "Run every catalog of the configuration, as one shard."),
    ]
    static let usages = [
        Usage(optional: ["--config", "--catalog", "--replay", "--dry-run", "--accept-removals", "--log-format", "--report",
                         "--quiet", "--color"]),
        // One form for both: they exclude each other and take the same options (a shard prints no progress line).
        Usage(before: "--shard I/N|--all", optional: ["--config", "--log-format", "--report"]),
        Usage(required: ["--source"], optional: ["--system", "--out", "--config", "--catalog"], after: "[other options above]"),
    ]
    static let discussion = """
    Runs the pipeline for a catalog of a configuration (default pipeline.json; --catalog picks one
    when it has several), or, with --source, for one source: a URL is crawled, a directory with an
    index.json is replayed as a mirror, any other directory is read as saved pages. Outputs go to the
    configuration's outputs.directory (or --out DIR): catalog.json, news.json, news.atom,
    digest-<catalog>.md, snapshots/<catalog>/, and run-report.json (per-stage timings, counts and
    warnings; written after every run but a dry run). With a publish.firestore section, a successful
    run then publishes into Firestore as `gvingest publish` does (credentials as there); if that
    fails, the outputs stand and the run exits with publish's status.

    The run fails closed: failed pages, fewer courses than guards.minimumCourses, more removals
    than guards.maximumRemovalFraction (default 10 %), or more pages that were fetched but gave no
    course than guards.maximumUnparsedFraction (default 2 %) write no snapshot and no output and
    leave the previous ones untouched. Fewer such pages are parse gaps: logged, listed in the run
    report and the digest, and published past. A second run on the same outputs at the same time
    stops at once. SOURCE_DATE_EPOCH (seconds since 1970), when set, is the run's clock, so the same
    pages give byte-identical outputs.

    With --shard I/N (not with --catalog, --replay, --dry-run, --accept-removals or --color), runs
    shard I (from 0) of N as 'gvingest shards' assigns them: one catalog at a time within a
    politeness key, one request at a time with fetch.minimumDelayMs counted from each response,
    and keys side by side up to fetch.maxConcurrentHosts [4; 1-256]. I may be the word "index":
    then it is JOB_COMPLETION_INDEX, as a Kubernetes Indexed Job sets it. --all is --shard 0/1.
    Each catalog writes into outputs.directory/<id>/ (its own lock, outputs, guards and
    run-report.json; the site into outputs.site/<id>/, the cache into fetch.cacheDirectory/<id>/;
    snapshots stay in outputs.snapshots/<id>/), and outputs.directory/shards/I-of-N/
    shard-report.json lists each catalog's outcome, rewritten as each ends. A shard stopped
    before its end (killed, restarted) goes on where it was within 12 hours: catalogs that ended
    other than with 75 are not run again. The shard's exit status is its catalogs' most urgent:
    75 when any is worth retrying, then 65 (a guard refused), 73, 69,
    66, 77, 64; 0 when all ran. 'gvingest index' then writes index.json over them.
    """
    static let exitStatus = """
    Exit status: 0 ok, 64 bad usage, 65 data error (a guard refused, a corrupt snapshot or news
    file, an invalid configuration), 66 the configuration can't be read, 69 the source is
    unavailable (no such --source directory, an unreadable mirror), 73 an output can't be written,
    75 a temporary failure worth retrying (another run holds the lock; the source is down: DNS, a
    refused or reset connection, TLS, timeouts, 5xx, robots.txt out of reach, and the error line
    names the cause; the crawl reached fetch.deadlineSeconds: then nothing is published, one line
    says how many pages were left and the run report lists them; Firestore still failing at
    its deadline), 77 no Firestore credentials.
    """

    static func run(_ words: [String]) async throws -> ExitStatus {
        let arguments = try parseArguments(words)
        let colors = try stdoutColors(arguments)
        guard arguments.positional.isEmpty else { throw UsageError(message: "unexpected argument '\(arguments.positional[0])'") }
        let format = try arguments.value("--log-format", "must be human or json", RunLog.Format.init) ?? .human
        let log = RunLog(format: format) { ExitStatus.remedy($0, command: Self.self) }
        if arguments.value("--shard") != nil || arguments.has("--all") { return try await runShard(arguments, format: format) }

        let config: PipelineConfig
        var detectSystem = false
        var baseline: String?
        if let source = arguments.value("--source") {
            guard arguments.value("--replay") == nil else { throw UsageError(message: "--source names the pages; --replay does not go with it") }
            let system = try systemChoice(arguments)
            let base = try arguments.value("--config").map { try loadConfiguration($0) }
            config = try SourceRun.config(source: source, system: system, out: arguments.value("--out"),
                                          id: arguments.value("--catalog"), base: base)
            detectSystem = system == .auto
            baseline = config.catalogs.first.flatMap { SourceRun.baselineWarning(outputs: config.outputs, catalogID: $0.id) }
        } else {
            guard arguments.value("--out") == nil, arguments.value("--system") == nil else {
                throw UsageError(message: "--out and --system go with --source; a configuration names its own")
            }
            config = try loadConfiguration(arguments.value("--config") ?? "pipeline.json")
        }
        // With --source, --catalog named the one catalog made above (its id made safe for a file name).
        var catalog = try oneCatalog(of: config, at: arguments.value("--config") ?? "pipeline.json",
                                     named: arguments.value("--source") == nil ? arguments.value("--catalog") : nil)
        if let replay = arguments.value("--replay") { catalog.source = .replay(URL(fileURLWithPath: replay)) }

        guard let now = RunClock.now() else {
            throw UsageError(message: "\(RunClock.variable) must be a whole number of seconds since 1970 before the year 10000, not "
                + "'\(ProcessInfo.processInfo.environment[RunClock.variable] ?? "")'")
        }
        let dryRun = arguments.has("--dry-run")
        // Before the lock and the report, which would be written through it.
        if !dryRun, let link = CatalogRun.plantedLink(config: config, catalogID: catalog.id) {
            log.error("outputs", "\(CatalogRun.linkRefused(link))")
            return .cannotCreate
        }
        let lock: RunLock?
        do throws(CatalogError) {
            lock = dryRun ? nil : try RunLock(directory: config.outputs.directory)
        } catch {
            let (status, message) = ExitStatus.report(error, command: Self.self)
            log.error("lock", message)
            return status
        }
        defer { withExtendedLifetime(lock) {} }

        var report = RunReport(catalog: catalog.id, startedAt: Timestamp.string(now))
        if let baseline { log.warning("snapshots", baseline) }
        var run = CatalogRun(catalog: catalog, config: config, now: now)
        run.detectSystem = detectSystem
        run.dryRun = dryRun
        run.acceptRemovals = arguments.has("--accept-removals")
        let line = ProgressLine(enabled: !arguments.has("--quiet") && log.format == .human && isCapableTerminal(STDERR_FILENO))
        let outcome = await run.execute(log: log, progress: { line.show($0) }, report: &report)
        line.finish()
        if case let .dryRun(diff, comparedWith) = outcome {
            print(DiffReport.human(diff, old: comparedWith ?? "(no snapshot yet)", new: "this run (not written)", colors: colors))
        }
        let status = outcome.cause.map(ExitStatus.init) ?? .ok
        report.exitStatus = status.rawValue
        report.warnings = log.warnings
        // The outputs' report is the one `publish` checks; --report's copy is also written after a dry run, which
        // writes nothing else ("-": after the dry run's diff, still in print's buffer).
        let paths = (dryRun ? [] : [config.outputs.directory.appendingPathComponent("run-report.json").path]) + [arguments.value("--report")].compactMap({ $0 })
        return writeReport(JSONFile.fileBytes(report), "run report", to: paths, log: log, status: status)
    }

    /// `--shard I/N` or `--all`: the shard's catalogs, each into its own folder, and the shard's report.
    static func runShard(_ arguments: Arguments, format: RunLog.Format) async throws -> ExitStatus {
        let alone = ["--catalog", "--replay", "--source", "--system", "--out", "--color"].filter { arguments.value($0) != nil }
            + ["--dry-run", "--accept-removals"].filter(arguments.has)
        guard alone.isEmpty else { throw UsageError(message: "\(alone[0]) is for one catalog; a shard runs each of its catalogs as configured") }
        let (index, count) = try shardArgument(arguments)
        let config = try loadConfiguration(arguments.value("--config") ?? "pipeline.json")
        guard let now = RunClock.now() else {
            throw UsageError(message: "\(RunClock.variable) must be a whole number of seconds since 1970 before the year 10000")
        }
        let plan = ShardPlan(catalogs: config.catalogs, settings: config.fetch, pages: ShardPlan.lastPageCounts(config), count: count)
        let run = ShardRun(config: config, shard: plan.shards[index], count: count, now: now, logFormat: format) {
            ($0.map(ExitStatus.init) ?? .ok).rawValue
        }
        let report = await run.execute { ExitStatus.mostUrgent($0.map { ExitStatus(rawValue: $0) ?? .temporaryFailure }).rawValue }
        let status = ExitStatus(rawValue: report.exitStatus ?? 0) ?? .temporaryFailure
        return writeReport(JSONFile.fileBytes(report), "shard report", to: [arguments.value("--report")].compactMap { $0 },
                           log: RunLog(format: format), status: status)
    }

    /// Writes a report to each path ("-": standard output, after what print has buffered); `status`, or 73 for a good
    /// run whose report could not be written, as what watches the runs reads the report.
    static func writeReport(_ bytes: Data, _ what: String, to paths: [String], log: RunLog, status: ExitStatus) -> ExitStatus {
        var status = status
        for path in paths {
            do {
                if path == "-" { fflush(nil); try FileHandle.standardOutput.write(contentsOf: bytes) } else { try AtomicFile.write(bytes, to: URL(fileURLWithPath: path)) }
            } catch {
                log.error("report", "cannot write the \(what): \(error.systemReason)")
                if status == .ok { status = .cannotCreate }
            }
        }
        return status
    }

    /// `--shard I/N` (I "index": JOB_COMPLETION_INDEX), or `--all` as 0/1.
    static func shardArgument(_ arguments: Arguments) throws(UsageError) -> (index: Int, count: Int) {
        guard let text = arguments.value("--shard") else { return (0, 1) }
        guard !arguments.has("--all") else { throw UsageError(message: "--all is --shard 0/1; give one of them") }
        var word = text
        if word.hasPrefix("index/") {
            guard let index = ProcessInfo.processInfo.environment["JOB_COMPLETION_INDEX"], !index.isEmpty else {
                throw UsageError(message: "--shard \(text) reads JOB_COMPLETION_INDEX, which is not set")
            }
            word = index + word.dropFirst("index".count)
        }
        guard let shard = ShardPlan.parseShard(word) else {
            throw UsageError(message: "--shard must be I/N with 0 ≤ I < N ≤ 10000, not '\(word)'")
        }
        return shard
    }
}
