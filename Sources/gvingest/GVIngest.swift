import CatalogKit
import Foundation

/// Entry point: picks the command and maps its outcome to an exit status.
@main
struct GVIngest {
    static let usage = """
    gvingest: keeps a university's course catalog and its new-course news up to date.

    Usage: gvingest <command> [options]

    Commands:
      run       Run every stage: fetch, parse, normalize, diff, announce, publish (the scheduled job).
      parse     Parse saved catalog pages or URLs and show what each field came from.
      prereq    Show how a prerequisite sentence is read, as a tree.
      fetch     Crawl a catalog (or replay a recorded one), recording it as a mirror if asked.
      diff      Compare two snapshots or catalogs: added, removed, renumbered and changed courses.
      search    Find courses in a published catalog.json by code, title or description, with filters.
      config    Validate a pipeline configuration (gvingest config check [FILE]).
      help      Show help for a command (gvingest help parse).

    Run 'gvingest <command> --help' for a command's options.
    Exit status: 0 ok, 64 bad usage, 65 data error, 66 an input can't be read, 69 a source is
    unavailable, 73 an output can't be written, 75 a temporary failure worth retrying; diff exits
    as diff(1) does: 0 same, 1 different, 2 trouble.
    """

    static func main() async {
        var words = Array(CommandLine.arguments.dropFirst())
        guard let command = words.first else {
            printError(usage)
            exit(ExitStatus.usage.rawValue)
        }
        words.removeFirst()
        let status: ExitStatus
        if let type = commands.first(where: { $0.name == command }) {
            exit(await run(type, words).rawValue)
        }
        switch command {
        case "help", "--help", "-h":
            if let topic = words.first, let help = helpText(for: topic) {
                print(help)
                status = .ok
            } else if let topic = words.first {
                printError("gvingest: no help for '\(topic)'\n\n\(usage)")
                status = .usage
            } else {
                print(usage)
                status = .ok
            }
        default:
            let hint = (commands.map { $0.name } + ["help"]).min { editDistance($0, command) < editDistance($1, command) }
                .flatMap { editDistance($0, command) <= 2 ? " (did you mean '\($0)'?)" : nil } ?? ""
            printError("gvingest: unknown command '\(command)'\(hint)\n\n\(usage)")
            status = .usage
        }
        exit(status.rawValue)
    }

    /// Every command, once: dispatch, help and the did-you-mean hint all read this list.
    static let commands: [any Command.Type] = [RunCommand.self, ParseCommand.self, ConfigCommand.self, FetchCommand.self,
                                               PrereqCommand.self, DiffCommand.self, SearchCommand.self]

    static func helpText(for command: String) -> String? {
        commands.first { $0.name == command }?.help
    }

    static func run<C: Command>(_ command: C.Type, _ words: [String]) async -> ExitStatus {
        if words.contains("--help") || words.contains("-h") {
            print(C.help)
            return .ok
        }
        do {
            return try await C.run(words)
        } catch {
            printError("gvingest \(C.name): \(error.message)\n\n\(C.help)")
            return .usage
        }
    }
}

/// A subcommand: its help text and what it does with its words.
protocol Command: Sendable {
    static var name: String { get }
    static var help: String { get }
    static func run(_ words: [String]) async throws(UsageError) -> ExitStatus
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
