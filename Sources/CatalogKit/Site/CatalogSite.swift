import Foundation

/// What the website is made from: a catalog's snapshots, its news and its last run report.
public struct SiteInput: Sendable {
    public var catalogName: String
    /// Oldest first; the last is the catalog the site shows.
    public var snapshots: [Snapshot]
    /// Newest first, as news.json keeps them.
    public var news: [NewsItem]
    public var report: RunReport?
    /// For each course id, the rule each field was read by, when the pages were parsed in this process.
    public var provenance: [String: [String: String]] = [:]
    /// Files published as they are, beside the pages (catalog.json, news.json, news.atom).
    public var copies: [String: Data] = [:]
}

/// Renders the catalog website: a pure function of its input to files by relative path. Every link is relative,
/// every text passes through `esc`, and nothing depends on the clock, so the same input gives the same bytes.
public struct CatalogSite {
    let input: SiteInput
    let courses: [CourseRecord]
    /// The first course of each canonical code: requisites name courses by code.
    let byCode: [String: CourseRecord]
    let ids: Set<String>

    public static func render(_ input: SiteInput) -> [String: Data] {
        CatalogSite(input).files()
    }

    init(_ input: SiteInput) {
        self.input = input
        courses = input.snapshots.last?.courses ?? []
        byCode = Dictionary(courses.map { ($0.name, $0) }) { first, _ in first }
        ids = Set(courses.map(\.id))
    }

    var subjects: [(subject: String, courses: [CourseRecord])] {
        Dictionary(grouping: courses, by: \.subject).sorted { $0.key < $1.key }.map { ($0.key, $0.value.sorted(by: CourseRecord.inCodeOrder)) }
    }

    func files() -> [String: Data] {
        var files = input.copies
        files[".gvingest-site"] = Data("written by gvingest site; replaced whole by the next one\n".utf8)
        files["assets/site.css"] = Data(SiteAssets.css.utf8)
        files["assets/search.js"] = Data(SiteAssets.searchScript.utf8)
        files["assets/search-index.js"] = Data(searchIndex().utf8)
        files["index.html"] = home()
        files["search.html"] = search()
        files["news.html"] = newsPage()
        files["health.html"] = health()
        files["changes.html"] = changesIndex()
        for (subject, list) in subjects { files[Self.subjectPath(subject)] = subjectPage(subject, list) }
        for course in courses { files[Self.coursePath(course.id)] = coursePage(course) }
        for (old, new) in zip(input.snapshots, input.snapshots.dropFirst()) { files[Self.changesPath(new)] = changesPage(old, new) }
        return files
    }

    // MARK: paths and links

    /// A name safe in any file system and URL: ASCII letters, digits and "-" kept, every other byte as "_XX".
    static func fileName(_ text: String) -> String {
        text.utf8.reduce(into: "") { name, byte in
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || byte == UInt8(ascii: "-") {
                name.unicodeScalars.append(scalar)
            } else {
                name += String(format: "_%02x", byte)
            }
        }
    }

    static func coursePath(_ id: String) -> String { "course/\(fileName(id)).html" }
    static func subjectPath(_ subject: String) -> String { "subject/\(fileName(subject)).html" }
    static func changesPath(_ snapshot: Snapshot) -> String { "changes/\(fileName(Timestamp.compact(snapshot.capturedAt))).html" }

    /// A link from a page in a subfolder (`up`) or at the root to a path of the site.
    static func href(_ path: String, up: Bool) -> String { (up ? "../" : "") + path }

    /// A course's code as a link to its page, or as text when the catalog does not have it.
    func courseLink(code: String, up: Bool) -> String {
        guard let course = byCode[code] else { return "<span class=\"missing\" title=\"not in this catalog\">\(esc(code))</span>" }
        return "<a href=\"\(Self.href(Self.coursePath(course.id), up: up))\">\(esc(code))</a>"
    }

    func courseLink(id: String, name: String, up: Bool) -> String {
        ids.contains(id) ? "<a href=\"\(Self.href(Self.coursePath(id), up: up))\">\(esc(name))</a>" : esc(name)
    }

    // MARK: the page around the content

    /// A whole page: landmarks, the site's navigation and a search box; `up` for pages one folder down.
    func page(_ title: String, up: Bool, head: String = "", _ body: String) -> Data {
        let root = up ? "../" : ""
        let nav = [("index.html", "Catalog"), ("search.html", "Search"), ("news.html", "News"), ("changes.html", "What changed"),
                   ("health.html", "Health")].map { "<li><a href=\"\(root)\($0.0)\">\($0.1)</a></li>" }.joined()
        return Data("""
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(esc(title)) · \(esc(input.catalogName))</title>
        <link rel="icon" href="data:,">
        <link rel="stylesheet" href="\(root)assets/site.css">
        \(head)</head>
        <body>
        <a class="skip" href="#main">Skip to content</a>
        <header><p class="site"><a href="\(root)index.html">\(esc(input.catalogName))</a></p>
        <nav aria-label="Site"><ul>\(nav)</ul></nav>
        <form role="search" action="\(root)search.html"><label for="site-q">Search courses</label> <input id="site-q" name="q" type="search"> <button>Search</button></form>
        </header>
        <main id="main">
        \(Self.withoutFileURLs(body))
        </main>
        <footer><p>Made by gvingest from the snapshot of \(esc(input.snapshots.last?.shownName ?? "(none)")). <a href="\(root)catalog.json">catalog.json</a></p></footer>
        </body>
        </html>

        """.utf8)
    }

    /// The page's text with every `file:` URL (a record's `sourceUrl`, a warning naming a saved page) cut to the file's
    /// name: where the pages were read on the machine that ran gvingest is nobody's business on a public site.
    static func withoutFileURLs(_ html: String) -> String {
        guard html.contains("file:/") else { return html }
        var output = "", rest = html[...]
        while let found = rest.range(of: "file:/") {
            output += rest[..<found.lowerBound]
            let end = rest[found.lowerBound...].firstIndex { $0.isWhitespace || "\"'<>".contains($0) } ?? rest.endIndex
            let name = rest[found.lowerBound..<end].split(separator: "/").last.map(String.init) ?? ""
            output += name.isEmpty || name == "file:" ? "(a local file)" : name
            rest = rest[end...]
        }
        return output + rest
    }

    // MARK: pages

    func home() -> Data {
        let latest = input.snapshots.last
        let subjectList = subjects.map { "<li><a href=\"\(Self.subjectPath($0.subject))\">\(esc($0.subject))</a> (\($0.courses.count))</li>" }
        var body = "<h1>\(esc(input.catalogName))</h1>\n"
        let edition = latest?.edition.map(EditionLabel.shown) ?? Snapshot.pagesEdition(courses)
        body += "<p>\(edition.map { "Edition: \(esc($0)). " } ?? "")\(courses.count) courses in \(subjects.count) subjects, "
            + "captured \(latest.map { Self.date($0.capturedAt) } ?? "never").</p>\n"
        body += "<h2>Latest news</h2>\n" + newsList(Array(input.news.prefix(5)), up: false)
            + "<p><a href=\"news.html\">All news</a></p>\n"
        body += "<h2>Subjects</h2>\n<ul class=\"columns\">\(subjectList.joined())</ul>\n"
        return page("Catalog", up: false, body)
    }

    func subjectPage(_ subject: String, _ list: [CourseRecord]) -> Data {
        let rows = list.map { course in
            "<tr><td><a href=\"../\(Self.coursePath(course.id))\">\(esc(course.name))</a></td><td>\(esc(course.title))</td>"
                + "<td>\(esc(course.creditsPhrase ?? ""))</td><td>\(esc(course.level ?? ""))</td></tr>"
        }
        let body = "<h1>\(esc(subject))</h1>\n<p>\(list.count) courses.</p>\n"
            + "<table><thead><tr><th scope=\"col\">Code</th><th scope=\"col\">Title</th><th scope=\"col\">Credits</th><th scope=\"col\">Level</th></tr></thead>\n<tbody>"
            + rows.joined(separator: "\n") + "</tbody></table>"
        return page(subject, up: true, body)
    }

    func newsList(_ items: [NewsItem], up: Bool) -> String {
        guard !items.isEmpty else { return "<p>No news yet: the first run of a catalog announces nothing.</p>\n" }
        return "<ul class=\"news\">" + items.map { item in
            let title = ids.contains(item.courseId)
                ? "<a href=\"\(Self.href(Self.coursePath(item.courseId), up: up))\">\(esc(item.title))</a>" : esc(item.title)
            return "<li><strong>\(title)</strong> \(Self.date(item.createdAt))"
                + "<br>\(esc(item.description))</li>"
        }.joined(separator: "\n") + "</ul>\n"
    }

    func newsPage() -> Data {
        let feed = "<link rel=\"alternate\" type=\"application/atom+xml\" title=\"\(esc(input.catalogName)) news\" href=\"news.atom\">\n"
        let body = "<h1>News</h1>\n<p>For feed readers: <a href=\"news.atom\">the Atom feed</a> (and <a href=\"news.json\">news.json</a>).</p>\n"
            + newsList(input.news, up: false)
        return page("News", up: false, head: feed, body)
    }

    func search() -> Data {
        let options = { (values: [String]) in values.map { "<option>\(esc($0))</option>" }.joined() }
        let levels = Set(courses.compactMap(\.level)).sorted(), credits = Set(courses.compactMap(\.creditsLabel)).sorted {
            ($0.count, $0) < ($1.count, $1)
        }.map { "<option value=\"\(esc($0))\">\(esc(CourseRecord.creditsPhrase($0)))</option>" }.joined()
        let body = """
        <h1>Search</h1>
        <form id="search" class="filters" action="search.html">
        <p><label for="q">Code, title or words of the description</label> <input id="q" name="q" type="search" autocomplete="off"></p>
        <p><label for="subject">Subject</label> <select id="subject" name="subject"><option value="">any</option>\(options(subjects.map(\.subject)))</select>
        <label for="level">Level</label> <select id="level" name="level"><option value="">any</option>\(options(levels))</select>
        <label for="credits">Credits</label> <select id="credits" name="credits"><option value="">any</option>\(credits)</select></p>
        </form>
        <p id="status" role="status" aria-live="polite"><noscript>Search needs JavaScript; every subject is listed on <a href="index.html">the catalog page</a>.</noscript></p>
        <ol id="results"></ol>
        <p><button type="button" id="more" hidden>Show more</button></p>
        <script src="assets/search-index.js"></script>
        <script src="assets/search.js"></script>
        """
        return page("Search", up: false, body)
    }

    /// `GV_INDEX`: one array a course, in code order (path, code, title, subject, level, credits, credits as read, then
    /// `SearchKeys`' code, title and description), a script and not JSON read by `fetch`, which browsers refuse on
    /// `file://`. The keys are folded here, so the browser ranks what `gvingest search` ranks.
    func searchIndex() -> String {
        let rows: [JSONValue] = courses.sorted(by: CourseRecord.inCodeOrder).map { course in
            let keys = SearchKeys(course)
            return .array([Self.fileName(course.id), course.name, course.title, course.subject, course.level ?? "", course.creditsLabel ?? "",
                           course.creditsPhrase ?? "", keys.code, keys.title, keys.description].map(JSONValue.string))
        }
        // "</" would end a script element in an HTML parser; JSON allows "<\/" for it.
        let json = String(decoding: JSONFile.encoded(JSONValue.array(rows), pretty: false), as: UTF8.self)
            .replacingOccurrences(of: "</", with: "<\\/")
        return "window.GV_INDEX = \(json);\n"
    }
}

/// HTML text or attribute value: the one escaping of the site.
func esc(_ text: String) -> String { MarkupEscaping.xml(text) }
