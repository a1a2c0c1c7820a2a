import Foundation

/// A course as `gvingest parse --json` prints it: the app's field names plus everything the page said.
public struct ParsedCourseRecord: Sendable, Equatable {
    public var id: String
    public var subject: String
    /// The app's integer number (162 for "CIS 162L").
    public var number: Int
    /// The number as written, leading zeros kept ("098").
    public var numberText: String
    public var suffix: String?
    /// The canonical code: "CIS 162".
    public var name: String
    public var title: String
    /// The app's integer credits: the minimum of `creditRange`, nil when the page gives none.
    public var credits: Int?
    public var creditRange: CreditRange?
    public var creditsText: String?
    public var contactHours: String?
    public var offered: String?
    public var description: String
    public var prerequisiteString: String?
    public var corequisiteString: String?
    public var prerequisiteLinks: [CourseLink]
    public var corequisiteLinks: [CourseLink]
    public var catalog: String?
    /// Other labelled fields; a label seen twice keeps both values, one per line.
    public var fields: [String: String]
    public var notes: [String]
    /// Where the page was read from.
    public var url: String
    /// The URL the page declares for itself, when it differs from `url`.
    public var pageUrl: String?
    public var system: CatalogSystem
    /// For each field, the rule it came from.
    public var sources: [String: String]

    public init(_ course: ParsedCourse) {
        id = course.code.id
        subject = course.code.subject
        number = course.code.numericValue
        numberText = course.code.number
        suffix = course.code.suffix
        name = course.code.description
        title = course.title
        creditsText = course.creditsText
        creditRange = course.creditsText.flatMap(CreditRange.init(parsing:))
            ?? course.contactHours.flatMap { CreditRange(parsing: "(\($0))") }
        credits = creditRange?.appCredits
        contactHours = course.contactHours
        offered = course.offered
        description = course.description
        prerequisiteString = course.prerequisiteText
        corequisiteString = course.corequisiteText
        prerequisiteLinks = course.prerequisiteLinks
        corequisiteLinks = course.corequisiteLinks
        catalog = course.catalogName
        var fields: [String: String] = [:]
        for field in course.fields {
            fields[field.label] = fields[field.label].map { "\($0)\n\(field.value)" } ?? field.value
        }
        self.fields = fields
        notes = course.notes
        url = course.sourceURL
        pageUrl = course.pageURL
        system = course.system
        sources = course.provenance
    }

    /// The record as JSON: every key present, `null` where a page gave nothing.
    public var json: JSONValue {
        func links(_ links: [CourseLink]) -> JSONValue {
            .array(links.map { .object(["code": .from($0.code, JSONValue.string), "text": .string($0.text),
                                         "url": .from($0.url, JSONValue.string)]) })
        }
        return .object([
            "id": .string(id), "subject": .string(subject), "number": .int(number), "numberText": .string(numberText),
            "suffix": .from(suffix, JSONValue.string), "name": .string(name), "title": .string(title),
            "credits": .from(credits, JSONValue.int),
            "creditRange": .from(creditRange) { .object(["min": .double($0.min), "max": .double($0.max)]) },
            "creditsText": .from(creditsText, JSONValue.string), "contactHours": .from(contactHours, JSONValue.string),
            "offered": .from(offered, JSONValue.string), "description": .string(description),
            "prerequisiteString": .from(prerequisiteString, JSONValue.string),
            "corequisiteString": .from(corequisiteString, JSONValue.string),
            "prerequisiteLinks": links(prerequisiteLinks), "corequisiteLinks": links(corequisiteLinks),
            "catalog": .from(catalog, JSONValue.string), "fields": .object(fields.mapValues(JSONValue.string)),
            "notes": .array(notes.map(JSONValue.string)), "url": .string(url), "pageUrl": .from(pageUrl, JSONValue.string),
            "system": .string(system.rawValue), "sources": .object(sources.mapValues(JSONValue.string)),
        ])
    }
}

/// Renders parse results for people (every field and the rule it came from) and as JSON.
public enum ParseOutput {
    /// One JSON array of course records over all pages, deterministic (sorted keys).
    public static func json(_ results: [PageResult]) -> String {
        JSONValue.array(results.flatMap { $0.courses.map { ParsedCourseRecord($0).json } }).serialized()
    }

    /// The readable view of one page.
    public static func human(_ result: PageResult) -> String {
        var out = "== \(result.input)\n"
        func line(_ key: String, _ value: String, from rule: String? = nil) {
            let pad = String(repeating: " ", count: max(1, 16 - key.count))
            let shown = value.replacingOccurrences(of: "\n", with: "\n" + String(repeating: " ", count: 20))
            out += "    \(key)\(pad)\(shown)\n"
            if let rule { out += String(repeating: " ", count: 20) + "from: \(rule)\n" }
        }
        if let failure = result.failure {
            out += "    error: \(failure)\n"
            return out
        }
        line("system", result.system?.rawValue ?? "none", from: result.systemRule)
        if let charset = result.charset { line("charset", charset.name, from: charset.source.rawValue) }
        if let pageURL = result.pageURL { line("page URL", pageURL, from: result.pageURLRule) }
        if result.markupIssues > 0 { line("markup issues", "\(result.markupIssues) (libxml2 recovered)") }
        for course in result.courses {
            let record = ParsedCourseRecord(course)
            let sources = course.provenance
            out += "  \(record.name) - \(record.title)\n"
            line("id", record.id, from: "derived from the canonical code")
            line("code", record.name, from: sources["code"])
            line("title", record.title.isEmpty ? "(missing)" : record.title, from: sources["title"])
            line("catalog", record.catalog ?? "(none)", from: sources["catalog"])
            let credits = record.creditsText.map { text in
                text + (record.creditRange.map { " -> \(format($0.min))...\(format($0.max)), app credits \(record.credits ?? 0)" } ?? " (not understood)")
            }
            line("credits", credits ?? "(missing)", from: sources["credits"])
            if let contact = record.contactHours { line("contact hours", contact, from: sources["contactHours"]) }
            if let offered = record.offered { line("offered", offered, from: sources["offered"]) }
            line("description", record.description.isEmpty ? "(missing)" : record.description, from: sources["description"])
            line("prerequisite", record.prerequisiteString ?? "(none)", from: sources["prerequisite"])
            for link in record.prerequisiteLinks { line("  link", "\(link.code ?? link.text) -> \(link.url ?? "(unresolved)")") }
            line("corequisite", record.corequisiteString ?? "(none)", from: sources["corequisite"])
            for link in record.corequisiteLinks { line("  link", "\(link.code ?? link.text) -> \(link.url ?? "(unresolved)")") }
            for field in course.fields { line(field.label, field.value, from: sources["fields.\(field.label)"]) }
            for note in record.notes { line("note", note, from: sources["notes"]) }
        }
        if let listing = result.listing {
            out += "  listing: \(listing.heading ?? "(no heading)")\(listing.subjectCode.map { " [\($0)]" } ?? "")\n"
            line("pages", "\(listing.pageCount)", from: listing.pageLinks.isEmpty ? "no pager" : "pager links filter[cpage]=N")
            for course in listing.courses {
                line("course", "\(course.code ?? "?") \(course.title ?? "")".trimmingCharacters(in: .whitespaces) + " -> \(course.url)")
            }
        }
        if result.courses.isEmpty, !(result.listing.map { !$0.courses.isEmpty } ?? false) {
            out += "    no course found\n"
        }
        return out
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
