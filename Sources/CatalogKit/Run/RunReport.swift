import Foundation

/// What one run did, stage by stage: written as `report.json` beside the outputs.
public struct RunReport: Sendable {
    public struct Stage: Sendable {
        public var name: String
        public var seconds: Double
        public var counts: [String: Int]
    }

    public var catalog: String
    public var startedAt: String
    public var stages: [Stage] = []
    public var warnings: [String] = []
    /// Pages fetched but not read, each with its URL and why.
    public var parseGaps: [ParseGap] = []
    /// "ok", "no changes", or why the run stopped.
    public var outcome = "ok"
    public var exitStatus: Int32 = 0
    /// The pages a crawl stopped at its deadline did not get (the log says only how many).
    public var unfetchedAtDeadline: [String] = []

    public init(catalog: String, startedAt: String) {
        self.catalog = catalog
        self.startedAt = startedAt
    }

    /// Times a stage and records its counts.
    public mutating func stage<T, Failure: Error>(_ name: String, _ work: () async throws(Failure) -> (T, [String: Int])) async throws(Failure) -> T {
        let began = ProcessInfo.processInfo.systemUptime
        let (value, counts) = try await work()
        stages.append(Stage(name: name, seconds: ProcessInfo.processInfo.systemUptime - began, counts: counts))
        return value
    }

    public var json: JSONValue {
        .object([
            "catalog": .string(catalog), "startedAt": .string(startedAt), "outcome": .string(outcome),
            "exitStatus": .int(Int(exitStatus)), "warnings": .array(warnings.map(JSONValue.string)),
            "parseGaps": .array(parseGaps.map(\.json)),
            "unfetchedAtDeadline": .array(unfetchedAtDeadline.map(JSONValue.string)),
            "stages": .array(stages.map { stage in
                .object(["name": .string(stage.name), "seconds": .double((stage.seconds * 1000).rounded() / 1000),
                         "counts": .object(stage.counts.mapValues(JSONValue.int))])
            }),
        ])
    }
}
