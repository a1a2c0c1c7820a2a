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
    ]
    static let usages = [
        Usage(optional: ["--config", "--catalog", "--replay", "--dry-run", "--accept-removals", "--log-format", "--report",
                         "--quiet", "--color"]),
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
        var status = outcome.cause.map(ExitStatus.init) ?? .ok
        report.exitStatus = status.rawValue
        report.warnings = log.warnings
        // The outputs' report is the one `publish` checks; --report's copy is also written after a dry run, which
        // writes nothing else ("-": after the dry run's diff, still in print's buffer).
        let bytes = JSONFile.fileBytes(report)
        for path in (dryRun ? [] : [config.outputs.directory.appendingPathComponent("run-report.json").path]) + [arguments.value("--report")].compactMap({ $0 }) {
            do {
                if path == "-" { fflush(nil); try FileHandle.standardOutput.write(contentsOf: bytes) } else { try AtomicFile.write(bytes, to: URL(fileURLWithPath: path)) }
            } catch {
                log.error("report", "cannot write the run report: \(error.systemReason)")
                if status == .ok { status = .cannotCreate }  // what watches the runs reads the report
            }
        }
        return status
    }
}
