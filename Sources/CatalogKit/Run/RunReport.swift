import Foundation

/// What one run did, stage by stage: written as `run-report.json` beside the outputs.
public struct RunReport: Sendable, Codable {
    /// One stage: its name, how long it took, and what it counted.
    public struct Stage: Sendable, Codable {
        public var name: String
        public var seconds: Double
        public var counts: [String: Int]
    }

    public var catalog: String
    public var startedAt: String
    /// The stages in the order they ran.
    public var stages: [Stage] = []

    /// The stage that checks the guards and writes the outputs and the snapshot (`NewsPipeline.commit`); a report
    /// without it belongs to a run that wrote nothing.
    public static let commitStage = "commit"
    /// The commit stage's name in reports written before it was named for what it does (announcing and publishing
    /// into Firestore were always later stages).
    static let formerCommitStage = "diff+announce+publish"

    /// Whether the run that wrote this report wrote its outputs.
    public var committed: Bool { stages.contains { $0.name == Self.commitStage || $0.name == Self.formerCommitStage } }
    public var warnings: [String] = []
    /// Pages fetched but not read, each with its URL and why.
    public var parseGaps: [ParseGap] = []
    /// "ok", "no changes", or why the run stopped.
    public var outcome = "ok"
    public var exitStatus: Int32 = 0
    /// The pages a crawl stopped at its deadline did not get (the log says only how many).
    public var unfetchedAtDeadline: [String] = []
    /// Pages that could not be fetched (the deadline's aside), each with its URL and why.
    public var failedPages: [FailedPage] = []
    /// The channels that still lack news after the announce stage, and why (nil: no channel configured).
    public var pendingDeliveries: [ChannelReport]?
    /// The stage after the commit under way when this report was written: a report with it was left by a run that
    /// stopped in that stage (its outputs stand).
    public var stageUnderWay: String?
    /// With `stageUnderWay`: why an earlier stage after the commit failed (nil: none did).
    public var causeSoFar: CatalogError.Cause?

    public struct FailedPage: Sendable, Codable, Equatable {
        public var url: String
        public var reason: String
    }

    public init(catalog: String, startedAt: String) {
        self.catalog = catalog
        self.startedAt = startedAt
    }

    /// Finishes the report a run left before `stage`, which crashed: it says so, and the run's status is "retry"
    /// only when what crashed is still to do. Announcing is not: the outbox keeps what was not delivered for the next
    /// run or `gvingest announce`, so a crash there leaves the status the run had (as a channel that is down does).
    /// - Returns: the exit status, `exitStatus` of the cause (nil: none).
    public static func recordCrash(in file: URL, stage: String, signal: Int32,
                                   exitStatus: (CatalogError.Cause?) -> Int32) -> Int32 {
        guard var report = try? JSONFile.decode(RunReport.self, from: FileBytes.read(file, limit: FileBytes.Limit.document)),
              report.stageUnderWay == stage else { return exitStatus(.temporary) }
        let announcing = stage == "announce"
        report.exitStatus = exitStatus(announcing ? report.causeSoFar : .temporary)
        report.stageUnderWay = nil
        report.causeSoFar = nil
        report.stages.append(Stage(name: stage, seconds: 0, counts: [:]))
        report.outcome += "; the \(stage) stage crashed (signal \(signal)): the outputs stand, "
            + (announcing ? "what it did not deliver stays pending" : "it is to be run again")
        report.warnings.append("\(stage): crashed (signal \(signal))")
        try? AtomicFile.write(JSONFile.fileBytes(report), to: file)
        return report.exitStatus
    }

    /// Times a stage and records its counts.
    public mutating func stage<T, Failure: Error>(_ name: String, _ work: () async throws(Failure) -> (T, [String: Int])) async throws(Failure) -> T {
        let began = ProcessInfo.processInfo.systemUptime
        let (value, counts) = try await work()
        let seconds = ProcessInfo.processInfo.systemUptime - began
        stages.append(Stage(name: name, seconds: (seconds * 1000).rounded() / 1000, counts: counts))
        return value
    }
}
