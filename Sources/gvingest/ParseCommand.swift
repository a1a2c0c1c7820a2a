import CatalogKit
import Foundation

/// `gvingest parse`: the maintainer's view of what a parser extracts from saved pages.
enum ParseCommand: Command {
    static let name = "parse"
    static let summary = "Parse saved catalog pages or URLs and show what each field came from."
    static let options: [CommandOption] = [
        .system("Which parser reads the pages: auto is whichever system recognizes the page."),
        .option("--config", "FILE", "Normalize with the subject aliases and level ranges of a pipeline configuration "
                + "(default: no aliases, levels from the pages' own numbering scheme)."),
        .option("--rules", "FILE", "Read the pages by the declarative rules of a catalog of configuration FILE "
                + "(catalogs[].rules: XPaths per field, label patterns, listing), and normalize with its tables; --catalog "
                + "ID when several catalogs have rules."),
        .option("--catalog", "ID", "With --rules: the catalog whose rules read the pages."),
        .flag("--json", "Print one JSON array of normalized course records instead, sorted by id: id, subject, number, name, "
              + "title, credits, level, description, prerequisite (tree), prerequisiteString, prerequisiteMarkdown, "
              + "prerequisiteCourses, the same for corequisites, fields, url (the course's page), sourceUrl (where it was "
              + "read from), and the rule behind each field under \"sources\"."),
        .option("--format", "FORMAT", "json (the same as --json), jsonl (one record a line) or csv (a header, then id, name, "
                + "subject, number, title, credits, level, prerequisiteString, corequisiteString, description, url).",
                allowed: RecordFormat.allCases.map(\.rawValue)),
    ]
    static let usages = [
        Usage(before: "PATH|URL|-...", optional: ["--system", "--config", "--json", "--format"]),
        Usage(required: ["--rules"], optional: ["--catalog", "--json", "--format"], after: "PATH|URL|-..."),
    ]
    static let discussion = """
    Parses catalog pages and shows every field of every course, with the rule (XPath or label)
    each value came from. A directory (or a link to one) means every .html and .htm file under it
    (a link to a file is read; one to a folder is not followed). - reads one page from standard input.

    A field a course page lacks is a warning on stderr naming the page and the field, with a hint
    when an unmapped label looks like it ("Credit Hrs:" looks like credits). A page with no course
    says which rules (XPaths) matched nothing and the nearest candidate on the page (an element
    starting with a course code), or which known course-less page it is (an A–Z index, a Banner 9
    fragment).
    """
    static let exitStatus = """
    Exit status: 0 every page gave a course or a listing, 65 some gave none (or the configuration
    is invalid), 66 an input or the configuration could not be read, 73 the JSON could not be
    written (a full disk), 64 bad usage.
    """

    static func run(_ words: [String]) async throws -> ExitStatus {
        let arguments = try parseArguments(words)
        guard !arguments.positional.isEmpty else { throw UsageError(message: "name at least one page, directory or URL") }
        let format = try RecordFormat.chosen(arguments)
        var system = try systemChoice(arguments)
        var rules = NormalizationRules.standard
        if let path = arguments.value("--rules") {
            guard arguments.value("--system") == nil, arguments.value("--config") == nil else {
                throw UsageError(message: "--rules goes with neither --system nor --config")
            }
            let config = try loadConfiguration(path)
            let catalog = try oneCatalog(of: config, at: path, named: arguments.value("--catalog"), kind: "catalogs with rules") {
                $0.rules != nil
            }
            if let catalogRules = catalog.rules { system = .rules(catalogRules, catalog.system) }
            rules = config.normalize
        } else if arguments.value("--catalog") != nil {
            throw UsageError(message: "--catalog goes with --rules")
        }
        if let path = arguments.value("--config") { rules = try loadConfiguration(path).normalize }
        guard arguments.positional.filter({ $0 == "-" }).count <= 1 else { throw UsageError(message: "- (standard input) can be named once") }
        let (inputs, inputErrors) = PageInputs.expand(arguments.positional)
        for error in inputErrors { printError("gvingest parse: \(error)\(SourceRun.schemeHint(error.name))") }
        var results = await ParseRunner.run(inputs, parser: PageParser(system: system))

        var unreadable = !inputErrors.isEmpty
        var empty = 0
        // One write for all of them: a catalog can give thousands of warnings, and a write each took longer.
        var messages = ""
        for page in results.indices {
            if results[page].unreadable {
                unreadable = true
                messages += "gvingest parse: \(results[page].input): \(results[page].failure ?? "cannot read")\n"
            } else if !results[page].yieldedRecord {
                let result = results[page]  // no course on it to copy
                empty += 1
                let remedy = result.system == nil ? ExitStatus.remedy(.nameSystem, command: Self.self).map { " (\($0))" } ?? "" : ""
                let why = result.failure.map { ": \($0)" } ?? " (parsed as \(result.system?.rawValue ?? "?"): \(result.systemRule)\(remedy))"
                messages += "gvingest parse: \(result.input): no course found\(why)\n"
                if result.failure == nil, let diagnosis = noCourseDiagnosis(result, inputs: inputs) {
                    messages += "gvingest parse: \(result.input): \(diagnosis)\n"
                }
            }
            // Read in place, not copied out of the array: a copy retains every field of every course of the page.
            results[page].appendCourseWarnings(to: &messages)
        }
        if !messages.isEmpty { FileHandle.standardError.write(Data(messages.utf8)) }
        if let format {
            let courses = Normalizer(rules: rules).normalize(catalog: results.takeCourses())
            do {
                if format == .json {
                    try FileHandle.standardOutput.write(contentsOf: ParseOutput.json(courses: courses) + [UInt8(ascii: "\n")])
                } else {
                    let records = courses.map { JSONValue(encoding: CourseRecord($0, diagnostics: true)) }
                    try FileHandle.standardOutput.write(contentsOf: Data(format.text(records).utf8))
                }
            } catch {
                throw CommandFailure("cannot write the output: \(error.systemReason)", .cannotWrite)
            }
        } else {
            let scheme = Normalizer(rules: rules).numberingScheme(for: results.lazy.flatMap { $0.courses.lazy.map(\.code) })
            for result in results where !result.unreadable { print(ParseOutput.human(result, rules: rules, scheme: scheme)) }
            let courses = results.reduce(0) { $0 + $1.courses.count }
            let listings = results.filter { $0.listing != nil }.count
            printError("gvingest parse: \(results.count) page(s): \(courses) course(s), \(listings) listing(s), \(empty) without a course")
        }
        if unreadable { return .noInput }
        return empty > 0 ? .dataError : .ok
    }

    /// Why a saved page gave no course; pages from the web are not fetched again for it.
    static func noCourseDiagnosis(_ result: PageResult, inputs: [PageInput]) -> String? {
        guard let input = inputs.first(where: { $0.name == result.input }), let path = input.path, path != FileBytes.standardInput,
              let bytes = try? FileBytes.read(URL(fileURLWithPath: path), limit: FileBytes.Limit.page) else { return nil }
        return ParseDiagnosis.noCourse(bytes: bytes, url: input.url, system: result.system)
    }
}

extension PageResult {
    /// The warnings and hints `gvingest parse` gives about the courses of this page, a line each.
    fileprivate func appendCourseWarnings(to messages: inout String) {
        for warning in unreadableCourseWarnings + missingFieldWarnings { messages += "gvingest parse: warning: \(warning)\n" }
        for index in courses.indices where courses[index].creditsText == nil || courses[index].description.isEmpty {
            let course = courses[index]
            for (field, isMissing) in [("credits", course.creditsText == nil), ("description", course.description.isEmpty)] where isMissing {
                if let hint = ParseDiagnosis.unmappedLabel(for: field, in: course) {
                    messages += "gvingest parse: hint: \(input): \(course.code): \(hint)\n"
                }
            }
        }
    }
}
