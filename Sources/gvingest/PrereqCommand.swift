import CatalogKit
import Foundation

/// `gvingest prereq`: shows how a prerequisite sentence is read.
enum PrereqCommand: Command {
    static let name = "prereq"
    static let summary = "Show how a prerequisite sentence is read, as a tree."
    static let options: [CommandOption] = [
        .flag("--json", "Print one object {\"text\": canonical string, \"tree\": …, \"courses\": […]}."),
    ]
    static let usages = [Usage(before: "TEXT...|-")]
    static let discussion = """
    Parses prerequisite prose (the words are joined with spaces; - reads it from standard input)
    and prints the tree indented: all of / any of / at least N of, courses with minimum grades and
    "concurrent", class standing, programs, permission, exams and scores, and any words not
    understood, kept verbatim.
    """
    static let exitStatus = """
    Exit status: 0 parsed, 65 the text is empty or "None", 66 standard input could not be read,
    64 bad usage.
    """

    static func run(_ words: [String]) async throws -> ExitStatus {
        let arguments = try parseArguments(words)
        guard !arguments.positional.isEmpty else { throw UsageError(message: "give the prerequisite text") }
        var words = arguments.positional
        if words == ["-"] {
            let bytes = try CommandFailure.catching(.missingInput, "standard input: cannot read: ") { try FileBytes.read(path: FileBytes.standardInput, limit: FileBytes.Limit.page) }
            words = [String(decoding: bytes, as: UTF8.self)]
        }
        let text = TextCleaner.cleanLine(words.joined(separator: " "))
        let tree = RequisiteParser.parse(text)
        if arguments.has("--json") {
            struct Reading: Encodable {
                var text: String
                @Nullable var tree: Requisite?
                var courses: [String]
            }
            let reading = Reading(text: RequisiteParser.canonicalText(text), tree: tree, courses: tree?.courses ?? [])
            print(String(decoding: JSONFile.encoded(reading), as: UTF8.self))
        } else if let tree {
            print(tree.indentedDescription())
        }
        if tree == nil { printError("gvingest prereq: no requirement in \"\(text)\"") }
        return tree == nil ? .dataError : .ok
    }
}
