import CatalogKit
import Foundation

/// `gvingest history COURSE`: one course's timeline from the newest snapshot.
enum HistoryCommand: Command {
    static let name = "history"
    static let summary = "Print one course's timeline: its first edition, renumberings, changes, removals."
    static let options: [CommandOption] = [
        .configuration,
        .catalogID,
        .flag("--json", "Print {\"name\", \"title\", \"firstEdition\", \"createdAt\", \"inCatalog\", \"history\"}."),
    ]
    static let usages = [Usage(before: "COURSE")]
    static let discussion = """
    Prints the timeline of COURSE (a code such as "CIS 162", or an id such as cis-162) from the
    catalog's newest snapshot: the edition it first appeared in, then each edition that renumbered,
    changed, removed or brought it back, by the editions' names ("2022-2023 Undergraduate Catalog")
    and dates as dates ("1 Aug 2022"; --json keeps RFC 3339). A course no longer in the catalog is
    found too. The history is as deep as the snapshots go: `gvingest backfill` builds it from
    archived editions.
    """
    static let exitStatus = """
    Exit status: 0 found, 64 bad usage, 65 no such course, 66 no snapshot or an unreadable one.
    """

    static func run(_ words: [String]) async throws -> ExitStatus {
        let arguments = try parseArguments(words)
        guard arguments.positional.count == 1 || arguments.positional.count == 2 else {
            throw UsageError(message: "name one course: a code such as \"CIS 162\" or an id such as cis-162")
        }
        let (_, config, catalog) = try configuredCatalog(arguments)
        let store = config.outputs.store(for: catalog.id)
        guard let snapshot = try CommandFailure.catching(.missingInput, "", { try store.latest()?.snapshot }) else {
            throw CommandFailure("\(store.directory.path): no snapshot yet; run or backfill first", .missingInput)
        }
        let asked = arguments.positional.joined(separator: " ")
        let code = CourseCode(parsing: asked)?.description, id = asked.lowercased()
        let found: (name: String, title: String, first: String?, created: String?, history: [CourseEvent], inCatalog: Bool)
        if let course = snapshot.courses.first(where: { $0.id == id || $0.name == code }) {
            found = (course.name, course.title, course.firstEdition, course.createdAt, course.history ?? [], true)
        } else if let gone = snapshot.retired.first(where: { $0.id == id || $0.name == code }) {
            found = (gone.name, gone.title, gone.firstEdition, gone.createdAt, gone.history, false)
        } else {
            throw CommandFailure("no course \(asked) in \(catalog.id)'s newest snapshot or among the courses it retired", .invalidData)
        }
        if arguments.has("--json") {
            let history = JSONValue(encoding: found.history)
            let object: JSONValue = .object(["name": .string(found.name), "title": .string(found.title),
                                             "firstEdition": found.first.map(JSONValue.string) ?? .null,
                                             "createdAt": found.created.map(JSONValue.string) ?? .null,
                                             "inCatalog": .bool(found.inCatalog), "history": history])
            print(object.serialized())
            return .ok
        }
        print("\(found.name) — \(found.title)\(found.inCatalog ? "" : " (no longer in the catalog)")")
        print("first edition: \(found.first.map(EditionLabel.shown) ?? "before the history began"), "
            + "created \(found.created.map { Timestamp.day($0) ?? $0 } ?? "(unknown)")")
        for event in found.history {
            let edition = EditionLabel.shown(event.edition)
            print("  \(edition.padding(toLength: max(12, edition.count), withPad: " ", startingAt: 0))  \(event.summary)")
        }
        return .ok
    }
}
