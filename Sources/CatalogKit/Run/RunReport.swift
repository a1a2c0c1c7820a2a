import Foundation

/// What one run did, stage by stage: written as `report.json` beside the outputs.
public struct RunReport: Sendable {
    public var catalog: String
    public var startedAt: String
    /// Each stage as the report has it: its name, seconds and counts, in the order they ran.
    public var stages: [JSONValue] = []
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
        let seconds = ProcessInfo.processInfo.systemUptime - began
        stages.append(.object(["name": .string(name), "seconds": .double((seconds * 1000).rounded() / 1000),
                               "counts": .object(counts.mapValues(JSONValue.int))]))
        return value
    }

    public var json: JSONValue {
        .object([
            "catalog": .string(catalog), "startedAt": .string(startedAt), "outcome": .string(outcome),
            "exitStatus": .int(Int(exitStatus)), "warnings": .array(warnings.map(JSONValue.string)),
            "parseGaps": .array(parseGaps.map(\.json)),
            "unfetchedAtDeadline": .array(unfetchedAtDeadline.map(JSONValue.string)),
            "stages": .array(stages),
        ])
    }
}
