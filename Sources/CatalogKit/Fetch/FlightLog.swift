import Foundation
import Synchronization

/// The requests a supervised child (`Supervisor`) has in flight, appended to a file its parent reads after a crash.
/// FoundationNetworking stops the process when a server sends a status line and closes (swift-corelibs-foundation
/// issue 5285); the log tells the next child which URLs were in flight then: one crash is a strike, a URL with a
/// strike is fetched alone, and a URL with two is not fetched again.
final class FlightLog: Sendable {
    static let environmentKey = "GVINGEST_FLIGHT_LOG"
    static let crashLine = "crash"

    /// The log the supervising parent named, when this process is its child.
    static let current: FlightLog? = ProcessInfo.processInfo.environment[environmentKey].flatMap(FlightLog.init(path:))

    private let descriptor: Int32
    private let strikes: [String: Int]

    init?(path: String) {
        let contents = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        strikes = Self.replay(contents).strikes
        descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
    }

    /// Each URL's crashes (how many crash lines found it started and not ended), and what is in flight at the end.
    static func replay(_ log: String) -> (strikes: [String: Int], inFlight: Set<String>) {
        var inFlight: [String: Int] = [:], strikes: [String: Int] = [:]
        for line in log.split(separator: "\n") {
            if line == crashLine {
                for url in inFlight.keys { strikes[url, default: 0] += 1 }
                inFlight = [:]
            } else if line.hasPrefix("start\t") {
                inFlight[String(line.dropFirst(6)), default: 0] += 1
            } else if line.hasPrefix("end\t") {
                let url = String(line.dropFirst(4))
                inFlight[url] = inFlight[url].flatMap { $0 > 1 ? $0 - 1 : nil }
            }
        }
        return (strikes, Set(inFlight.keys))
    }

    func strikes(for url: URL) -> Int { strikes[url.absoluteString, default: 0] }

    /// A run's stage after its commit begins (nil: it ended), with the report that says so: after a crash in it, the
    /// parent finishes that report (`RunReport.recordCrash`).
    func mark(stage: String?, report: URL) {
        append(stage.map { "stage\t\($0)\t\(report.path)\n" } ?? "stage-end\n")
    }

    /// The stage under way when the log ended, and its report.
    static func stageUnderWay(_ log: String) -> (stage: String, report: URL)? {
        var underWay: (String, URL)?
        for line in log.split(separator: "\n") where line.hasPrefix("stage") {
            let fields = line.split(separator: "\t", maxSplits: 2).map(String.init)
            underWay = fields.count == 3 && fields[0] == "stage" ? (fields[1], URL(fileURLWithPath: fields[2])) : nil
        }
        return underWay
    }

    /// Runs `request` logged as in flight; a single write(2) a line, which a crash cannot split.
    func flight<T>(_ url: URL, _ request: () async -> T) async -> T {
        append("start\t\(url.absoluteString)\n")
        let result = await request()
        append("end\t\(url.absoluteString)\n")
        return result
    }

    private func append(_ line: String) {
        var line = line
        _ = line.withUTF8 { write(descriptor, $0.baseAddress, $0.count) }
    }
}
