import CatalogKit
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Entry point: picks the command and maps its outcome to an exit status.
@main
struct GVIngest {
    static let version = GVIngestVersion.current

    /// Every command, once: dispatch, help, hints, completions and tests read this list.
    static let commands: [any Command.Type] = [RunCommand.self, ParseCommand.self, PrereqCommand.self, FetchCommand.self,
                                               DiffCommand.self, PublishCommand.self, SiteCommand.self, AnnounceCommand.self,
                                               SearchCommand.self, BackfillCommand.self, HistoryCommand.self, ConfigCommand.self,
                                               ShardsCommand.self, IndexCommand.self,
                                               CompletionsCommand.self,
                                               VersionCommand.self, HelpCommand.self]

    /// What gvingest does, after its name.
    static let about = "keeps a university's course catalog and its new-course news up to date."

    /// The statuses every command shares, for the overview, the docs and the man page.
    static let exitStatuses = """
    Exit status: 0 ok, 64 bad usage, 65 data error, 66 an input can't be read, 69 a source is
    unavailable, 73 an output can't be written, 75 a temporary failure worth retrying, 77 no
    credentials (publish); diff exits as diff(1) does: 0 same, 1 different, 2 trouble.
    """

    static var usage: String {
        let width = commands.map { $0.name.count }.max() ?? 0
        let list = commands.map { "  \($0.name.padding(toLength: width + 2, withPad: " ", startingAt: 0))\($0.summary)" }
        return """
        gvingest: \(about)

        Usage: gvingest <command> [options]
               gvingest --version | --help

        Commands:
        \(list.joined(separator: "\n"))

        Run 'gvingest <command> --help' for a command's options.
        \(exitStatuses)
        """
    }

    static func main() async {
        Supervisor.followParent()
        let words = CommandLine.arguments.dropFirst()
        guard let word = words.first else {
            printError(usage)
            exit(ExitStatus.usage.rawValue)
        }
        let command = ["--help": HelpCommand.name, "-h": HelpCommand.name, "--version": VersionCommand.name][word] ?? word
        guard let type = commands.first(where: { $0.name == command }) else {
            let hint = closestName(to: command, among: commands.map { $0.name }, within: 2).map { " (did you mean '\($0)'?)" } ?? ""
            let what = command.hasPrefix("-") ? "unknown option '\(command)'" : "unknown command '\(command)'"
            printError("gvingest: \(what)\(hint)\nUsage: gvingest <command> [options]\nSee 'gvingest help'.")
            exit(ExitStatus.usage.rawValue)
        }
        exit(await run(type, Array(words.dropFirst())).rawValue)
    }

    static func run<C: Command>(_ command: C.Type, _ words: [String]) async -> ExitStatus {
        // Only before a lone "--": after it, "--help" is a positional like any other.
        let options = words.prefix { $0 != "--" }
        if options.contains("--help") || options.contains("-h") {
            print(C.help)
            return .ok
        }
        if C.usesNetwork, Supervisor.isNeeded { return supervised(C.self, words) }
        do {
            return try await C.run(words)
        } catch {
            let (status, message) = ExitStatus.report(error, command: C.self)
            if status == .usage {
                // A usage mistake as people want to see it: the one line that matters, the synopsis, where to read more.
                printError("gvingest \(C.name): \(message)\n\(C.synopsis)\nSee 'gvingest \(C.name) --help'.")
            } else if (try? C.parseArguments(words))?.value("--log-format") == "json" {  // a log read by machines stays JSON
                RunLog(format: .json).error(C.name, message)
            } else {
                printError("gvingest \(C.name): \(message)")
            }
            return status
        }
    }
}

extension GVIngest {
    /// Runs a command that reaches the network in a child that is restarted after FoundationNetworking's crash.
    static func supervised<C: Command>(_ command: C.Type, _ words: [String]) -> ExitStatus {
        let json = (try? C.parseArguments(words))?.value("--log-format") == "json"
        func say(_ message: String, error: Bool) {
            if json {
                error ? RunLog(format: .json).error(C.name, message) : RunLog(format: .json).warning(C.name, message)
            } else {
                printError("gvingest \(C.name): \(message)")
            }
        }
        let crash = "FoundationNetworking stopped gvingest (signal %d) on a connection that ended without a response "
            + "(swift-corelibs-foundation issue 5285)"
        let outcome = Supervisor.run(arguments: [C.name] + words) { signal, inFlight in
            say(String(format: crash, signal) + "; starting again, the \(inFlight.count) request(s) in flight one at a time: "
                + inFlight.sorted().joined(separator: ", "), error: false)
        }
        switch outcome {
        case let .exited(code):
            return ExitStatus(rawValue: code) ?? .temporaryFailure
        case let .crashed(signal, restarts):
            say(String(format: crash, signal) + (restarts > 0 ? " after \(restarts) restart(s)" : "") + "; try again later",
                error: true)
            return .temporaryFailure
        case let .crashedInStage(stage, signal, report):
            let status = RunReport.recordCrash(in: report, stage: stage, signal: signal) { ($0.map(ExitStatus.init) ?? .ok).rawValue }
            // Not necessarily FoundationNetworking's crash: nothing after the commit uses it any more.
            say("the \(stage) stage stopped with signal \(signal), after the outputs were written; \(report.path) says so", error: true)
            return ExitStatus(rawValue: status) ?? .temporaryFailure
        case let .stopped(signal):
            // Ended the way the child was, so whoever started gvingest sees the signal itself.
            Glibc.signal(signal, SIG_DFL)
            kill(getpid(), signal)
            exit(128 + signal)
        }
    }
}

/// A subcommand: what it accepts, declared once (see `CommandOption`), its prose, and what it does with its words.
protocol Command: Sendable {
    static var name: String { get }
    /// One line for `gvingest help`'s list of commands.
    static var summary: String { get }
    /// The options it accepts, `--help` aside: the parser, help, completions and docs read these.
    static var options: [CommandOption] { get }
    /// The forms of its synopsis; one with every option when empty.
    static var usages: [Usage] { get }
    /// What it does, in paragraphs of hand-wrapped lines; lines starting with two spaces are shown as written.
    static var discussion: String { get }
    /// "Exit status: 0 ok, …": what each status means for this command.
    static var exitStatus: String { get }
    static var usesNetwork: Bool { get }
    /// Throws a `UsageError` for a usage mistake, a `CommandFailure` for any other end short of the status it returns.
    static func run(_ words: [String]) async throws -> ExitStatus
}

extension Command {
    static var options: [CommandOption] { [] }
    static var usages: [Usage] { [] }
    /// Whether it makes requests through FoundationNetworking (and so runs supervised, `Supervisor`).
    static var usesNetwork: Bool { false }

    static func parseArguments(_ words: [String]) throws(UsageError) -> Arguments {
        try Arguments(words, options: options)
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
