import Foundation

/// What a shard's run did: each catalog's outcome, written as `shard-report.json` after every catalog, so a worker
/// started again after it was stopped goes on where it was.
public struct ShardReport: Sendable, Codable, Equatable {
    public struct Entry: Sendable, Codable, Equatable {
        public var id: String
        /// The politeness key it was crawled under.
        public var key: String
        public var outcome: String
        public var exitStatus: Int32
        public var startedAt: String
        public var seconds: Double
    }

    /// "I/N".
    public var shard: String
    public var startedAt: String
    /// Set when every catalog of the shard has run; until then a new attempt resumes this one.
    public var finishedAt: String?
    public var exitStatus: Int32?
    public var catalogs: [Entry] = []
    /// When this attempt went on from an interrupted one, that one's start.
    public var resumedFrom: String?
    /// The keys and catalogs the shard was given. An attempt that goes on keeps the interrupted one's: the other shards'
    /// snapshots written since would weigh the catalogs otherwise, and move some from shard to shard.
    public var plan: [ShardPlan.Group] = []
}

/// Runs one shard's catalogs: one at a time within a politeness key, sharing one gate so the delay holds between
/// them, one request at a time and the delay counted from each response, so that the server sees it; keys side by
/// side up to `fetch.maxConcurrentHosts`. Each catalog runs as `gvingest run --catalog` would, with
/// the outputs, lock, guards and report of its own (`PipelineConfig.scoped(to:)`).
public struct ShardRun: Sendable {
    public var config: PipelineConfig
    public var shard: ShardPlan.Shard
    public var count: Int
    public var now: Date
    public var logFormat: RunLog.Format
    /// A catalog's exit status from how its run ended (nil: it did what it was asked).
    public var status: @Sendable (CatalogError.Cause?) -> Int32
    /// An interrupted attempt younger than this is resumed; an older one was abandoned, and the shard starts afresh.
    public static let resumeWindow: TimeInterval = 12 * 3600

    public init(config: PipelineConfig, shard: ShardPlan.Shard, count: Int, now: Date, logFormat: RunLog.Format,
                status: @escaping @Sendable (CatalogError.Cause?) -> Int32) {
        self.config = config
        self.shard = shard
        self.count = count
        self.now = now
        self.logFormat = logFormat
        self.status = status
    }

    /// `<outputs.directory>/shards/I-of-N/shard-report.json`: beside the catalogs' folders, one file a shard, so
    /// workers sharing a volume never write one file.
    public static func reportFile(outputs: OutputSettings, index: Int, count: Int) -> URL {
        outputs.directory.appendingPathComponent("shards/\(index)-of-\(count)/shard-report.json")
    }

    /// Runs the shard; `finish` picks the shard's exit status from its catalogs'. The report is written after each
    /// catalog and at the end; a report that cannot be written is logged and the catalogs still run.
    public func execute(finish: @Sendable ([Int32]) -> Int32) async -> ShardReport {
        let log = RunLog(format: logFormat)
        let file = Self.reportFile(outputs: config.outputs, index: shard.index, count: count)
        var report = ShardReport(shard: "\(shard.index)/\(count)", startedAt: Timestamp.string(Date()), plan: shard.groups)
        if let earlier = try? JSONFile.decode(ShardReport.self, from: Data(contentsOf: file)), earlier.finishedAt == nil,
           let began = Timestamp.date(earlier.startedAt), Date().timeIntervalSince(began) < Self.resumeWindow {
            // Only outcomes a new attempt would not change are kept: one worth retrying (75) runs again.
            report.plan = earlier.plan
            let planned = Set(earlier.plan.flatMap(\.catalogs))
            report.catalogs = earlier.catalogs.filter { $0.exitStatus != status(.temporary) && planned.contains($0.id) }
            report.resumedFrom = earlier.resumedFrom ?? earlier.startedAt
            log.info("shard", "going on from the attempt of \(report.resumedFrom ?? "") that stopped: "
                     + "\(report.catalogs.count) catalog(s) already ran and are not run again")
        }
        if report.resumedFrom != nil {
            // The interrupted attempt may have made a request a moment ago; a gate of this process does not know it.
            try? await Task.sleep(nanoseconds: UInt64(config.fetch.minimumDelayMilliseconds) * 1_000_000)
        }
        let progress = ShardProgress(report: report, file: file, log: log)
        await progress.save()
        let done = Set(report.catalogs.map(\.id))
        let catalogs = Dictionary(config.catalogs.map { ($0.id, $0) }) { first, _ in first }
        let groups = report.plan.map { group in (group.key, group.catalogs.filter { !done.contains($0) }.compactMap { catalogs[$0] }) }
            .filter { !$0.1.isEmpty }
        log.info("shard", "shard \(shard.index)/\(count): \(groups.map(\.1.count).reduce(0, +)) catalog(s) under \(groups.count) "
                 + "politeness key(s), \(min(groups.count, config.fetch.maximumConcurrentHosts)) at a time")
        await withTaskGroup(of: Void.self) { tasks in
            var pending = groups[...]
            func startNext() {
                guard let (key, members) = pending.popFirst() else { return }
                tasks.addTask {
                    let gate = ConcurrencyGate(settings: config.fetch, spacedFromResponses: true)
                    for catalog in members {
                        await progress.record(runOne(catalog, key: key, gate: gate))
                    }
                }
            }
            for _ in 0..<config.fetch.maximumConcurrentHosts { startNext() }
            for await _ in tasks { startNext() }
        }
        return await progress.finish(finish)
    }

    /// One catalog, as `gvingest run --catalog ID` runs it, into its own outputs.
    private func runOne(_ catalog: CatalogConfig, key: String, gate: ConcurrencyGate) async -> ShardReport.Entry {
        let scoped = config.scoped(to: catalog)
        let log = RunLog(format: logFormat, command: "run \(catalog.id)")
        let began = ProcessInfo.processInfo.systemUptime
        var report = RunReport(catalog: catalog.id, startedAt: Timestamp.string(now))
        func entry(_ outcome: String, _ exitStatus: Int32) -> ShardReport.Entry {
            let seconds = ((ProcessInfo.processInfo.systemUptime - began) * 1000).rounded() / 1000
            return ShardReport.Entry(id: catalog.id, key: key, outcome: outcome, exitStatus: exitStatus,
                                     startedAt: Timestamp.string(Date()), seconds: seconds)
        }
        let lock: RunLock
        do throws(CatalogError) {
            lock = try RunLock(directory: scoped.outputs.directory)
        } catch {
            log.error("lock", "\(error)")
            return entry("\(error)", status(error.cause))
        }
        var run = CatalogRun(catalog: catalog, config: scoped, now: now)
        run.gate = gate
        let outcome = await run.execute(log: log, report: &report)
        var exitStatus = status(outcome.cause)
        report.exitStatus = exitStatus
        report.warnings = log.warnings
        do {
            try AtomicFile.write(JSONFile.fileBytes(report), to: scoped.outputs.directory.appendingPathComponent("run-report.json"))
        } catch {
            log.error("report", "cannot write the run report: \(error.systemReason)")
            if outcome.cause == nil { exitStatus = status(.cannotWrite) }
        }
        withExtendedLifetime(lock) {}
        return entry(report.outcome, exitStatus)
    }
}

/// The shard's report as catalogs finish, written after each.
private actor ShardProgress {
    var report: ShardReport
    let file: URL
    let log: RunLog

    init(report: ShardReport, file: URL, log: RunLog) {
        self.report = report
        self.file = file
        self.log = log
    }

    func record(_ entry: ShardReport.Entry) {
        report.catalogs.append(entry)
        save()
    }

    func finish(_ status: ([Int32]) -> Int32) -> ShardReport {
        report.finishedAt = Timestamp.string(Date())
        report.exitStatus = status(report.catalogs.map(\.exitStatus))
        report.catalogs.sort { $0.id < $1.id }
        save()
        return report
    }

    func save() {
        do {
            try AtomicFile.write(JSONFile.fileBytes(report), to: file)
        } catch {
            log.error("shard", "cannot write the shard report \(file.path): \(error.systemReason)")
        }
    }
}
