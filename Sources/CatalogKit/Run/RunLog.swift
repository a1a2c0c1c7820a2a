import Foundation
import Synchronization

/// The run's log on stderr: lines for people, or one JSON object per line (`--log-format json`).
public final class RunLog: Sendable {
    public enum Format: String, Sendable { case human, json }
    public enum Level: String, Sendable { case info, warning, error }

    public let format: Format
    /// The command whose log it is: "gvingest run [fetch] …".
    public let command: String
    /// The warnings so far; its lock also keeps lines from different threads whole.
    private let warningsSoFar = Mutex<[String]>([])

    public var warnings: [String] { warningsSoFar.withLock { $0 } }

    /// How the command line overrides what an error refuses (the flag that accepts the removals, say): the front end
    /// names its own flags; CatalogKit's messages say it only in words.
    private let remedyText: @Sendable (CatalogError.Remedy) -> String?

    public init(format: Format, command: String = "run", remedy: @escaping @Sendable (CatalogError.Remedy) -> String? = { _ in nil }) {
        self.format = format
        self.command = command
        self.remedyText = remedy
    }

    public func info(_ stage: String, _ message: String, _ fields: [String: JSONValue] = [:]) { log(.info, stage, message, fields) }

    public func warning(_ stage: String, _ message: String, _ fields: [String: JSONValue] = [:]) {
        warningsSoFar.withLock { $0.append("\(stage): \(message)") }
        log(.warning, stage, message, fields)
    }

    public func error(_ stage: String, _ message: String, _ fields: [String: JSONValue] = [:]) { log(.error, stage, message, fields) }

    /// An error, with what overrides it on the command line after it.
    public func error(_ stage: String, _ message: String, remedy: CatalogError.Remedy?, _ fields: [String: JSONValue] = [:]) {
        log(.error, stage, message + (remedy.flatMap(remedyText).map { " (\($0))" } ?? ""), fields)
    }

    private func log(_ level: Level, _ stage: String, _ message: String, _ fields: [String: JSONValue]) {
        let line: String
        switch format {
        case .human:
            let prefix = level == .info ? "" : "\(level.rawValue): "
            line = "gvingest \(command) [\(stage)] \(prefix)\(message)"
        case .json:
            let fixed: [String: JSONValue] = ["time": .string(Timestamp.string(Date())), "level": .string(level.rawValue),
                                              "stage": .string(stage), "message": .string(message)]
            line = JSONValue.object(fields.merging(fixed) { $1 }).serialized(pretty: false)
        }
        warningsSoFar.withLock { _ in FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }
}
