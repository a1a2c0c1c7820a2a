import CatalogKit
import Foundation

/// `gvingest search`: finds courses in a published catalog.json.
enum SearchCommand: Command {
    static let name = "search"
    static let summary = "Find courses in a published catalog.json by code, title or description, with filters."
    static let options: [CommandOption] = [
        .option("--catalog", "FILE", "The published catalog to search (default: the catalog.json in the outputs of --config "
                + "FILE, or of pipeline.json when there is one here, else out/catalog.json)."),
        .option("--config", "FILE", "Search the catalog this configuration publishes (its outputs.directory)."),
        .option("--subject", "S", "Only courses of this subject (CIS)."),
        .option("--level", "LEVEL", "Only courses of this level.", allowed: CourseLevel.allCases.map(\.rawValue)),
        .option("--credits", "N", "Only courses that can be taken for N credits (N within the credit range)."),
        .option("--requires", "CODE", "Only courses whose prerequisite or corequisite names CODE (\"CIS 162\", cis162)."),
        .flag("--json", "Print one JSON array of the matching course records, each with \"match\": code, title, description "
              + "(any word elsewhere), or filters when no QUERY was given."),
        .option("--format", "FORMAT", "json (the same as --json), jsonl (one record a line) or csv (a header, then id, name, "
                + "subject, number, title, credits, level, prerequisiteString, corequisiteString, description, url, match).",
                allowed: RecordFormat.allCases.map(\.rawValue)),
    ]
    static let usages = [Usage(before: "[QUERY...]")]
    static let discussion = """
    Finds courses in a published catalog by code, title or description (any case, accents
    ignored; "cis162" finds CIS 162). The site's search ranks the same way: the exact code, then
    codes starting with QUERY (a subject), the exact title, titles starting with QUERY, titles
    with every word of QUERY, then courses with every word in the code, title or description.
    A word matches the start of a word ("calc" finds Calculus). Ties go to the shorter title,
    then to code order. With no QUERY, every course passing the filters is listed in code order.
    --catalog and --config exclude each other.
    """
    static let exitStatus = """
    Exit status: 0 the search ran (with no match, "no courses match" goes to stderr),
    64 bad usage, 65 the file is not a catalog or a course's member has the wrong type, 66 the
    catalog can't be read.
    """

    static func run(_ words: [String]) async throws -> ExitStatus {
        let arguments = try parseArguments(words)
        var queryWords = arguments.positional
        var query = CatalogQuery()
        query.subject = arguments.value("--subject")
        query.level = try arguments.value("--level", "must be developmental, undergraduate, graduate or doctoral") { CourseLevel(rawValue: $0.lowercased())?.rawValue }
        query.credits = try arguments.value("--credits", "needs a number of credits, 0 or more") { Double($0).flatMap { $0 >= 0 ? $0 : nil } }
        if let text = arguments.value("--requires") {
            if let code = CourseCode(parsing: text) {
                query.requires = code
            } else if let number = queryWords.first, let code = CourseCode(parsing: "\(text) \(number)") {
                // `--requires CIS 162` unquoted: the number arrives as the first word of the query.
                query.requires = code
                queryWords.removeFirst()
            } else {
                throw UsageError(message: "--requires needs a course code like \"CIS 162\", not '\(text)'")
            }
        }
        query.text = queryWords.joined(separator: " ")
        guard !query.isEmpty else { throw UsageError(message: "give a QUERY or a filter (--subject, --level, --credits, --requires)") }

        let format = try RecordFormat.chosen(arguments)
        let path = try catalogPath(arguments)
        let file = URL(fileURLWithPath: path)
        let bytes = try CommandFailure.catching(.missingInput, "\(path): ") { try FileBytes.read(file, limit: FileBytes.Limit.document) }
        let courses = try CommandFailure.catching(.invalidData, "\(path): not a catalog: ") {
            try CatalogSearch.courses(in: bytes)
        }
        let hits = CatalogSearch.search(courses, query)
        if let format {
            let records = hits.map { hit in
                guard case var .object(record) = JSONValue(encoding: hit.course.record) else { return JSONValue.null }
                record["match"] = .string(hit.match.rawValue)
                return .object(record)
            }
            print(format.text(records, extraColumns: ["match"]), terminator: "")
        } else {
            for hit in hits { print(line(hit)) }
        }
        if hits.isEmpty { printError("gvingest search: no courses match") }
        return .ok
    }

    /// "CIS 162  Computer Science I  (4 credits, Undergraduate; title)".
    static func line(_ hit: SearchHit) -> String {
        let course = hit.course
        let facts = [course.record.creditsPhrase, course.level].compactMap { $0 }
        let matched = hit.match == .filters ? "" : "; matched \(hit.match.rawValue)"
        return "\(course.name)  \(course.title)  (\(facts.joined(separator: ", "))\(matched))"
    }

    /// `--catalog`, else the catalog.json a configuration publishes (`--config`, or pipeline.json when present).
    static func catalogPath(_ arguments: Arguments) throws -> String {
        if let catalog = arguments.value("--catalog") {
            guard arguments.value("--config") == nil else { throw UsageError(message: "--catalog names the file; it does not go with --config") }
            return catalog
        }
        let configPath = arguments.value("--config") ?? (FileManager.default.fileExists(atPath: "pipeline.json") ? "pipeline.json" : nil)
        guard let configPath else { return "out/catalog.json" }
        return try loadConfiguration(configPath).outputs.directory.appendingPathComponent("catalog.json").path
    }
}
