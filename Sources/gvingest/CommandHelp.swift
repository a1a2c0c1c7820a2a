import Foundation

/// `--help`, the synopsis, docs/commands.md and the man page, all made from each command's declarations.
extension Command {
    /// Every option this command accepts, `--help` aside.
    static var optionNames: [String] { options.map(\.name) }

    static func declaration(_ name: String) -> CommandOption? { options.first { $0.name == name } }

    /// The synopsis, one form after another, each wrapped with its continuation lines under its first option;
    /// `lead` starts the first line ("Usage: " in help, nothing in the docs).
    static func synopsisLines(lead: String) -> [String] {
        let forms = usages.isEmpty ? [Usage()] : usages
        return forms.enumerated().flatMap { index, form in
            let required = form.required.compactMap(declaration)
            let optional = (form.optional ?? optionNames.filter { !form.required.contains($0) }).compactMap(declaration)
            let words = [form.before].filter { !$0.isEmpty } + required.map { $0.synopsisWord + ($0.repeatable ? "..." : "") }
                + optional.map { "[\($0.synopsisWord)]" + ($0.repeatable ? "..." : "") } + [form.after].filter { !$0.isEmpty }
            let start = (index == 0 ? lead : String(repeating: " ", count: lead.count)) + "gvingest \(name)"
            return HelpLayout.wrap(words, first: start + " ", rest: String(repeating: " ", count: start.count + 1))
        }
    }

    /// The help's "Usage:" lines, as usage errors repeat them.
    static var synopsis: String { synopsisLines(lead: "Usage: ").joined(separator: "\n") }

    /// `gvingest COMMAND --help`: the synopsis, what it does, its options, its exit statuses.
    static var help: String {
        let width = min(HelpLayout.headingWidth, (options.map(\.heading.count) + [6]).max() ?? 0) + 2
        let rows = (options + [HelpLayout.helpOption]).flatMap { option -> [String] in
            let heading = "  " + option.heading
            let words = option.fullHelp.split(separator: " ").map(String.init)
            let indent = String(repeating: " ", count: width + 2)
            if heading.count + 1 > width + 2 {
                return [heading] + HelpLayout.wrap(words, first: indent, rest: indent)
            }
            return HelpLayout.wrap(words, first: heading.padding(toLength: width + 2, withPad: " ", startingAt: 0), rest: indent)
        }
        return ([synopsis, discussion, "Options:\n" + rows.joined(separator: "\n"), exitStatus].filter { !$0.isEmpty })
            .joined(separator: "\n\n")
    }
}

/// Layout and markup shared by the renderings.
enum HelpLayout {
    static let width = 100
    /// Option headings longer than this put their help on the next line.
    static let headingWidth = 22
    static let helpOption = CommandOption.flag("--help", "Show this help.")

    /// `words` in lines of at most `width` columns (a word longer than a line stands alone).
    static func wrap(_ words: [String], first: String, rest: String) -> [String] {
        var lines: [String] = []
        var line = first, fresh = true
        for word in words {
            if !fresh && line.count + 1 + word.count > width {
                lines.append(line)
                line = rest + word
            } else {
                line += (fresh ? "" : " ") + word
            }
            fresh = false
        }
        lines.append(line)
        return lines
    }

    /// Prose as blocks: paragraphs (their lines joined) and verbatim blocks (lines starting with two spaces).
    static func blocks(_ prose: String) -> [(verbatim: Bool, lines: [String])] {
        var blocks: [(verbatim: Bool, lines: [String])] = []
        var previousBlank = true
        for line in prose.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.trimmingCharacters(in: .whitespaces).isEmpty {
                previousBlank = true
                continue
            }
            let verbatim = line.hasPrefix("  ")
            if !previousBlank, let last = blocks.last, last.verbatim == verbatim {
                blocks[blocks.count - 1].lines.append(verbatim ? String(line.dropFirst(2)) : line)
            } else {
                blocks.append((verbatim, [verbatim ? String(line.dropFirst(2)) : line]))
            }
            previousBlank = false
        }
        return blocks
    }

    // MARK: Markdown

    /// Text for a Markdown paragraph: angle brackets would start HTML.
    static func markdownText(_ text: String) -> String {
        text.replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    static func markdownProse(_ prose: String) -> String {
        blocks(prose).map { block in
            block.verbatim ? "```\n" + block.lines.joined(separator: "\n") + "\n```" : markdownText(block.lines.joined(separator: " "))
        }.joined(separator: "\n\n")
    }

    /// docs/commands.md: every command's synopsis, prose, options and exit statuses.
    static func markdownReference(_ commands: [any Command.Type]) -> String {
        var out = """
        # gvingest commands

        <!-- Made by `gvingest help --markdown` from the option declarations the parser reads; a test compares. -->

        \(markdownText("gvingest " + GVIngest.about))

        | Command | What it does |
        | --- | --- |

        """
        for command in commands { out += "| [`\(command.name)`](#gvingest-\(command.name)) | \(markdownText(command.summary).replacingOccurrences(of: "|", with: "\\|")) |\n" }
        out += "\n" + markdownProse(GVIngest.exitStatuses) + "\n"
        for command in commands {
            out += "\n## gvingest \(command.name)\n\n\(markdownText(command.summary))\n\n```\n"
            out += command.synopsisLines(lead: "").joined(separator: "\n") + "\n```\n"
            if !command.discussion.isEmpty { out += "\n" + markdownProse(command.discussion) + "\n" }
            out += "\nOptions:\n\n"
            for option in command.options + [helpOption] { out += "- `\(option.heading)`: \(markdownText(option.fullHelp))\n" }
            out += "\n" + markdownProse(command.exitStatus) + "\n"
        }
        return out
    }

    // MARK: roff

    /// Text for a roff line: backslashes and hyphens escaped, characters beyond ASCII named (troff reads bytes), and a
    /// leading dot or quote not taken for a request.
    static func roffText(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
            .unicodeScalars.map { $0.isASCII ? String($0) : String(format: "\\[u%04X]", $0.value) }.joined()
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }

    static func roffProse(_ prose: String) -> String {
        blocks(prose).map { block in
            block.verbatim ? ".PP\n.nf\n" + block.lines.map { roffText($0) }.joined(separator: "\n") + "\n.fi"
                : ".PP\n" + block.lines.map { roffText($0.trimmingCharacters(in: .whitespaces)) }.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// docs/gvingest.1: the man page, the same facts as docs/commands.md.
    static func manPage(_ commands: [any Command.Type]) -> String {
        var out = """
        .\\" Made by `gvingest help \\-\\-man` from the option declarations the parser reads; a test compares.
        .TH GVINGEST 1 "" "gvingest \(GVIngest.version)" "User Commands"
        .nh
        .SH NAME
        gvingest \\- \(roffText(GVIngest.about))
        .SH SYNOPSIS
        .B gvingest
        .I command
        .RI [ options ]
        .br
        .B gvingest
        .BR \\-\\-version " | " \\-\\-help
        .SH DESCRIPTION
        .B gvingest
        \(roffText(GVIngest.about))
        The commands:

        """
        for command in commands {
            out += ".TP\n.B \(command.name)\n\(roffText(command.summary))\n"
        }
        out += ".SH COMMANDS\n"
        for command in commands {
            out += ".SS gvingest \(command.name)\n.nf\n" + command.synopsisLines(lead: "").map { roffText($0) }.joined(separator: "\n") + "\n.fi\n"
            if !command.discussion.isEmpty { out += roffProse(command.discussion) + "\n" }
            for option in command.options + [helpOption] {
                let value = option.valueName.map { " \\fI\(roffText($0))\\fR" } ?? ""
                out += ".TP\n\\fB\(roffText(option.name))\\fR\(value)\n\(roffText(option.fullHelp))\n"
            }
            out += roffProse(command.exitStatus) + "\n"
        }
        out += ".SH EXIT STATUS\n" + roffProse(GVIngest.exitStatuses) + "\n"
        out += ".SH SEE ALSO\nREADME.md, docs/commands.md, docs/ARCHITECTURE.md\n"
        return out
    }
}
