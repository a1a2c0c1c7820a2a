import CatalogKit
import Foundation

/// `gvingest diff`: what changed between two snapshots or published catalogs.
enum DiffCommand: Command {
    static let name = "diff"
    static let summary = "Compare two snapshots or catalogs: added, removed, renumbered and changed courses."
    static let options: [CommandOption] = [
        .option("--config", "FILE", "Find the snapshots through this configuration.", default: "pipeline.json"),
        .option("--catalog", "ID", "With --config: the catalog whose snapshots to compare."),
        .option("--snapshots", "DIR", "Compare the last two snapshots in DIR, one catalog's snapshot directory."),
        .flag("--json", "Print one object {\"added\", \"returned\", \"removed\", \"changed\", \"renumbered\"}, each a list of "
              + "entries with id, name and title; changed and renumbered entries carry \"changes\" ({field: {\"old\": …, "
              + "\"new\": …}}), renumbered ones \"from\" and \"to\" (the codes), returned ones \"lastEdition\" (the last "
              + "edition that listed them)."),
        .flag("--markdown", "Print a Markdown changelog."),
        .flag("--stat", "Print only the counts: \"3 added, 2 removed, 1 renumbered, 3 changed\"."),
        .flag("--quiet", "Print nothing; the exit status says whether they differ."),
        .option("--only", "KIND", "Show only these kinds of change.", allowed: DiffKind.allCases.map(\.rawValue),
                repeatable: true, commaSeparated: true),
        .color("The diff's colours"),
    ]
    static let usages = [Usage(before: "[OLD NEW]")]
    static let discussion = """
    Compares two catalogs course by course: added, returned (back after editions without it, as OLD's
    snapshot retired it), removed, renumbered (a new code with the same title and description that no
    other subject shares, or the number kept under a renamed subject) and changed, with each changed
    field's old and new value. White space (around punctuation too), ordering and computed fields
    (timestamps, fingerprints, sources, file and page URLs, the edition's name) are not changes.

    Without OLD and NEW, compares the last two snapshots of a catalog: those in --snapshots DIR, or in
    the snapshot directory of --config FILE (default pipeline.json) for --catalog ID (needed when it
    has several catalogs). OLD and NEW may be any two snapshot files or published catalog.json files
    (anything with a "courses" list of course records). Of courses with one id in a file, the first is
    compared, and a warning counts the others. --json, --markdown, --stat and --quiet exclude each other.
    """
    static let exitStatus = """
    Exit status, as diff(1): 0 no differences, 1 differences (of the kinds shown), 2 trouble (an input
    can't be read or is not a snapshot or catalog, fewer than two snapshots). Bad usage exits 64, as it
    does for every gvingest command.
    """

    static func run(_ words: [String]) async throws -> ExitStatus {
        let arguments = try parseArguments(words)
        let colors = try stdoutColors(arguments)
        guard ["--json", "--markdown", "--stat", "--quiet"].filter(arguments.has).count <= 1 else {
            throw UsageError(message: "choose one of --json, --markdown, --stat and --quiet")
        }
        // The parser has checked each word against DiffKind's names.
        let onlyWords = arguments.values["--only"]?.flatMap { $0.split(separator: ",") }
        let kinds = Set(onlyWords?.compactMap { DiffKind(rawValue: String($0)) } ?? DiffKind.allCases)
        let inputs: [(file: URL, label: String)]
        switch arguments.positional.count {
        case 2:
            guard arguments.value("--snapshots") == nil, arguments.value("--config") == nil, arguments.value("--catalog") == nil else {
                throw UsageError(message: "name two files, or use --snapshots/--config, not both")
            }
            inputs = arguments.positional.map { (URL(fileURLWithPath: $0), $0) }
        case 0: inputs = try lastTwo(arguments)
        default:
            throw UsageError(message: "name two files to compare (OLD NEW), or none for the last two snapshots")
        }

        // One file read at a time, and of each course only what comparing needs is kept: large catalogs fit in little memory.
        var labels: [String] = []
        var builder: CatalogDiff.Builder?
        var retired: [RetiredCourse] = []
        for input in inputs {
            do {
                let document = try CourseDocument.read(try FileBytes.read(input.file, limit: FileBytes.Limit.document),
                                                       header: Header.self, ComparableCourse.init)
                let courses = document.courses
                if builder == nil {
                    builder = CatalogDiff.Builder(old: courses)
                    retired = document.header.retired ?? []
                } else {
                    for course in courses { builder?.add(course) }
                }
                // "(2022-2023 Undergraduate Catalog, 1 Aug 2022)": the edition by its name, the day as a date.
                let day = document.header.capturedAt.map { Timestamp.day($0) ?? $0 }
                let edition = document.header.edition.map(EditionLabel.shown).flatMap { $0 == day ? nil : $0 }
                let shown = [edition, day].compactMap { $0 }
                labels.append(input.label + (shown.isEmpty ? "" : " (\(shown.joined(separator: ", ")))"))
            } catch {
                let why = (error as? FormatError).map { "not a snapshot or catalog: \($0.message)" } ?? "cannot read: \(error)"
                throw DiffTrouble(message: "\(input.label): \(why)")
            }
        }
        var whole = builder?.finish() ?? CatalogDiff()
        whole.markReturns(retired)
        let diff = whole.only(kinds)
        for (label, ids) in zip(inputs.map(\.label), [builder?.repeatedIDs.old ?? [], builder?.repeatedIDs.new ?? []]) where !ids.isEmpty {
            printError("gvingest diff: warning: \(label): \(ids.count) course(s) with an id met before (\(ids.prefix(3).joined(separator: ", ")))"
                + "; only the first course with an id is compared")
        }
        if arguments.has("--stat") {
            print(DiffReport.summary(diff))
        } else if arguments.has("--json") {
            print(DiffReport.json(diff).serialized())
        } else if arguments.has("--markdown") {
            print(DiffReport.markdown(diff, old: labels[0], new: labels[1]), terminator: "")
        } else if !arguments.has("--quiet") {
            print(DiffReport.human(diff, old: labels[0], new: labels[1], colors: colors), terminator: "")
        }
        return diff.isEmpty ? .ok : .differences
    }

    /// The last two snapshots `--snapshots` or `--config`/`--catalog` name; a missing store is trouble (2), not usage.
    static func lastTwo(_ arguments: Arguments) throws -> [(file: URL, label: String)] {
        let store: SnapshotStore
        if let directory = arguments.value("--snapshots") {
            guard arguments.value("--config") == nil, arguments.value("--catalog") == nil else {
                throw UsageError(message: "--snapshots names the directory itself; it does not go with --config or --catalog")
            }
            if let problem = FileBytes.directoryProblem(directory) { throw DiffTrouble(message: "\(directory): \(problem)") }
            store = SnapshotStore(directory: URL(fileURLWithPath: directory))
        } else {
            let path = arguments.value("--config") ?? "pipeline.json"
            let file = URL(fileURLWithPath: path)
            let config = try DiffTrouble.catching { try PipelineConfig.load(file) }
            store = config.outputs.store(for: try oneCatalog(of: config, at: path, named: arguments.value("--catalog")).id)
        }
        let entries = try DiffTrouble.catching { try store.list() }
        guard entries.count >= 2 else {
            throw DiffTrouble(message: "\(store.directory.path) has \(entries.count) snapshot(s); "
                + "a diff needs two (run the pipeline again, or name two files)")
        }
        return entries.suffix(2).map { ($0.file, $0.name) }
    }

    /// What a snapshot says beside its courses: its time, its edition, and the courses it had retired (a course among
    /// them in NEW is back, not new). A published catalog has none of them.
    private struct Header: Decodable {
        var capturedAt: String?
        var edition: String?
        var retired: [RetiredCourse]?
    }
}
