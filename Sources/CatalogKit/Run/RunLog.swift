import Foundation

/// The run's log on stderr: lines for people, or one JSON object per line (`--log-format json`).
public final class RunLog: @unchecked Sendable {
    public enum Format: String, Sendable { case human, json }
    public enum Level: String, Sendable { case info, warning, error }

    public let format: Format
    private let lock = NSLock()
    private let write: @Sendable (String) -> Void
    private(set) public var warnings: [String] = []

    public init(format: Format, write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }) {
        self.format = format
        self.write = write
    }

    public func info(_ stage: String, _ message: String, _ fields: [String: JSONValue] = [:]) { log(.info, stage, message, fields) }

    public func warning(_ stage: String, _ message: String, _ fields: [String: JSONValue] = [:]) {
        lock.withLock { warnings.append("\(stage): \(message)") }
        log(.warning, stage, message, fields)
    }

    public func error(_ stage: String, _ message: String, _ fields: [String: JSONValue] = [:]) { log(.error, stage, message, fields) }

    private func log(_ level: Level, _ stage: String, _ message: String, _ fields: [String: JSONValue]) {
        let line: String
        switch format {
        case .human:
            let prefix = level == .info ? "" : "\(level.rawValue): "
            line = "gvingest run [\(stage)] \(prefix)\(message)"
        case .json:
            var object = fields
            object["time"] = .string(Timestamp.string(Date()))
            object["level"] = .string(level.rawValue)
            object["stage"] = .string(stage)
            object["message"] = .string(message)
            line = JSONValue.object(object).serialized(pretty: false)
        }
        lock.withLock { write(line) }
    }
}
