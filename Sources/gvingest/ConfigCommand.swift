import CatalogKit
import Foundation

/// `gvingest config check`: validates a pipeline configuration and says everything wrong with it.
enum ConfigCommand: Command {
    static let name = "config"
    static let summary = "Validate a pipeline configuration (gvingest config check [FILE])."
    static let usages = [Usage(before: "check [FILE]")]
    static let discussion = """
    Validates a pipeline configuration (default: pipeline.json in the current directory) and lists
    every problem with its JSON path and the form expected there, e.g.
      catalogs[0].system: expected one of \(CatalogSystem.allCases.map(\.rawValue).joined(separator: ", ")), got "peoplesoft"
    Unknown keys are rejected with a did-you-mean suggestion; paths must stay inside the
    configuration's directory; every integer setting must be within its range, e.g.
      fetch.concurrency: expected an integer from 1 to 256, got 9223372036854775807

    Warns (exit status 0) where a subject the configuration or the latest snapshot uses has no
    name: normalize.subjects names one by mapping the name to the code.
    """
    static let exitStatus = "Exit status: 0 valid, 65 invalid, 66 the file can't be read, 64 bad usage."

    static func run(_ words: [String]) async throws -> ExitStatus {
        let arguments = try parseArguments(words)
        guard arguments.positional.first == "check" else {
            throw UsageError(message: arguments.positional.isEmpty ? "name a subcommand: check" : "unknown subcommand '\(arguments.positional[0])'")
        }
        guard arguments.positional.count <= 2 else { throw UsageError(message: "check takes at most one file") }
        let path = arguments.positional.count == 2 ? arguments.positional[1] : "pipeline.json"
        let config = try loadConfiguration(path)
        let catalogs = listed(config.catalogs.map { "\($0.id) (\($0.system.rawValue))" })
        let firestore = config.firestore.map { "; publishes into Firestore project \($0.project) (\($0.database): \($0.coursesCollection), \($0.newsCollection))" } ?? ""
        let announce = config.announce.map { "; announces to " + listed($0.channels.map { "\($0.name) (\($0.kind.rawValue))" }) } ?? ""
        print("\(path): valid; catalogs: \(catalogs)\(firestore)\(announce)")
        let (used, named) = config.subjectsInSnapshots()
        let unnamed = config.unnamedSubjects(seen: used, named: named)
        if !unnamed.isEmpty {
            printError("gvingest config: warning: \(unnamed.count) subject(s) have no name for the site and messages, e.g. "
                + "\"Computer Science\": \"COSC\" in normalize.subjects: \(unnamed.prefix(30).joined(separator: ", "))\(unnamed.count > 30 ? ", …" : "")")
        }
        return .ok
    }

    /// The first ten, then how many more: a file of 200,000 channels is checked in one line, not 5 MB of names.
    static func listed(_ items: [String]) -> String {
        items.prefix(10).joined(separator: ", ") + (items.count > 10 ? " and \(items.count - 10) more" : "")
    }
}
