import CatalogKit

/// One option of a command, declared once, in the manner of swift-argument-parser's `@Option`/`@Flag` metadata.
/// The parser (`Arguments`), `--help`, the synopsis in usage errors, the completions, docs/commands.md and the man
/// page docs/gvingest.1 are all made from these values, so none of them can disagree with another.
///
/// To add an option to a command, add one value to its `options` list and read it by name in `run`:
///
///     .option("--shard", "I/N", "Run the Ith of N parts of the catalogs.")
///     .option("--color", "WHEN", "The diff's colours.", default: "auto", allowed: ["auto", "always", "never"])
///     .flag("--all", "Run every catalog of the configuration.")
///
///     arguments.value("--shard"), arguments.has("--all")
///
/// then regenerate the docs (`gvingest help --markdown > docs/commands.md`, `gvingest help --man > docs/gvingest.1`).
/// A command with several forms names them in `usages`; an option is listed once whichever forms it appears in.
struct CommandOption: Sendable, Equatable {
    /// "--config".
    var name: String
    /// The placeholder for its value in synopses and help ("FILE"); nil for a flag, which takes none.
    var valueName: String?
    /// A line, or a few sentences, for `--help` and the docs.
    var help: String
    /// What applies when it is not given, as help shows it; nil when nothing does, or the help line says it.
    var defaultValue: String?
    /// The only values accepted (any case; the parser refuses others with a usage error); empty for any value.
    var allowedValues: [String] = []
    /// Each value given counts (`--start URL` twice is two start URLs); otherwise the last one given wins.
    var repeatable = false
    /// A value may also be a comma-separated list of allowed values (`--only added,removed`).
    var commaSeparated = false

    var isFlag: Bool { valueName == nil }

    /// An option that needs no value: given or not.
    static func flag(_ name: String, _ help: String) -> CommandOption {
        CommandOption(name: name, valueName: nil, help: help)
    }

    /// An option followed by a value (`--config FILE` or `--config=FILE`).
    static func option(_ name: String, _ valueName: String, _ help: String, default defaultValue: String? = nil,
                       allowed: [String] = [], repeatable: Bool = false, commaSeparated: Bool = false) -> CommandOption {
        CommandOption(name: name, valueName: valueName, help: help, defaultValue: defaultValue, allowedValues: allowed,
                      repeatable: repeatable, commaSeparated: commaSeparated)
    }

    /// "--color auto|always|never", "--config FILE" or "--dry-run", as synopses show it; more than three values are
    /// left to the Options section, to keep usage errors short.
    var synopsisWord: String {
        guard let valueName else { return name }
        return name + " " + (allowedValues.isEmpty || allowedValues.count > 3 ? valueName : allowedValues.joined(separator: "|"))
    }

    /// "--config FILE", as the Options section heads the option.
    var heading: String { valueName.map { "\(name) \($0)" } ?? name }

    /// The help line with the allowed values and the default after it, as every rendering shows it.
    var fullHelp: String {
        var notes: [String] = []
        if !allowedValues.isEmpty, let valueName {
            notes.append("\(valueName) is \(Self.list(allowedValues, "or"))" + (commaSeparated ? ", or several joined by commas" : ""))
        }
        if let defaultValue { notes.append("default: \(defaultValue)") }
        if repeatable { notes.append("repeatable") }
        guard !notes.isEmpty else { return help }
        let sentence = help.hasSuffix(".") ? String(help.dropLast()) : help
        return "\(sentence) (\(notes.joined(separator: "; ")))."
    }

    /// The value `word` stands for, in its declared spelling, or nil when the option refuses it.
    func accepted(_ word: String) -> String? {
        guard !allowedValues.isEmpty else { return word }
        let parts = commaSeparated ? word.split(separator: ",", omittingEmptySubsequences: false).map(String.init) : [word]
        let canonical = parts.map { part in allowedValues.first { $0.lowercased() == part.lowercased() } }
        guard canonical.allSatisfy({ $0 != nil }) else { return nil }
        return canonical.compactMap { $0 }.joined(separator: ",")
    }

    /// The usage message for a value `accepted` refused.
    func refusal(_ word: String) -> String {
        "\(name) must be \(Self.list(allowedValues, "or")), not '\(word)'"
    }

    /// "a, b or c".
    static func list(_ words: [String], _ conjunction: String) -> String {
        words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " \(conjunction) " + words[words.count - 1]
    }
}

/// One form of a command's synopsis: the words before its options, the options it takes (by name, in order), and the
/// words after them.
struct Usage: Sendable {
    /// Words before the options ("check [FILE]", "PATH|URL|-...").
    var before = ""
    /// Options of this form that must be given, shown without brackets.
    var required: [String] = []
    /// Options of this form that may be given; nil for every declared option not required here.
    var optional: [String]?
    /// Words after the options ("LABEL=SOURCE...").
    var after = ""
}

/// Options several commands take with the same meaning.
extension CommandOption {
    static let configuration = option("--config", "FILE", "The pipeline configuration.", default: "pipeline.json")
    static let catalogID = option("--catalog", "ID", "The catalog, needed when the configuration has several.")
    static let logFormat = option("--log-format", "FORMAT", "How the log on stderr is written: json is one JSON object a line, "
                                  + "early errors too.", default: "human", allowed: ["human", "json"])
    static let systemNames = ["auto"] + CatalogSystem.allCases.map(\.rawValue)
    /// `--color`, for output that is coloured when `auto` finds a terminal.
    static func color(_ what: String) -> CommandOption {
        option("--color", "WHEN", "\(what): auto colours a terminal, unless NO_COLOR is set or TERM=dumb.",
               default: "auto", allowed: ["auto", "always", "never"])
    }

    /// `--system`, the parser for the pages; auto is whichever recognizes a page.
    static func system(_ help: String) -> CommandOption {
        option("--system", "SYSTEM", help, default: "auto", allowed: systemNames)
    }
}
