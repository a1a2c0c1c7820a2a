import CatalogKit
import Foundation

/// `gvingest prereq`: shows how a prerequisite sentence is read.
enum PrereqCommand: Command {
    static let name = "prereq"
    static let help = """
    Usage: gvingest prereq TEXT... [--json]

    Parses prerequisite prose (the words are joined with spaces) and prints the tree indented:
    all of / any of / at least N of, courses with minimum grades and "concurrent", class standing,
    programs, permission, exams and scores, and any words not understood, kept verbatim.
    With --json, prints one object {"text": canonical string, "tree": …, "courses": […]}.

    Exit status: 0 parsed, 65 the text is empty or "None", 64 bad usage.
    """

    static func run(_ words: [String]) async throws(UsageError) -> ExitStatus {
        let arguments = try Arguments(words, flags: ["--json"], options: [])
        guard !arguments.positional.isEmpty else { throw UsageError(message: "give the prerequisite text") }
        let text = TextCleaner.cleanLine(arguments.positional.joined(separator: " "))
        let tree = RequisiteParser.parse(text)
        if arguments.has("--json") {
            print(JSONValue.object([
                "text": .string(RequisiteParser.canonicalText(text)), "tree": .from(tree, \.json),
                "courses": .array((tree?.courses ?? []).map(JSONValue.string)),
            ]).serialized())
        } else if let tree {
            print(tree.indentedDescription())
        }
        if tree == nil { printError("gvingest prereq: no requirement in \"\(text)\"") }
        return tree == nil ? .dataError : .ok
    }
}
