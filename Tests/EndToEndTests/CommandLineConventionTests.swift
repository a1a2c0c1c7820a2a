import Foundation
import TestSupport
import Testing

/// The conventions people expect of a command-line tool, through the built binary: --version, short usage errors,
/// `-` for standard input, --color, completion scripts, and every --help agreeing with what each command accepts.
@Suite struct CommandLineConventionTests {
    /// The commands `gvingest help` lists.
    static func commands() async throws -> [String] {
        let help = try await Binary.run(["help"])
        let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "Commands:"))
        return lines[(start + 1)...].prefix { !$0.isEmpty }.compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// `--word` tokens in a text, leaving out gvingest's own (`gvingest --version`), which are not the command's.
    static func options(in text: some StringProtocol) -> Set<String> {
        let text = String(text).replacing(/gvingest --[a-z]+/, with: "")
        return Set(text.matches(of: /--[a-z][a-z-]*[a-z]/).map { String($0.output) })
    }

    /// The options the parser of `command` accepts, as the generated completions (read from the same lists) say.
    static func accepted(_ command: String) async throws -> Set<String> {
        let script = try await Binary.run(["completions", "bash"]).stdout
        let line = try #require(script.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("\(command))") })
        return options(in: line).subtracting(["--help"])
    }

    @Test func everyCommandThatTakesACatalogAnswersAnUnknownOneTheSameWay() async throws {
        let config = "Fixtures/pipeline.json"
        for words in [["run", "--config", config], ["diff", "--config", config], ["fetch", "--config", config]] {
            let outcome = try await Binary.run(words + ["--catalog", "nope"])
            #expect(outcome.status == 64, "\(words[0])")
            #expect(outcome.stderr.hasPrefix("gvingest \(words[0]): no catalog 'nope' among the catalogs of \(config) (gvsu-fixture)\n"),
                    "\(outcome.stderr)")
        }
    }

    @Test func everyOptionAHelpListsIsAcceptedAndEveryAcceptedOptionIsListed() async throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-options-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let commands = try await Self.commands()
        #expect(Set(commands).isSuperset(of: ["run", "parse", "prereq", "fetch", "diff", "search", "config", "completions", "version", "help"]))
        for command in commands {
            let help = try await Binary.run([command, "--help"])
            #expect(help.status == 0, "\(command) --help")
            let listed = Self.options(in: help.stdout).subtracting(["--help"])
            let synopsis = help.stdout.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }.joined(separator: "\n")
            let accepted = try await Self.accepted(command)
            #expect(listed == accepted, "\(command): listed but not accepted \(listed.subtracting(accepted)), accepted but not listed \(accepted.subtracting(listed))")
            #expect(accepted.isSubset(of: Self.options(in: synopsis)), "\(command)'s synopsis omits \(accepted.subtracting(Self.options(in: synopsis)))")
            // The parser itself, not only the lists: each listed option is known (in a directory with no configuration,
            // so nothing runs for real).
            for option in listed {
                let outcome = try await Binary.run([command, option], in: empty)
                #expect(!outcome.stderr.contains("unknown option"), "\(command) \(option): \(outcome.stderr)")
            }
        }
    }

    /// docs/commands.md's synopses (the `gvingest CMD …` lines of its code blocks, with their continuation lines) name
    /// every option each command accepts, and no other.
    @Test func theReferenceSynopsesAgreeWithWhatEachCommandAccepts() async throws {
        let reference = try String(contentsOf: Binary.packageRoot.appendingPathComponent("docs/commands.md"), encoding: .utf8)
        var inCode = false
        var current: String?
        var mentioned: [String: Set<String>] = [:]
        for line in reference.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inCode.toggle(); current = nil; continue }
            guard inCode else { continue }
            let words = line.split(separator: " ")
            if words.first == "gvingest", words.count > 1 {
                current = String(words[1])
            } else if !line.hasPrefix(" ") {
                current = nil
            }
            // Comments explain; they are not synopsis.
            let code = line.split(separator: "#", maxSplits: 1).first.map(String.init) ?? ""
            if let current { mentioned[current, default: []].formUnion(Self.options(in: code)) }
        }
        for command in try await Self.commands() {
            let accepted = try await Self.accepted(command)
            let listed = mentioned[command, default: []].subtracting(["--help"])
            #expect(listed == accepted, "docs/commands.md's \(command): missing \(accepted.subtracting(listed)), not accepted \(listed.subtracting(accepted))")
        }
    }

    /// docs/commands.md and the man page are what the binary makes of its declarations now: regenerate them with
    /// `gvingest help --markdown > docs/commands.md` and `gvingest help --man > docs/gvingest.1`.
    @Test func theCommittedReferenceAndManPageAreWhatTheBinaryWrites() async throws {
        for (flag, file) in [("--markdown", "docs/commands.md"), ("--man", "docs/gvingest.1")] {
            let made = try await Binary.run(["help", flag])
            #expect(made.status == 0, "\(made.stderr)")
            let committed = try String(contentsOf: Binary.packageRoot.appendingPathComponent(file), encoding: .utf8)
            #expect(made.stdout == committed, "\(file) is stale: run gvingest help \(flag) > \(file)")
        }
    }

    /// Each option is declared once; every rendering lists each option of each command: help, the three completion
    /// scripts, docs/commands.md and the man page.
    @Test func everyRenderingListsEveryDeclaredOption() async throws {
        let markdown = try await Binary.run(["help", "--markdown"]).stdout
        let man = try await Binary.run(["help", "--man"]).stdout.replacingOccurrences(of: "\\-", with: "-")
        let zsh = try await Binary.run(["completions", "zsh"]).stdout
        let fish = try await Binary.run(["completions", "fish"]).stdout
        /// The part of `text` from `start` to the next `end` (or its end).
        func section(_ text: String, _ start: String, _ end: String) -> Substring {
            guard let from = text.range(of: start) else { return "" }
            let rest = text[from.upperBound...]
            return rest[..<(rest.range(of: end)?.lowerBound ?? rest.endIndex)]
        }
        for command in try await Self.commands() {
            let accepted = try await Self.accepted(command).union(["--help"])
            let help = try await Binary.run([command, "--help"]).stdout
            let options = section(help, "\nOptions:\n", "\n\n")
            let headings = options.split(separator: "\n").filter { $0.hasPrefix("  --") }.compactMap { $0.split(separator: " ").first.map(String.init) }
            #expect(Set(headings) == accepted, "\(command) --help")
            let bullets = section(markdown, "\n## gvingest \(command)\n", "\n## ").split(separator: "\n").filter { $0.hasPrefix("- `--") }
            #expect(Set(bullets.compactMap { $0.dropFirst(3).split(separator: " ").first?.split(separator: "`").first.map(String.init) }) == accepted,
                    "docs/commands.md: \(command)")
            let tags = section(man, "\n.SS gvingest \(command)\n", "\n.SS ").split(separator: "\n").filter { $0.hasPrefix("\\fB--") }
            #expect(Set(tags.compactMap { $0.dropFirst(3).split(separator: "\\").first.map(String.init) }) == accepted, "man page: \(command)")
            let zshLine = try #require(zsh.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("\(command))") })
            #expect(Set(zshLine.matches(of: /'\*?(--[a-z-]+)\[/).map { String($0.output.1) }) == accepted, "zsh: \(command)")
            let fishOptions = fish.split(separator: "\n").filter { $0.contains("__fish_seen_subcommand_from \(command)'") }
                .compactMap { $0.firstMatch(of: /\ -l ([a-z-]+)/).map { "--" + $0.output.1 } }
            #expect(Set(fishOptions) == accepted, "fish: \(command)")
        }
    }

    @Test(.needs(.groff)) func theManPageRendersWithoutWarnings() async throws {
        try OptionalTool.groff.require()
        let outcome = try await RecipeTests.shell("cd '\(Binary.packageRoot.path)' && groff -man -Tutf8 -ww docs/gvingest.1 | col -bx")
        #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(outcome.stderr)")
        for heading in ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "EXIT STATUS"] { #expect(outcome.stdout.contains("\n\(heading)\n")) }
        #expect(outcome.stdout.contains("--accept-removals"))
    }

    /// A value an option does not allow is refused by the parser, before any work, in the option's words; one in
    /// another case is taken in its declared spelling.
    @Test func theParserChecksAllowedValues() async throws {
        for (words, message) in [(["run", "--log-format", "xml"], "--log-format must be human or json, not 'xml'"),
                                 (["parse", "x.html", "--system=peoplesoft"], "--system must be auto, gvsu, acalog, courseleaf or banner, not 'peoplesoft'"),
                                 (["search", "cis", "--format", "tsv"], "--format must be json, jsonl or csv, not 'tsv'"),
                                 (["diff", "--only", "added,moved", "a", "b"], "--only must be added, returned, removed, changed or renumbered, not 'added,moved'")] {
            let outcome = try await Binary.run(words)
            #expect(outcome.status == 64, "\(words)")
            #expect(outcome.stderr.hasPrefix("gvingest \(words[0]): \(message)\n"), "\(outcome.stderr)")
        }
        let upper = try await Binary.run(["diff", "--stat", "--only", "ADDED,Removed", "Fixtures/snapshots/fall.json", "Fixtures/snapshots/winter.json"])
        #expect(upper.status == 1, "\(upper.stderr)")
        #expect(upper.stdout.hasPrefix("2 added, 1 removed"), "\(upper.stdout)")
    }

    @Test func aUsageErrorIsOneLineTheSynopsisAndWhereToReadMore() async throws {
        for command in try await Self.commands() where command != "help" {
            let outcome = try await Binary.run([command, "--no-such-option"])
            #expect(outcome.status == 64, "\(command)")
            let lines = outcome.stderr.split(separator: "\n")
            #expect(lines.first?.hasPrefix("gvingest \(command): unknown option --no-such-option") == true, "\(outcome.stderr)")
            #expect(lines.dropFirst().first?.hasPrefix("Usage: gvingest \(command)") == true, "\(outcome.stderr)")
            #expect(lines.last == "See 'gvingest \(command) --help'.")
            #expect(lines.count <= 7, "\(command): \(lines.count) lines")
            #expect(outcome.stdout.isEmpty)
        }
        let unknown = try await Binary.run(["rnu"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr == "gvingest: unknown command 'rnu' (did you mean 'run'?)\nUsage: gvingest <command> [options]\nSee 'gvingest help'.\n")
    }

    /// An option given an empty value is a usage error before any work (`--out ""` would write into the current
    /// directory, `--only ""` hide every difference), written apart or after `=`.
    @Test(arguments: [["run", "--source", "Fixtures/gvsu", "--out", ""], ["run", "--source=", "--out", "x"],
                      ["diff", "--only", "", "Fixtures/snapshots/fall.json", "Fixtures/snapshots/winter.json"],
                      ["parse", "Fixtures/gvsu/course", "--system="], ["search", "cis", "--catalog", ""]])
    func anEmptyOptionValueIsAUsageError(_ words: [String]) async throws {
        let outcome = try await Binary.run(words)
        #expect(outcome.status == 64, "\(words): \(outcome.stderr)")
        #expect(outcome.stderr.hasPrefix("gvingest \(words[0]): --") && outcome.stderr.contains(" needs a value"), "\(outcome.stderr)")
    }

    @Test func versionAndHelpAnswerAsExpected() async throws {
        let long = try await Binary.run(["--version"]), word = try await Binary.run(["version"])
        #expect(long.status == 0 && word.status == 0)
        #expect(long.stdout.hasPrefix("gvingest ") && long.stdout == word.stdout)
        let helpHelp = try await Binary.run(["help", "--help"])
        #expect(helpHelp.status == 0)
        #expect(helpHelp.stdout.hasPrefix("Usage: gvingest help [COMMAND]"))
        #expect(try await Binary.run(["help", "parse"]).stdout == (try await Binary.run(["parse", "--help"]).stdout))
        let noTopic = try await Binary.run(["help", "nonsense"])
        #expect(noTopic.status == 64)
        #expect(noTopic.stderr.contains("no command 'nonsense'"))
    }

    /// Runs the binary with `input` on its standard input.
    static func run(_ arguments: [String], input: Data) async throws -> Binary.Outcome {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-stdin-\(UUID().uuidString)")
        try input.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let quoted = ([Binary.url.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        return try await RecipeTests.shell("cd '\(Binary.packageRoot.path)' && \(quoted) < '\(file.path)'")
    }

    @Test func aDashReadsStandardInput() async throws {
        let page = try Data(contentsOf: Binary.fixtures.appendingPathComponent("acalog/preview_course_nopop-catoid-10-coid-4242.html"))
        let parsed = try await Self.run(["parse", "-", "--json"], input: page)
        #expect(parsed.status == 0, "\(parsed.stderr)")
        let records = try #require(try JSONSerialization.jsonObject(with: Data(parsed.stdout.utf8)) as? [[String: Any]])
        #expect(records.map { $0["name"] as? String } == ["CIS 162"])
        let human = try await Self.run(["parse", "-"], input: page)
        #expect(human.stdout.contains("== (standard input)"))

        let prereq = try await Self.run(["prereq", "-", "--json"], input: Data("CIS 162 and MTH 201 with a C or better\n".utf8))
        #expect(prereq.status == 0, "\(prereq.stderr)")
        let tree = try #require(try JSONSerialization.jsonObject(with: Data(prereq.stdout.utf8)) as? [String: Any])
        #expect(tree["courses"] as? [String] == ["CIS 162", "MTH 201"])
    }

    /// `-` is one page (one text), whatever standard input is: a folder there is an input that cannot be read (66).
    @Test func aDashThatIsAFolderCannotBeRead() async throws {
        for command in ["parse - --json", "prereq -"] {
            let outcome = try await RecipeTests.shell("cd '\(Binary.packageRoot.path)' && '\(Binary.url.path)' \(command) < Fixtures/gvsu/course")
            #expect(outcome.status == 66, "\(command): \(outcome.stderr)")
            #expect(outcome.stderr.contains("standard input") && outcome.stderr.contains("Is a directory"), "\(command): \(outcome.stderr)")
            #expect(!outcome.stderr.contains("Fatal error") && !outcome.stdout.contains("CIS"), "\(command)")
        }
    }

    /// `-` reads standard input where it is: a socket (what libuv and systemd give a child) cannot be opened again
    /// through /dev/stdin, and a pipe or file must not start over.
    @Test func aDashReadsStandardInputWhereItIs() async throws {
        var ends: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        let text = Data("CIS 162 and MTH 201\n".utf8)
        #expect(text.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } == text.count)
        close(ends[1])
        let reading = ends[0]
        let (status, output) = try await Binary.offThePool { () throws -> (Int32, String) in
            let process = Process(), output = Pipe()
            process.executableURL = Binary.url
            process.arguments = ["prereq", "-", "--json"]
            process.standardInput = FileHandle(fileDescriptor: reading, closeOnDealloc: true)
            process.standardOutput = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }
        #expect(status == 0)
        #expect(output.contains("\"MTH 201\""), "\(output)")
        // A file `head` read the first word of goes on from there, not from its start.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-stdin-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("IGNORED CIS 162\n".utf8).write(to: file)
        let rest = try await RecipeTests.shell("{ head -c 8 >/dev/null; '\(Binary.url.path)' prereq - --json; } < '\(file.path)'")
        #expect(rest.status == 0 && rest.stdout.contains("\"CIS 162\"") && !rest.stdout.contains("IGNORED"), "\(rest.stdout)")
    }

    @Test func aURLWithoutItsSchemeGetsAHint() async throws {
        let parse = try await Binary.run(["parse", "www.gvsu.edu/catalog/course/cis-162.htm"])
        #expect(parse.status == 66)
        #expect(parse.stderr.contains("did you mean https://www.gvsu.edu/catalog/course/cis-162.htm?"), "\(parse.stderr)")
        // A file name is not taken for a host.
        let file = try await Binary.run(["parse", "no-such-page.html", "pages.d/cis-162.html"])
        #expect(file.status == 66)
        #expect(!file.stderr.contains("did you mean"), "\(file.stderr)")
        let fetch = try await Binary.run(["fetch", "--start", "www.gvsu.edu/catalog/subject/biology.htm"])
        #expect(fetch.status == 64)
        #expect(fetch.stderr.contains("did you mean https://www.gvsu.edu/catalog/subject/biology.htm?"), "\(fetch.stderr)")
    }

    /// The diff's colours through a pseudo-terminal (script(1)), under the settings that should turn them off.
    static func diffOnATerminal(_ environment: String, _ extra: String = "") async throws -> String {
        let command = "cd '\(Binary.packageRoot.path)' && \(environment) '\(Binary.url.path)' diff \(extra) "
            + "Fixtures/snapshots/fall.json Fixtures/snapshots/winter.json"
        return try await RecipeTests.shell("script -qec \"\(command)\" /dev/null").stdout
    }

    @Test func colourFollowsTheTerminalNoColorTermDumbAndTheOption() async throws {
        let escape = "\u{1B}["
        await #expect(try Self.diffOnATerminal("TERM=xterm NO_COLOR=").contains(escape))
        await #expect(!(try Self.diffOnATerminal("TERM=xterm NO_COLOR=1")).contains(escape))
        await #expect(!(try Self.diffOnATerminal("TERM=dumb NO_COLOR=")).contains(escape))
        await #expect(!(try Self.diffOnATerminal("TERM=xterm NO_COLOR=", "--color=never")).contains(escape))
        await #expect(try Self.diffOnATerminal("TERM=dumb NO_COLOR=1", "--color=always").contains(escape))
        // Off a terminal: none, unless asked for.
        #expect(!(try await Binary.run(["diff", "Fixtures/snapshots/fall.json", "Fixtures/snapshots/winter.json"])).stdout.contains(escape))
        #expect(try await Binary.run(["diff", "--color", "always", "Fixtures/snapshots/fall.json", "Fixtures/snapshots/winter.json"]).stdout.contains(escape))
        let wrong = try await Binary.run(["diff", "--color=sometimes", "Fixtures/snapshots/fall.json", "Fixtures/snapshots/winter.json"])
        #expect(wrong.status == 64)
        #expect(wrong.stderr.contains("--color must be auto, always or never"))
    }

    @Test func theBashCompletionsCompleteCommandsAndOptions() async throws {
        let script = try await Binary.run(["completions", "bash"])
        #expect(script.status == 0)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-completion-\(UUID().uuidString).bash")
        try Data(script.stdout.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        func complete(_ words: [String]) async throws -> [String] {
            let array = words.map { "'\($0)'" }.joined(separator: " ")
            let outcome = try await RecipeTests.shell("source '\(file.path)'; COMP_WORDS=(\(array)); COMP_CWORD=\(words.count - 1); _gvingest; "
                + "printf '%s\\n' \"${COMPREPLY[@]}\"")
            #expect(outcome.status == 0, "\(outcome.stderr)")
            return outcome.stdout.split(separator: "\n").map(String.init)
        }
        await #expect(try complete(["gvingest", "se"]) == ["search"])
        await #expect(try complete(["gvingest", "fetch", "--ig"]) == ["--ignore-robots"])
        await #expect(try complete(["gvingest", "run", "--co"]).sorted() == ["--color", "--config"])
        for shell in ["zsh", "fish"] {
            let other = try await Binary.run(["completions", shell])
            #expect(other.status == 0)
            for command in try await Self.commands() { #expect(other.stdout.contains(command), "\(shell): \(command)") }
            #expect(other.stdout.contains("ignore-robots"))
        }
        #expect(try await Binary.run(["completions", "tcsh"]).status == 64)
        #expect(try await Binary.run(["completions", "bash", "zsh"]).stderr.contains("name one shell"))
    }
}
