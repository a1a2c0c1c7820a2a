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
        switch command {
        case "run":
            status = await run(RunCommand.self, words)
        case "parse":
            status = await run(ParseCommand.self, words)
        case "config":
            status = await run(ConfigCommand.self, words)
        case "fetch":
            status = await run(FetchCommand.self, words)
        case "prereq":
            status = await run(PrereqCommand.self, words)
        case "diff":
            status = await run(DiffCommand.self, words)
        case "search":
            status = await run(SearchCommand.self, words)
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
            let hint = ["run", "parse", "fetch", "prereq", "diff", "search", "config", "help"].min { editDistance($0, command) < editDistance($1, command) }
                .flatMap { editDistance($0, command) <= 2 ? " (did you mean '\($0)'?)" : nil } ?? ""
            printError("gvingest: unknown command '\(command)'\(hint)\n\n\(usage)")
            status = .usage
        }
        exit(status.rawValue)
    }

    static func helpText(for command: String) -> String? {
        switch command {
        case "run": return RunCommand.help
        case "parse": return ParseCommand.help
        case "config": return ConfigCommand.help
        case "fetch": return FetchCommand.help
        case "prereq": return PrereqCommand.help
        case "diff": return DiffCommand.help
        case "search": return SearchCommand.help
        default: return nil
        }
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
protocol Command {
    static var name: String { get }
    static var help: String { get }
    static func run(_ words: [String]) async throws(UsageError) -> ExitStatus
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
