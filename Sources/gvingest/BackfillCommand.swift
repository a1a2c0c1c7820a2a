import CatalogKit
import Foundation

/// `gvingest backfill`: a catalog's archived editions, oldest first, into its snapshot history.
enum BackfillCommand: Command {
    static let name = "backfill"
    static let usesNetwork = true
    static let summary = "Build a catalog's history from its archived editions, oldest first (first editions, timelines)."
    static let options: [CommandOption] = [
        .configuration,
        .catalogID,
        .option("--date", "LABEL=YYYY-MM-DD", "The date of one edition.", repeatable: true),
        .flag("--rebuild", "Set the existing history aside and start again."),
        .logFormat,
    ]
    static let usages = [Usage(after: "LABEL=SOURCE...")]
    static let discussion = """
    Runs the catalog's archived editions, oldest first, into its snapshot history: each EDITION is
    LABEL=SOURCE, a label such as 2021-2022 and any source `run` accepts (an http(s) URL, a mirror
    folder, a folder of pages). Each edition's snapshot is dated by --date LABEL=YYYY-MM-DD, or else
    1 August of the label's first year (UTC). Every course gets firstEdition, the label of the first
    edition it appears in (renumberings followed back), createdAt from that edition's date, and a
    history: added, renumbered from a code, fields changed, removed and returned. Nothing is announced,
    published to Firestore or rendered as the site; catalog.json is written as a run writes it. The
    next `gvingest run` goes on from the newest edition as if it had run all along.

    A backfill cut short (killed, a source down) goes on after the last edition it finished when run
    again with the same editions; a list naming an edition that never ran before that one is refused.
    A history holding other snapshots is refused unless --rebuild, which renames the catalog's
    snapshot folder to <catalog>.before-backfill-<time> (never deleted) and keeps the announcements
    still pending (outbox.json) for the next run.
    """
    static let exitStatus = """
    Exit status: 0 every edition done, 64 bad usage, 65 a history that is not this backfill's (see
    --rebuild) or an edition refused, 66 the configuration can't be read, 69 a source is unavailable,
    73 an output can't be written, 75 a temporary failure (run it again: it goes on where it stopped).
    """

    static func run(_ words: [String]) async throws -> ExitStatus {
        let arguments = try parseArguments(words)
        guard !arguments.positional.isEmpty else { throw UsageError(message: "name the editions, oldest first, as LABEL=SOURCE") }
        let format = try arguments.value("--log-format", "must be human or json", RunLog.Format.init) ?? .human
        let log = RunLog(format: format, command: name) { ExitStatus.remedy($0, command: Self.self) }
        let (_, config, catalog) = try configuredCatalog(arguments)
        var dates: [String: Date] = [:]
        for word in arguments.values["--date", default: []] {
            let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let date = Timestamp.date(parts[1] + "T00:00:00Z") else {
                throw UsageError(message: "--date takes LABEL=YYYY-MM-DD, not '\(word)'")
            }
            dates[parts[0]] = date
        }
        var editions: [Backfill.Edition] = []
        for word in arguments.positional {
            let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else { throw UsageError(message: "an edition is LABEL=SOURCE, not '\(word)'") }
            guard !editions.contains(where: { $0.label == parts[0] }) else { throw UsageError(message: "edition \(parts[0]) is named twice") }
            guard let date = dates[parts[0]] ?? Backfill.Edition.defaultDate(label: parts[0]) else {
                throw UsageError(message: "edition \(parts[0]): its label starts with no year; give --date \(parts[0])=YYYY-MM-DD")
            }
            if let last = editions.last, date <= last.date {
                throw UsageError(message: "edition \(parts[0]) is not dated after \(last.label): give the editions oldest first")
            }
            editions.append(Backfill.Edition(label: parts[0], source: try SourceRun.catalogSource(parts[1], named: word).0, date: date))
        }
        if let unused = Set(dates.keys).subtracting(editions.map(\.label)).sorted().first {
            throw UsageError(message: "--date \(unused): no edition has that label")
        }

        if let link = CatalogRun.plantedLink(config: config, catalogID: catalog.id) {
            log.error("outputs", "\(CatalogRun.linkRefused(link))")
            return .cannotCreate
        }
        let lock: RunLock
        do throws(CatalogError) {
            lock = try RunLock(directory: config.outputs.directory)
        } catch {
            let (status, message) = ExitStatus.report(error, command: Self.self)
            log.error("lock", message)
            return status
        }
        defer { withExtendedLifetime(lock) {} }
        var backfill = Backfill(catalog: catalog, config: config, editions: editions)
        backfill.rebuild = arguments.has("--rebuild")
        let outcome = await backfill.execute(log: log) { index, edition in
            log.info("backfill", "edition \(index + 1) of \(editions.count): \(edition.label) (\(Timestamp.string(edition.date).prefix(10)))")
        }
        switch outcome {
        case let .done(ran, skipped, _):
            let resumed = skipped.isEmpty ? "" : " (\(skipped.count) done before: \(skipped.joined(separator: ", ")))"
            log.info("backfill", "\(ran.count) edition(s) run\(resumed); `gvingest history COURSE` shows a course's timeline")
            return .ok
        case let .refused(error):
            let (status, message) = ExitStatus.report(error, command: Self.self)
            log.error("backfill", message)
            return status
        case let .stopped(label, outcome):
            log.error("backfill", "stopped at edition \(label); run the same command again to go on from there")
            return outcome.cause.map(ExitStatus.init) ?? .temporaryFailure
        }
    }
}
