import CatalogKit
import Foundation

/// `gvingest help [COMMAND]`: the overview, or one command's help.
enum HelpCommand: Command {
    static let name = "help"
    static let summary = "Show help for a command (gvingest help parse)."
    static let options: [CommandOption] = [
        .flag("--markdown", "Print every command's help as Markdown instead (docs/commands.md)."),
        .flag("--man", "Print every command's help as a man page instead (docs/gvingest.1)."),
    ]
    static let usages = [Usage(before: "[COMMAND]", optional: []), Usage(optional: ["--markdown", "--man"])]
    static let discussion = """
    Prints the list of commands, or COMMAND's help (the same as 'gvingest COMMAND --help').
    """
    static let exitStatus = "Exit status: 0 ok, 64 no such command."

    static func run(_ words: [String]) async throws -> ExitStatus {
        let arguments = try parseArguments(words)
        guard arguments.positional.count <= 1 else { throw UsageError(message: "name one command") }
        if arguments.has("--markdown") || arguments.has("--man") {
            guard arguments.positional.isEmpty, !(arguments.has("--markdown") && arguments.has("--man")) else {
                throw UsageError(message: "--markdown and --man print every command, one of them at a time")
            }
            print(arguments.has("--man") ? HelpLayout.manPage(GVIngest.commands) : HelpLayout.markdownReference(GVIngest.commands),
                  terminator: "")
            return .ok
        }
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
    static let discussion = "Prints \"gvingest VERSION\" on stdout, as `gvingest --version` does."
    static let exitStatus = "Exit status: 0 ok, 64 bad usage."

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
    static let usages = [Usage(before: "bash|zsh|fish")]
    static let discussion = """
    Prints a completion script for the shell: commands, then each command's options and the values
    they allow.
      bash:  source <(gvingest completions bash)      (or save it in ~/.local/share/bash-completion/completions/gvingest)
      zsh:   gvingest completions zsh > "${fpath[1]}/_gvingest"
      fish:  gvingest completions fish > ~/.config/fish/completions/gvingest.fish
    """
    static let exitStatus = "Exit status: 0 ok, 64 bad usage."

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
        (command.optionNames + ["--help"]).sorted()
    }

    /// Shell-quoted for single quotes in bash and zsh.
    static func quoted(_ text: String) -> String { text.replacingOccurrences(of: "'", with: "'\\''") }

    /// The help's first sentence, for a completion menu.
    static func brief(_ option: CommandOption) -> String {
        let sentence = option.help.split(separator: ". ", maxSplits: 1).first.map(String.init) ?? option.help
        return sentence.hasSuffix(".") ? String(sentence.dropLast()) : sentence
    }

    static var bash: String {
        let names = GVIngest.commands.map { $0.name }.joined(separator: " ")
        let cases = GVIngest.commands.map { "        \($0.name)) options=\"\(words($0).joined(separator: " "))\" ;;" }
        // The values an option allows, offered after it whichever command it belongs to.
        var valued: [String: [String]] = [:]
        for command in GVIngest.commands {
            for option in command.options where !option.allowedValues.isEmpty { valued["\(command.name) \(option.name)"] = option.allowedValues }
        }
        let values = valued.keys.sorted().map { "        '\($0)') COMPREPLY=($(compgen -W \"\(valued[$0]!.joined(separator: " "))\" -- \"$current\")); return ;;" }
        return """
        # gvingest completions for bash: source <(gvingest completions bash)
        _gvingest() {
            local current=${COMP_WORDS[COMP_CWORD]} previous=${COMP_WORDS[COMP_CWORD-1]} options=""
            if [ "$COMP_CWORD" -eq 1 ]; then
                COMPREPLY=($(compgen -W "\(names) --help --version" -- "$current"))
                return
            fi
            case "${COMP_WORDS[1]} $previous" in
        \(values.joined(separator: "\n"))
            esac
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
        let commandList = GVIngest.commands.map { "'\($0.name):\(quoted($0.summary))'" }
        func spec(_ option: CommandOption) -> String {
            let text = brief(option).replacingOccurrences(of: "[", with: "(").replacingOccurrences(of: "]", with: ")")
                .replacingOccurrences(of: ":", with: ";")
            let value = option.valueName.map { name in
                ":\(name):" + (option.allowedValues.isEmpty ? "_files" : "(\(option.allowedValues.joined(separator: " ")))")
            } ?? ""
            return "'" + (option.repeatable ? "*" : "") + option.name + "[" + quoted(text) + "]" + value + "'"
        }
        let cases = GVIngest.commands.map { command in
            "        \(command.name)) _arguments '*:file:_files' \((command.options + [HelpLayout.helpOption]).map(spec).joined(separator: " ")) ;;"
        }
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
        func escaped(_ text: String) -> String { text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") }
        var lines = ["# gvingest completions for fish: gvingest completions fish > ~/.config/fish/completions/gvingest.fish",
                     "complete -c gvingest -f -n __fish_use_subcommand -l version -d 'Print the version'"]
        for command in GVIngest.commands {
            lines.append("complete -c gvingest -f -n __fish_use_subcommand -a \(command.name) -d '\(escaped(command.summary))'")
            for option in command.options + [HelpLayout.helpOption] {
                let value = option.isFlag ? "" : option.allowedValues.isEmpty ? " -r" : " -x -a '\(option.allowedValues.joined(separator: " "))'"
                lines.append("complete -c gvingest -n '__fish_seen_subcommand_from \(command.name)' -l \(option.name.dropFirst(2))"
                    + value + " -d '\(escaped(brief(option)))'")
            }
        }
        return lines.joined(separator: "\n")
    }
}
