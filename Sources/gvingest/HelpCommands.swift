import CatalogKit
import Foundation

/// `gvingest help [COMMAND]`: the overview, or one command's help.
enum HelpCommand: Command {
    static let name = "help"
    static let summary = "Show help for a command (gvingest help parse)."
    static let help = """
    Usage: gvingest help [COMMAND]

    Prints the list of commands, or COMMAND's help (the same as 'gvingest COMMAND --help').
    Exit status: 0 ok, 64 no such command.
    """

    static func run(_ words: [String]) async throws -> ExitStatus {
        let arguments = try parseArguments(words)
        guard arguments.positional.count <= 1 else { throw UsageError(message: "name one command") }
        guard let topic = arguments.positional.first else {
            print(GVIngest.usage)
            return .ok
        }
        guard let command = GVIngest.commands.first(where: { $0.name == topic }) else {
            throw UsageError(message: "no command '\(topic)'; the commands are \(GVIngest.commands.map { $0.name }.joined(separator: ", "))")
        }
        print(command.help)
        return .ok
    }
}

/// `gvingest version` (or `gvingest --version`).
enum VersionCommand: Command {
    static let name = "version"
    static let summary = "Print gvingest's version (also gvingest --version)."
    static let help = """
    Usage: gvingest version
           gvingest --version

    Prints "gvingest VERSION" on stdout. Exit status: 0 ok, 64 bad usage.
    """

    static func run(_ words: [String]) async throws -> ExitStatus {
        let arguments = try parseArguments(words)
        guard arguments.positional.isEmpty else { throw UsageError(message: "unexpected argument '\(arguments.positional[0])'") }
        print("gvingest \(GVIngest.version)")
        return .ok
    }
}

/// `gvingest completions bash|zsh|fish`: made from the lists the parser reads, so it cannot fall behind.
enum CompletionsCommand: Command {
    static let name = "completions"
    static let summary = "Print a shell completion script (gvingest completions bash|zsh|fish)."
    static let help = """
    Usage: gvingest completions bash|zsh|fish

    Prints a completion script for the shell: commands, then each command's options.
      bash:  source <(gvingest completions bash)      (or save it in ~/.local/share/bash-completion/completions/gvingest)
      zsh:   gvingest completions zsh > "${fpath[1]}/_gvingest"
      fish:  gvingest completions fish > ~/.config/fish/completions/gvingest.fish
    Exit status: 0 ok, 64 bad usage.
    """

    static func run(_ words: [String]) async throws -> ExitStatus {
        let arguments = try parseArguments(words)
        guard arguments.positional.count == 1, let shell = arguments.positional.first else {
            throw UsageError(message: "name one shell: bash, zsh or fish")
        }
        guard let script = ["bash": bash, "zsh": zsh, "fish": fish][shell] else {
            throw UsageError(message: "no completions for '\(shell)'; choose bash, zsh or fish")
        }
        print(script)
        return .ok
    }

    static func words(_ command: any Command.Type) -> [String] {
        (command.flags + command.options + ["--help"]).sorted()
    }

    static var bash: String {
        let names = GVIngest.commands.map { $0.name }.joined(separator: " ")
        let cases = GVIngest.commands.map { "        \($0.name)) options=\"\(words($0).joined(separator: " "))\" ;;" }
        return """
        # gvingest completions for bash: source <(gvingest completions bash)
        _gvingest() {
            local current=${COMP_WORDS[COMP_CWORD]} options=""
            if [ "$COMP_CWORD" -eq 1 ]; then
                COMPREPLY=($(compgen -W "\(names) --help --version" -- "$current"))
                return
            fi
            case ${COMP_WORDS[1]} in
        \(cases.joined(separator: "\n"))
            esac
            if [[ $current == -* ]]; then
                COMPREPLY=($(compgen -W "$options" -- "$current"))
            else
                COMPREPLY=($(compgen -f -- "$current"))
            fi
        }
        complete -o default -F _gvingest gvingest
        """
    }

    static var zsh: String {
        let commandList = GVIngest.commands.map { "'\($0.name):\($0.summary.replacingOccurrences(of: "'", with: "'\\''"))'" }
        let cases = GVIngest.commands.map { "        \($0.name)) _arguments '*:file:_files' \(words($0).map { "'\($0)'" }.joined(separator: " ")) ;;" }
        return """
        #compdef gvingest
        # gvingest completions for zsh: gvingest completions zsh > "${fpath[1]}/_gvingest"
        _gvingest() {
            if (( CURRENT == 2 )); then
                local -a commands
                commands=(\(commandList.joined(separator: " ")))
                _describe 'command' commands
                return
            fi
            case $words[2] in
        \(cases.joined(separator: "\n"))
            esac
        }
        _gvingest "$@"
        """
    }

    static var fish: String {
        var lines = ["# gvingest completions for fish: gvingest completions fish > ~/.config/fish/completions/gvingest.fish",
                     "complete -c gvingest -f -n __fish_use_subcommand -l version -d 'Print the version'"]
        for command in GVIngest.commands {
            lines.append("complete -c gvingest -f -n __fish_use_subcommand -a \(command.name) -d '\(command.summary.replacingOccurrences(of: "'", with: "\\'"))'")
            for word in words(command) {
                lines.append("complete -c gvingest -n '__fish_seen_subcommand_from \(command.name)' -l \(word.dropFirst(2))"
                    + (command.options.contains(word) ? " -r" : ""))
            }
        }
        return lines.joined(separator: "\n")
    }
}
