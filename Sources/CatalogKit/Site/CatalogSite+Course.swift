import Foundation

extension CatalogSite {
    func requires(_ code: String) -> [String] { byCode[code]?.prerequisiteCourses ?? [] }
    func requiredBy(_ code: String) -> [String] { byCode[code]?.prerequisiteFor ?? [] }

    /// One course: its fields for people, its requisites as links both ways, its map, then every published field.
    func coursePage(_ course: CourseRecord) -> Data {
        func row(_ label: String, _ html: String?) -> String {
            guard let html, !html.isEmpty else { return "" }
            return "<dt>\(label)</dt><dd>\(html)</dd>\n"
        }
        func links(_ codes: [String]) -> String? { codes.isEmpty ? nil : codes.map { courseLink(code: $0, up: true) }.joined(separator: ", ") }
        func prose(_ text: String) -> String { text.split(separator: "\n").map { "<p>\(esc(String($0)))</p>" }.joined() }
        var body = "<h1>\(esc(course.name)): \(esc(course.title))</h1>\n"
        body += course.description.isEmpty ? "<p>No description.</p>\n" : prose(course.description) + "\n"
        body += "<dl class=\"facts\">\n"
            + row("Subject", "<a href=\"../\(Self.subjectPath(course.subject))\">\(esc(course.subject))</a>")
            + row("Credits", [course.creditsPhrase, course.creditsText.flatMap { Double($0) != nil || $0 == course.creditsLabel ? nil : "(“\($0)”)" }]
                .compactMap { $0.map(esc) }.joined(separator: " "))
            + row("Level", course.level.map { esc($0) + (course.levelSource.map { " <small>(from \(esc($0)))</small>" } ?? "") })
            + row("Prerequisites", course.prerequisiteString.map(esc))
            + row("Prerequisite courses", links(course.prerequisiteCourses))
            + row("Corequisites", course.corequisiteString.map(esc))
            + row("Corequisite courses", links(course.corequisiteCourses))
            + row("Required by", links(course.prerequisiteFor))
            + row("Offered", course.offered.map(esc)) + row("Contact hours", course.contactHours.map(esc))
            + course.fields.sorted { $0.key < $1.key }.map { row(esc($0.key), prose($0.value)) }.joined()
            + row("Notes", course.notes.isEmpty ? nil : course.notes.map(prose).joined())
            + row("Source", Self.isWeb(course.url) ? "<a href=\"\(esc(course.url))\">\(esc(course.url))</a>" : esc(course.url))
            + row("First seen", course.createdAt.map(Self.date)) + row("Last changed", course.updatedAt.map(Self.date))
            + row("First edition", course.firstEdition.map { esc(EditionLabel.shown($0)) })
            + row("History", course.history.map { $0.map { "\(esc(EditionLabel.shown($0.edition))): \(esc($0.summary))" }.joined(separator: "<br>") })
            + "</dl>\n"
        let map = PrerequisiteMap(code: course.name, requires: requires, requiredBy: requiredBy)
        body += "<section aria-labelledby=\"map\"><h2 id=\"map\">Prerequisite map</h2>\n"
        if map.isEmpty {
            body += "<p>No course in this catalog is needed for this one or needs it.</p>"
        } else {
            // Wide maps keep their size and scroll sideways (a phone would shrink them past reading); focusable so a
            // keyboard scrolls them too.
            body += "<figure tabindex=\"0\">" + map.svg(title: { byCode[$0]?.title }, href: { code in byCode[code].map { "../" + Self.coursePath($0.id) } },
                                                         requires: requires, rule: { byCode[$0]?.prerequisite })
                + "<figcaption>Above: the courses it needs, directly and through them. Below: the courses that need it. "
                + "Arrows meeting at “one of” are alternatives: any one of those courses will do (“or …”: or something "
                + "not drawn, such as placement; the words below say what). A dashed arrow: it may be "
                + "taken at the same time. Each box opens its course.</figcaption></figure>\n"
                + map.text(link: { courseLink(code: $0, up: true) }, rule: { byCode[$0]?.prerequisite })
        }
        body += "</section>\n" + record(course)
        return page("\(course.name): \(course.title)", up: true, body)
    }

    /// Every published field as the record has it (the empty ones named in one line), with the rule that read it where
    /// the run knew.
    func record(_ course: CourseRecord) -> String {
        guard case let .object(fields)? = try? JSONDecoder().decode(JSONValue.self, from: JSONFile.encoded(course, pretty: false)) else { return "" }
        let sources = input.provenance[course.id] ?? [:]
        let empty: [JSONValue] = [.null, .string(""), .array([]), .object([:])]
        let rows = fields.filter { !empty.contains($0.value) }.sorted { $0.key < $1.key }.map { key, value in
            "<dt>\(esc(key))</dt><dd>\(esc(value.stringValue ?? value.serialized(pretty: false)))"
                + (sources[key].map { " <small>read by \(esc($0))</small>" } ?? "") + "</dd>"
        }
        let unmatched = sources.filter { fields[$0.key] == nil }.sorted { $0.key < $1.key }
            .map { "<dt>\(esc($0.key))</dt><dd><small>read by \(esc($0.value))</small></dd>" }
        let none = fields.filter { empty.contains($0.value) }.keys.sorted().joined(separator: ", ")
        return "<section aria-labelledby=\"record\"><h2 id=\"record\">Every published field</h2>\n<dl class=\"record\">"
            + (rows + unmatched).joined(separator: "\n") + "</dl>\n" + (none.isEmpty ? "" : "<p>Empty: \(esc(none)).</p>\n") + "</section>\n"
    }

    /// A time as people read it, "1 Aug 2024", marked up with the instant for programs.
    static func date(_ stamp: String) -> String {
        "<time datetime=\"\(MarkupEscaping.xml(stamp))\">\(MarkupEscaping.xml(Timestamp.day(stamp) ?? stamp))</time>"
    }

    static func isWeb(_ url: String) -> Bool { url.hasPrefix("https://") || url.hasPrefix("http://") }
}
