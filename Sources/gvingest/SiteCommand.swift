import CatalogKit
import Foundation

/// `gvingest site`: the catalog website, rendered from a run's outputs and snapshots.
enum SiteCommand: Command {
    static let name = "site"
    static let summary = "Render the catalog website (courses, prerequisite maps, search, what changed, health)."
    static let options: [CommandOption] = [
        .configuration,
        .catalogID,
        .option("--out", "DIR", "Where the site goes (default: outputs.site). DIR is replaced whole; a symbolic link, or a "
                + "folder holding files gvingest did not write, is refused."),
    ]
    static let discussion = """
    Renders a static website for people from the outputs of `gvingest run` (the configuration's
    outputs.directory): a home page, a page per subject and per course (every published field,
    requisites as links both ways, a prerequisite map with its text equivalent), search as you
    type, the news with its Atom feed, a "what changed" page for each pair of consecutive
    snapshots, and a health page (pages fetched, failed and not read, warnings by kind, fields
    per subject against the previous snapshot). catalog.json, news.json and news.atom are copied
    beside the pages. Every link is relative: open DIR/index.html in a browser, or publish DIR on
    any static host. The same outputs give the same bytes. `gvingest run` renders it by itself
    when outputs.site is set, and then also shows which rule of the page each field came from.
    """
    static let exitStatus = """
    Exit status: 0 ok, 64 bad usage, 65 a snapshot, news.json or run-report.json is not valid,
    or the configuration, 66 the configuration can't be read or the catalog has no snapshot yet,
    73 the site can't be written, 75 a run holds the outputs' lock.
    """

    static func run(_ words: [String]) async throws -> ExitStatus {
        let arguments = try parseArguments(words)
        guard arguments.positional.isEmpty else { throw UsageError(message: "unexpected argument '\(arguments.positional[0])'") }
        let (path, config, catalog) = try configuredCatalog(arguments)
        guard let out = arguments.value("--out").map({ URL(fileURLWithPath: $0) }) ?? config.outputs.site else {
            throw UsageError(message: "--out DIR is needed (\(path) sets no outputs.site)")
        }
        // A run must not rewrite the outputs while they are read.
        let lock = try RunLock(directory: config.outputs.directory)
        defer { withExtendedLifetime(lock) {} }
        let files = CatalogSite.render(try SitePublisher.input(outputs: config.outputs, catalog: catalog))
        try CommandFailure.catching(.cannotWrite, "") { try SitePublisher.write(files, to: out) }
        printError("gvingest site: wrote \(files.count) files; open \(out.standardizedFileURL.appendingPathComponent("index.html").path) in a browser")
        return .ok
    }
}
