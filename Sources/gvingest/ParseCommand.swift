import CatalogKit
import Foundation

/// `gvingest parse`: the maintainer's view of what a parser extracts from saved pages.
enum ParseCommand: Command {
    static let name = "parse"
    static let help = """
    Usage: gvingest parse PATH|URL... [--system auto|gvsu|acalog|courseleaf|banner] [--config FILE] [--json]

    Parses catalog pages and shows every field of every course, with the rule (XPath or label)
    each value came from. A directory means every .html and .htm file under it.

    Options:
      --system S   Which parser reads the pages: auto (default; recognizes Acalog, CourseLeaf,
                   Banner and GVSU pages), gvsu, acalog, courseleaf or banner.
      --config F   Normalize with the subject aliases and level ranges of a pipeline configuration
                   (default: GVSU's number ranges, no aliases).
      --json       Print one JSON array of normalized course records instead, sorted by id: id,
                   subject, number, name, title, credits, level, description, prerequisite (tree),
                   prerequisiteString, prerequisiteMarkdown, prerequisiteCourses, the same for
                   corequisites, fields, url, and the rule behind each field under "sources".
      --help       Show this help.

    A field a course page lacks is a warning on stderr naming the page and the field.
    Exit status: 0 every page gave a course or a listing, 65 some gave none,
    66 an input could not be read, 64 bad usage.
    """

    static func run(_ words: [String]) async throws(UsageError) -> ExitStatus {
        let arguments = try Arguments(words, flags: ["--json"], options: ["--system", "--config"])
        guard !arguments.positional.isEmpty else { throw UsageError(message: "name at least one page, directory or URL") }
        let systemWord = arguments.value("--system") ?? "auto"
        guard let system = SystemChoice(argument: systemWord) else {
            throw UsageError(message: "--system must be \(SystemChoice.argumentList), not '\(systemWord)'")
        }
        var rules = NormalizationRules.gvsu
        if let path = arguments.value("--config") {
            do {
                rules = try PipelineConfig.load(URL(fileURLWithPath: path)).normalize
            } catch {
                printError("gvingest parse: \(error)")
                return .noInput
            }
        }
        let (inputs, inputErrors) = PageInputs.expand(arguments.positional)
        for error in inputErrors { printError("gvingest parse: \(error)") }
        let results = await ParseRunner.run(inputs, parser: PageParser(system: system))

        var unreadable = !inputErrors.isEmpty
        var empty = 0
        for result in results {
            if result.unreadable {
                unreadable = true
                printError("gvingest parse: \(result.input): \(result.failure ?? "cannot read")")
            } else if !result.yieldedRecord {
                empty += 1
                let why = result.failure.map { ": \($0)" } ?? " (parsed as \(result.system?.rawValue ?? "?"): \(result.systemRule))"
                printError("gvingest parse: \(result.input): no course found\(why)")
            }
            for warning in result.missingFieldWarnings { printError("gvingest parse: warning: \(warning)") }
        }
        if arguments.has("--json") {
            print(ParseOutput.json(results, rules: rules))
        } else {
            for result in results where !result.unreadable { print(ParseOutput.human(result, rules: rules)) }
            let courses = results.reduce(0) { $0 + $1.courses.count }
            let listings = results.filter { $0.listing != nil }.count
            printError("gvingest parse: \(results.count) page(s): \(courses) course(s), \(listings) listing(s), \(empty) without a course")
        }
        if unreadable { return .noInput }
        return empty > 0 ? .dataError : .ok
    }
}
