import CatalogKit
import Foundation

/// A usage mistake: reported with the command's usage line, exit status 64.
struct UsageError: Error {
    var message: String
}

/// Command-line words split into positionals, `--flag`s and `--option value`s.
struct Arguments {
    var positional: [String] = []
    var values: [String: [String]] = [:]
    var flags: Set<String> = []

    /// Parses `words` against the options a command declares; `--name=value` works too. A value an option does not
    /// allow is a usage error; an allowed one is kept in its declared spelling.
    init(_ words: [String], options declared: [CommandOption]) throws(UsageError) {
        var rest = words[...]
        var onlyPositionals = false
        while let word = rest.popFirst() {
            if onlyPositionals || !word.hasPrefix("-") || word == "-" {
                positional.append(word)
                continue
            }
            if word == "--" {
                onlyPositionals = true
                continue
            }
            let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]), inlineValue = parts.count > 1 ? String(parts[1]) : nil
            guard let option = declared.first(where: { $0.name == name }) else {
                let hint = closestName(to: name, among: declared.map(\.name).sorted(), within: 3).map { " (did you mean \($0)?)" } ?? ""
                throw UsageError(message: "unknown option \(name)\(hint)")
            }
            if option.isFlag {
                guard inlineValue == nil else { throw UsageError(message: "\(name) takes no value") }
                flags.insert(name)
            } else {
                guard let value = inlineValue ?? rest.popFirst(), !value.isEmpty else { throw UsageError(message: "\(name) needs a value") }
                guard let accepted = option.accepted(value) else { throw UsageError(message: option.refusal(value)) }
                values[name, default: []].append(accepted)
            }
        }
    }

    func value(_ name: String) -> String? { values[name]?.last }
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// `name`'s value as `read` takes it, nil when not given; one it refuses is a usage error naming what is `expected`.
    func value<T>(_ name: String, _ expected: String, _ read: (String) -> T?) throws(UsageError) -> T? {
        guard let word = value(name) else { return nil }
        guard let result = read(word) else { throw UsageError(message: "\(name) \(expected), not '\(word)'") }
        return result
    }
}

/// Reads a pipeline configuration, alike for every command: 66 when unreadable, 65 when invalid.
func loadConfiguration(_ path: String) throws(CommandFailure) -> PipelineConfig {
    let bytes = try CommandFailure.catching(.missingInput, "\(path): cannot read the configuration: ") { try FileBytes.read(path: path, limit: FileBytes.Limit.configuration) }
    return try Result { try PipelineConfig.parse(Data(bytes), file: URL(fileURLWithPath: path)) }
        .mapError { CommandFailure("\($0)\(rulesHint(path))", .invalidData) }.get()
}

/// The configuration `--config` names (default pipeline.json), read and validated, and the catalog `--catalog` names.
func configuredCatalog(_ arguments: Arguments) throws -> (path: String, config: PipelineConfig, catalog: CatalogConfig) {
    let path = arguments.value("--config") ?? "pipeline.json"
    let config = try loadConfiguration(path)
    return (path, config, try oneCatalog(of: config, at: path, named: arguments.value("--catalog")))
}

/// The `eligible` catalog `--catalog` names, or the only one; `kind` names them in messages ("catalogs with rules").
func oneCatalog(of config: PipelineConfig, at path: String, named id: String?, kind: String = "catalogs",
                where eligible: (CatalogConfig) -> Bool = { _ in true }) throws(UsageError) -> CatalogConfig {
    let candidates = config.catalogs.filter(eligible)
    let ids = candidates.map(\.id).joined(separator: ", ")
    guard !candidates.isEmpty else { throw UsageError(message: "\(path) has no \(kind)") }
    if let id {
        guard let catalog = candidates.first(where: { $0.id == id }) else {
            throw UsageError(message: "no catalog '\(id)' among the \(kind) of \(path) (\(ids))")
        }
        return catalog
    }
    guard candidates.count == 1 else { throw UsageError(message: "\(path) has \(candidates.count) \(kind) (\(ids)); name one with --catalog") }
    return candidates[0]
}

/// A bare rules object given as a configuration gets "unknown key" for each of its keys; say where rules go.
func rulesHint(_ path: String) -> String {
    guard let data = FileManager.default.contents(atPath: path),
          let root = try? JSONFile.decode([String: JSONValue].self, from: data), root["catalogs"] == nil,
          !Set(root.keys).isDisjoint(with: ["course", "code", "listing", "labels"]) else { return "" }
    return "\nhint: \(path) looks like a rules object; rules go under catalogs[].rules of a configuration: "
        + #"{"schemaVersion": 1, "catalogs": [{"id": "…", "name": "…", "system": "…", "source": {…}, "rules": {"course": …}}]}"#
}

extension CommandFailure {
    /// `body`'s value; what it throws ends the command for `cause`, with the error's text after `context`.
    static func catching<T>(_ cause: CatalogError.Cause, _ context: String = "",
                            _ body: () throws -> T) throws(CommandFailure) -> T {
        try Result(catching: body).mapError { CommandFailure(context + "\($0)", cause) }.get()
    }
}

/// `--system`: which parser reads the pages (auto when not given).
func systemChoice(_ arguments: Arguments) throws(UsageError) -> SystemChoice {
    try arguments.value("--system", "must be \(SystemChoice.argumentList)", SystemChoice.init(argument:)) ?? .auto
}

/// `--color=auto|always|never`: auto colours a terminal unless `NO_COLOR` is set or `TERM` is `dumb`.
func stdoutColors(_ arguments: Arguments) throws(UsageError) -> Bool {
    switch arguments.value("--color") ?? "auto" {
    case "always": return true
    case "never": return false
    case "auto": return isCapableTerminal(STDOUT_FILENO) && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
    case let word: throw UsageError(message: "--color must be auto, always or never, not '\(word)'")
    }
}

/// A terminal that understands escape sequences (colours, a progress line redrawn in place).
func isCapableTerminal(_ descriptor: Int32) -> Bool {
    isatty(descriptor) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
}

extension SystemChoice {
    /// Reads `auto` or a system's name (`gvsu`, `acalog`, `courseleaf`, `banner`).
    init?(argument: String) {
        guard let choice = argument == "auto" ? .auto : CatalogSystem(rawValue: argument).map(Self.fixed) else { return nil }
        self = choice
    }

    /// "auto, gvsu, acalog, courseleaf or banner", for usage messages.
    static var argumentList: String { "auto, " + systemList }

    /// "gvsu, acalog, courseleaf or banner", for help texts.
    static var systemList: String {
        let names = CatalogSystem.allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    }

    /// "auto|gvsu|acalog|courseleaf|banner", for a synopsis.
    static var synopsis: String { (["auto"] + CatalogSystem.allCases.map(\.rawValue)).joined(separator: "|") }
}
