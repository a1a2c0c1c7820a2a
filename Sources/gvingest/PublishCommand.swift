import CatalogKit
import Foundation

/// `gvingest publish --firestore PROJECT --out DIR`: syncs a run's outputs into the GVCourse app's Firestore.
enum PublishCommand: Command {
    static let name = "publish"
    static let summary = "Sync a run's outputs into the GVCourse app's Firestore (incremental)."
    static let options: [CommandOption] = [
        .option("--firestore", "PROJECT", "The Google Cloud project."),
        .option("--out", "DIR", "The run's output directory."),
        .option("--database", "ID", "The database.", default: "(default)"),
        .option("--courses-collection", "NAME", "The collection of course documents.", default: "courses"),
        .option("--news-collection", "NAME", "The collection of news documents.", default: "news"),
        .option("--token-command", "CMD", "A shell command printing an OAuth access token."),
        .option("--deadline", "SECONDS", "End the whole publish, every request and retry, after this long (1 to 86400).",
                default: "300"),
        .option("--parallel", "N", "Commits in flight at once, each holding up to 500 writes (1 to 64).", default: "8"),
        .flag("--accept-removals", "Delete more course documents than the removal guard allows."),
        .flag("--reconcile", "Compare with what Firestore holds and repair drift: what every publish does (no local record "
              + "is kept to trust instead), so this only says so."),
        .flag("--dry-run", "Compare with Firestore and report; write nothing."),
        .flag("--json", "Print {\"courses\": {\"written\": N, \"deleted\": N, \"unchanged\": N}, \"news\": {…}}."),
    ]
    static let usages = [Usage(required: ["--firestore", "--out"])]
    static let discussion = """
    Syncs DIR/catalog.json and DIR/news.json, the outputs of a complete successful `gvingest run`
    (DIR/run-report.json says so), into Firestore over its REST API: one document per course
    (id = course id) in the courses collection, one per news item (id = news id) in the news
    collection. Only documents whose content differs from what Firestore holds are written; course
    documents no longer in the catalog are deleted (at most guards.maximumRemovalFraction, 10 %, of
    those held, unless --accept-removals); news documents are never deleted. A second publish of the
    same outputs writes nothing. `gvingest run` publishes by itself when pipeline.json has a
    publish.firestore section.

    Credentials: FIRESTORE_EMULATOR_HOST=HOST:PORT points at an emulator (no credentials);
    otherwise GOOGLE_OAUTH_ACCESS_TOKEN, or the output of --token-command (run with /bin/sh -c,
    e.g. 'gcloud auth print-access-token').
    """
    static let exitStatus = """
    Exit status: 0 ok, 64 bad usage, 65 the outputs are not from a complete successful run or
    are invalid, or the removal guard refused, 66 an output can't be read, 69 Firestore refused a
    request, 75 Firestore still failing for passing reasons (429, 503, ABORTED, UNAVAILABLE, no
    connection) at the deadline, or a run holds the outputs' lock, 77 no credentials, or refused.
    """

    static func run(_ words: [String]) async throws -> ExitStatus {
        let arguments = try parseArguments(words)
        guard arguments.positional.isEmpty else { throw UsageError(message: "unexpected argument '\(arguments.positional[0])'") }
        guard let project = arguments.value("--firestore") else { throw UsageError(message: "--firestore PROJECT is needed") }
        guard let out = arguments.value("--out") else { throw UsageError(message: "--out DIR is needed") }
        var settings = FirestoreSettings(project: project)
        for name in FirestoreSettings.Name.allCases {
            settings[keyPath: name.setting] = arguments.value(name.option) ?? settings[keyPath: name.setting]
            if let message = name.problem(settings[keyPath: name.setting]) { throw UsageError(message: "\(name.option): \(message)") }
        }
        guard settings.coursesCollection != settings.newsCollection else { throw UsageError(message: "--courses-collection and --news-collection must differ") }
        settings.deadlineSeconds = try arguments.value("--deadline", "must be a whole number of seconds from 1 to 86400") {
            Int($0).flatMap { (1...86_400).contains($0) ? $0 : nil }
        } ?? settings.deadlineSeconds
        settings.tokenCommand = arguments.value("--token-command").map { ["/bin/sh", "-c", $0] }
        var options = FirestorePublishOptions()
        options.acceptRemovals = arguments.has("--accept-removals")
        options.dryRun = arguments.has("--dry-run")
        options.parallelCommits = try arguments.value("--parallel", "must be a whole number from 1 to 64") {
            Int($0).flatMap { (1...64).contains($0) ? $0 : nil }
        } ?? options.parallelCommits

        let directory = URL(fileURLWithPath: out).standardizedFileURL
        if let problem = FileBytes.directoryProblem(directory.path) {
            throw CommandFailure("\(directory.path): \(problem); publish reads the outputs of a complete `gvingest run`",
                                 .missingInput)
        }
        // A run must not rewrite the outputs while they are read.
        let lock = try RunLock(directory: directory)
        defer { withExtendedLifetime(lock) {} }
        let summary = try await FirestorePublisher.publish(directory: directory, checkReport: true, settings: settings,
                                                           options: options)
        let line = (options.dryRun ? "dry run, would write: " : "") + summary.line
        print(arguments.has("--json") ? summary.json.serialized() : line)
        return .ok
    }
}

extension FirestoreSettings.Name {
    /// The option of `gvingest publish` that gives this setting.
    var option: String {
        switch self {
        case .project: "--firestore"
        case .database: "--database"
        case .coursesCollection: "--courses-collection"
        case .newsCollection: "--news-collection"
        }
    }
}
