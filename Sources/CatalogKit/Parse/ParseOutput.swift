import Foundation

/// Renders parse results for people (every field and the rule it came from) and as JSON.
public enum ParseOutput {
    /// The courses' records with their diagnostics, as one JSON array: what `parse --json` prints.
    public static func json(courses: [Course]) -> Data {
        JSONFile.encoded(courses.map { CourseRecord($0, diagnostics: true) })
    }

    /// The readable view of one page; `scheme` gives levels (by default, each course's own), as `--json` does.
    public static func human(_ result: PageResult, rules: NormalizationRules = .standard, scheme: NumberingScheme? = nil) -> String {
        var out = "== \(result.input)\n"
        func line(_ key: String, _ value: String, from rule: String? = nil) {
            let pad = String(repeating: " ", count: max(1, 16 - key.count))
            let shown = value.replacingOccurrences(of: "\n", with: "\n" + String(repeating: " ", count: 20))
            out += "    \(key)\(pad)\(shown)\n"
            if let rule { out += String(repeating: " ", count: 20) + "from: \(rule)\n" }
        }
        if let failure = result.failure { return out + "    error: \(failure)\n" }
        line("system", result.system?.rawValue ?? "none", from: result.systemRule)
        if let charset = result.charset { line("charset", charset.name, from: charset.source.rawValue) }
        if let pageURL = result.pageURL { line("page URL", pageURL, from: result.pageURLRule) }
        if result.markupIssues > 0 { line("markup issues", "\(result.markupIssues) (libxml2 recovered)") }
        let normalizer = Normalizer(rules: rules)
        for parsed in result.courses {
            let course = normalizer.normalize(parsed, scheme: scheme)
            let record = CourseRecord(course)
            let sources = parsed.provenance
            out += "  \(course.code) - \(course.title)\n"
            line("id", course.id, from: "derived from the canonical code")
            line("code", course.code.description, from: sources["code"])
            line("title", course.title.isEmpty ? "(missing)" : course.title, from: sources["title"])
            line("catalog", record.catalog ?? "(none)", from: sources["catalog"])
            let credits = course.creditsText.map { text in
                text + (course.credits.map { " -> \(format($0.min))...\(format($0.max)), app credits \(course.appCredits)" } ?? " (not understood)")
            }
            line("credits", credits ?? "(missing)", from: sources["credits"])
            line("level", course.level?.displayName ?? "(unknown)", from: course.levelSource)
            if let contact = record.contactHours { line("contact hours", contact, from: sources["contactHours"]) }
            if let offered = record.offered { line("offered", offered, from: sources["offered"]) }
            line("description", course.description.isEmpty ? "(missing)" : course.description, from: sources["description"])
            line("prerequisite", course.prerequisiteString ?? "(none)", from: sources["prerequisite"])
            for link in parsed.prerequisiteLinks { line("  link", "\(link.code ?? link.text) -> \(link.url ?? "(unresolved)")") }
            if let tree = course.prerequisite {
                line("  tree", tree.indentedDescription(), from: "RequisiteParser over the prerequisite text")
            }
            line("corequisite", course.corequisiteString ?? "(none)", from: sources["corequisite"])
            for link in parsed.corequisiteLinks { line("  link", "\(link.code ?? link.text) -> \(link.url ?? "(unresolved)")") }
            var labels = Set<String>()
            for field in parsed.fields where labels.insert(field.label).inserted {
                line(field.label, record.fields[field.label] ?? "", from: sources["fields.\(field.label)"])
            }
            for note in record.notes { line("note", note, from: sources["notes"]) }
            for warning in course.warnings { line("warning", warning) }
        }
        if let listing = result.listing {
            out += "  listing: \(listing.heading ?? "(no heading)")\(listing.subjectCode.map { " [\($0)]" } ?? "")\n"
            line("pages", "\(listing.pageCount)", from: listing.pageLinks.isEmpty ? "no pager" : "pager links filter[cpage]=N")
            for course in listing.courses {
                line("course", "\(course.code ?? "?") \(course.title ?? "")".trimmingCharacters(in: .whitespaces) + " -> \(course.url)")
            }
        }
        if !result.yieldedRecord { out += "    no course found\n" }
        return out
    }

    private static func format(_ value: Double) -> String {
        value.exactWholeNumber.map(String.init) ?? String(value)
    }
}
