import Foundation

extension CatalogSite {
    func requires(_ code: String) -> [String] { byCode[code]?.prerequisiteCourses ?? [] }
    func requiredBy(_ code: String) -> [String] { byCode[code]?.prerequisiteFor ?? [] }

    /// One course for a student: what it is and needs, each fact once, then its map, what needs it and its history in
    /// words. The published record and the rule behind each field follow, closed, for maintainers.
    func coursePage(_ course: CourseRecord) -> Data {
        func row(_ label: String, _ html: String?) -> String {
            guard let html, !html.isEmpty else { return "" }
            return "<dt>\(label)</dt><dd>\(html)</dd>\n"
        }
        func prose(_ text: String) -> String { text.split(separator: "\n").map { "<p>\(esc(String($0)))</p>" }.joined() }
        let subjectLink = "<a href=\"../\(Self.subjectPath(course.subject))\">\(esc(subjectLabel(course.subject)))</a>"
        var body = "<p class=\"crumbs\"><a href=\"../index.html\">Catalog</a> › \(subjectLink)</p>\n"
            + "<h1>\(esc(course.name)): \(esc(course.title))</h1>\n"
        body += "<p class=\"lead\">" + [Self.creditsPhrase(course), course.level.map(esc)].compactMap { $0 }.joined(separator: " · ") + "</p>\n"
        body += course.description.isEmpty ? "<p>No description.</p>\n" : "<div class=\"description\">\(prose(course.description))</div>\n"
        let named = course.prerequisiteCourses + course.corequisiteCourses.filter { !course.prerequisiteCourses.contains($0) }
        let requisites = row("Prerequisites", course.prerequisiteString.map { linkingCodes(in: $0, course.prerequisiteCourses) })
            + row("Corequisites", course.corequisiteString.map { linkingCodes(in: $0, course.corequisiteCourses) })
        if !requisites.isEmpty {
            body += "<section class=\"requisites\" aria-labelledby=\"requisites\"><h2 id=\"requisites\">Requisites</h2>\n<div class=\"beside\">"
                + "<dl class=\"facts\">\n\(requisites)</dl>\n"
                + (named.isEmpty ? "" : "<ul class=\"named\" aria-label=\"Courses the requisites name\">"
                    + named.map { "<li>\(titledLink($0))</li>" }.joined() + "</ul>") + "</div></section>\n"
        }
        body += "<dl class=\"facts\">\n" + row("Offered", course.offered.map(esc)) + studentFields(course)
            + row("Notes", course.notes.isEmpty ? nil : course.notes.map(prose).joined())
            + row("First seen", course.createdAt.map(Self.date)) + row("Last changed", course.updatedAt.map(Self.date)) + "</dl>\n"
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
        body += "</section>\n"
        if !course.prerequisiteFor.isEmpty {
            body += "<section aria-labelledby=\"required-by\"><h2 id=\"required-by\">Required by (\(course.prerequisiteFor.count))</h2>\n"
                + "<ul class=\"required-by\">" + course.prerequisiteFor.map { "<li>\(titledLink($0))</li>" }.joined() + "</ul></section>\n"
        }
        let history = Self.historyInWords(course)
        if !history.isEmpty {
            body += "<section aria-labelledby=\"history\"><h2 id=\"history\">History</h2>\n<ul class=\"history\">"
                + history.map { "<li>\(esc($0))</li>" }.joined() + "</ul></section>\n"
        }
        if Self.isWeb(course.url) { body += "<p class=\"source\"><a href=\"\(esc(course.url))\">This course in the catalog itself</a></p>\n" }
        body += record(course)
        let reach = Reach(path: Self.coursePath(course.id), summary: course.description, image: input.posters.poster(for: course.subject),
                          structuredData: structuredData(course))
        return page("\(course.name): \(course.title)", up: true, reach: reach, body)
    }

    /// schema.org's Course: code, name, description, provider, and the prerequisites by `@id` where the site has them.
    func structuredData(_ course: CourseRecord) -> JSONValue {
        var fields: [String: JSONValue] = [
            "@context": .string("https://schema.org"), "@type": .string("Course"), "@id": .string(linkedDataID(Self.coursePath(course.id))),
            "courseCode": .string(course.name), "name": .string(course.title),
            "provider": .object(["@type": .string("CollegeOrUniversity"), "name": .string(input.catalogName)]),
        ]
        if !course.description.isEmpty { fields["description"] = .string(course.description) }
        if let level = course.level { fields["educationalLevel"] = .string(level) }
        if let range = course.creditRange, let credits = range.min.exactWholeNumber { fields["numberOfCredits"] = .int(credits) }
        if let url = input.settings.url(Self.coursePath(course.id)) { fields["url"] = .string(url) }
        let prerequisites: [JSONValue] = course.prerequisiteCourses.map { code in
            byCode[code].map { .object(["@id": .string(linkedDataID(Self.coursePath($0.id)))]) } ?? .string(code)
        }
        if !prerequisites.isEmpty { fields["coursePrerequisites"] = .array(prerequisites) }
        return .object(fields)
    }

    /// "3 credits", "1 credit", "1–4 credits"; the catalog's own words after it where they say more.
    static func creditsPhrase(_ course: CourseRecord) -> String? {
        guard let label = course.creditsLabel, let phrase = course.creditsPhrase else { return nil }
        let words = course.creditsText.flatMap { $0 == label || Double($0) != nil ? nil : " (“\($0)”)" } ?? ""
        return esc(phrase + words)
    }

    /// The catalog's other labelled fields, each once: the contact hours of each kind in one line, "Y" and "N" in words.
    func studentFields(_ course: CourseRecord) -> String {
        func value(_ text: String) -> String {
            switch text.uppercased() { case "Y", "YES": "Yes"; case "N", "NO": "No"; default: text }
        }
        let hoursSuffix = " Contact Hours"
        let hours = course.fields.filter { $0.key.hasSuffix(hoursSuffix) }.sorted { $0.key < $1.key }
            .map { "\($0.key.dropLast(hoursSuffix.count).lowercased()) \($0.value)" }
        let contact = ([course.contactHours].compactMap { $0 } + hours).joined(separator: ", ")
        let others = course.fields.filter { !$0.key.hasSuffix(hoursSuffix) }.sorted { $0.key < $1.key }.map { label, text in
            "<dt>\(esc(label))</dt><dd>" + text.split(separator: "\n").map { esc(value(String($0))) }.joined(separator: "<br>") + "</dd>\n"
        }
        return (contact.isEmpty ? "" : "<dt>Contact hours</dt><dd>\(esc(contact))</dd>\n") + others.joined()
    }

    /// A code with its title: a link whose hover text is the title, and the title after it.
    func titledLink(_ code: String) -> String {
        guard let other = byCode[code] else { return courseLink(code: code, up: true) + " <span class=\"missing\">(not in this catalog)</span>" }
        return "<a href=\"../\(Self.coursePath(other.id))\" title=\"\(esc(other.title))\">\(esc(code))</a> \(esc(other.title))"
    }

    /// Requisite text with each course it names linked where it is written, titled on hover.
    func linkingCodes(in text: String, _ codes: [String]) -> String {
        var html = "", rest = Substring(text)
        let longestFirst = codes.sorted { $0.count > $1.count }
        while !rest.isEmpty {
            let hits = longestFirst.compactMap { code in rest.range(of: code).map { (code, $0) } }
                .filter { code, range in
                    (range.lowerBound == rest.startIndex || !rest[rest.index(before: range.lowerBound)].isLetter)
                        && (range.upperBound == rest.endIndex || !rest[range.upperBound].isNumber)
                }
            guard let (code, range) = hits.min(by: { $0.1.lowerBound < $1.1.lowerBound }) else { break }
            html += esc(String(rest[..<range.lowerBound]))
            if let other = byCode[code] {
                html += "<a href=\"../\(Self.coursePath(other.id))\" title=\"\(esc(other.title))\">\(esc(code))</a>"
            } else {
                html += "<span class=\"missing\" title=\"not in this catalog\">\(esc(code))</span>"
            }
            rest = rest[range.upperBound...]
        }
        return html + esc(String(rest))
    }

    /// The course's history as sentences: "New in 2021-2022", "Prerequisites and credits changed in 2024-2025".
    static func historyInWords(_ course: CourseRecord) -> [String] {
        let events = course.history ?? []
        if events.isEmpty { return course.firstEdition.map { ["In the catalog since \(EditionLabel.shown($0))"] } ?? [] }
        return events.map { event in
            let edition = EditionLabel.shown(event.edition)
            return switch event.kind {
            case .added: "New in \(edition)"
            case .renumbered: "Renumbered from \(event.from ?? "another code") in \(edition)"
            case .removed: "Left the catalog in \(edition)"
            case .returned: "Back in the catalog in \(edition)"
            case .changed:
                "\(Self.sentenceList((event.fields ?? []).map(DiffReport.label)).capitalizedFirst) changed in \(edition)"
            }
        }
    }

    /// "A", "A and B", "A, B and C", the words after the first in lower case.
    static func sentenceList(_ labels: [String]) -> String {
        let words = labels.enumerated().map { $0.offset == 0 ? $0.element : $0.element.lowercased() }
        guard words.count > 1 else { return words.first ?? "Some fields" }
        return words.dropLast().joined(separator: ", ") + " and " + words[words.count - 1]
    }

    /// Every published field as the record has it (the empty ones named in one line), with the rule that read it where
    /// the run knew: closed, after everything a student reads.
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
        return "<details class=\"maintainer\"><summary>For maintainers: every published field and the rule that read it</summary>\n"
            + "<dl class=\"record\">" + (rows + unmatched).joined(separator: "\n") + "</dl>\n"
            + (none.isEmpty ? "" : "<p>Empty: \(esc(none)).</p>\n") + "</details>\n"
    }

    /// A time as people read it, "1 Aug 2024", marked up with the instant for programs.
    static func date(_ stamp: String) -> String {
        "<time datetime=\"\(MarkupEscaping.xml(stamp))\">\(MarkupEscaping.xml(Timestamp.day(stamp) ?? stamp))</time>"
    }

    static func isWeb(_ url: String) -> Bool { url.hasPrefix("https://") || url.hasPrefix("http://") }
}

extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
