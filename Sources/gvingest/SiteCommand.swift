import CatalogKit
import Foundation

/// `gvingest site`: the catalog website, rendered from a run's outputs and snapshots.
enum SiteCommand: Command {
    static let name = "site"
    static let summary = "Render the catalog website (courses, prerequisite maps, search, what changed, health)."
    static let options: [CommandOption] = [
        .configuration,
        .catalogID,
        .option("--out", "DIR", "Where the site goes (default: outputs.site). DIR is replaced whole, keeping files others "
                + "added to a previous site (a CNAME); a file, a FIFO, a symbolic link, or a folder that is not a site gvingest "
                + "wrote is refused (73)."),
        .option("--index", "FILE", "Render only DIR/index.html, a landing page of the catalogs in this index.json."),
    ]
    static let usages = [Usage(optional: ["--config", "--catalog", "--out"]), Usage(required: ["--index", "--out"], optional: [])]
    static let discussion = """
    Renders a static website for people from the outputs of `gvingest run` (the configuration's
    outputs.directory): a home page, a page per subject (by name: "COSC — Computer Science") and
    per course (credits, level, description, requisites linked with titles, each field once, a
    prerequisite map with each rule in words, alternatives marked "one of", "Required by", the
    history in words; every published field closed below, for maintainers), search as you type
    with filters, counts and sorting (by relevance: ranked as `gvingest search` ranks; every
    result reachable with "Show more"), the news with its Atom feed, a "what changed" page for
    each pair of consecutive
    snapshots, and a health page (pages fetched, failed and not read, warnings by kind, fields
    per subject against the previous snapshot). catalog.json, news.json and news.atom are copied
    beside the pages. Every link is relative: open DIR/index.html in a browser, or publish DIR on
    any static host. The same outputs give the same bytes. `gvingest run` renders it by itself
    when outputs.site is set, and then also shows which rule of the page each field came from.
    Colours follow the reader's light or dark setting; pages carry og: tags and schema.org data,
    absolute under site.baseUrl, and og:image from news.posters.

    With --index, renders only DIR/index.html: the landing page of a directory of catalogs from the
    index.json of 'gvingest index', each catalog linked to its site in DIR/<id>/ (where a shard's
    run renders it); nothing else in DIR is touched.
    """
    static let exitStatus = """
    Exit status: 0 ok, 64 bad usage, 65 a snapshot, news.json or run-report.json is not valid,
    or the configuration, 66 the configuration can't be read or the catalog has no snapshot yet,
    73 the site can't be written, 75 a run holds the outputs' lock.
    """

    static func run(_ words: [String]) async throws -> ExitStatus {
        let arguments = try parseArguments(words)
        guard arguments.positional.isEmpty else { throw UsageError(message: "unexpected argument '\(arguments.positional[0])'") }
        if let index = arguments.value("--index") { return try landingPage(index, arguments) }
        let (path, config, catalog) = try configuredCatalog(arguments)
        guard let out = arguments.value("--out").map({ URL(fileURLWithPath: $0) }) ?? config.outputs.site else {
            throw UsageError(message: "--out DIR is needed (\(path) sets no outputs.site)")
        }
        if let link = CatalogRun.plantedLink(config: config, catalogID: catalog.id) {
            throw CatalogRun.linkRefused(link)
        }
        // A run must not rewrite the outputs while they are read.
        let lock = try RunLock(directory: config.outputs.directory)
        defer { withExtendedLifetime(lock) {} }
        var input = try SitePublisher.input(outputs: config.outputs, catalog: catalog)
        input.apply(config)
        let files = CatalogSite.render(input)
        try CommandFailure.catching(.cannotWrite, "") { try SitePublisher.write(files, to: out) }
        printError("gvingest site: wrote \(files.count) files; open \(out.standardizedFileURL.appendingPathComponent("index.html").path) in a browser")
        return .ok
    }

    /// `--index FILE --out DIR`: DIR/index.html alone, beside the catalogs' sites.
    static func landingPage(_ path: String, _ arguments: Arguments) throws -> ExitStatus {
        guard let out = arguments.value("--out"), arguments.value("--config") == nil, arguments.value("--catalog") == nil else {
            throw UsageError(message: "--index FILE goes with --out DIR alone")
        }
        let bytes = try CommandFailure.catching(.missingInput, "\(path): ") { try FileBytes.read(path: path, limit: FileBytes.Limit.document) }
        let index = try CommandFailure.catching(.invalidData, "\(path): ") { try JSONFile.decode(CatalogIndex.self, from: bytes) }
        let file = URL(fileURLWithPath: out).appendingPathComponent("index.html")
        try CommandFailure.catching(.cannotWrite) { try AtomicFile.write(CatalogIndexPage.render(index), to: file) }
        printError("gvingest site: wrote \(file.path) (\(index.catalogs.count) catalogs)")
        return .ok
    }
}
