import Foundation

/// Renders parse results for people (every field and the rule it came from) and as JSON.
public enum ParseOutput {
    /// How many records `writeJSON` has in memory at once.
    public static let defaultBatch = 1_024
    /// Records a core writes as one part: a batch makes dozens to share out, each one write of about 100 KB.
    static let group = 32

    /// Hands `write` the courses' `JSONValue.array(records).serialized()` in order, each batch made on the cores.
    public static func writeJSON<Failure: Error>(courses: consuming [Course], batch: Int = defaultBatch,
                                                 to write: ([UInt8]) throws(Failure) -> Void) throws(Failure) {
        guard !courses.isEmpty else { return try write(Array("[]".utf8)) }
        // Taken off the end of the reversed courses in groups (`ParallelMap`'s items), so each course is freed on the
        // core that writes it. Each record follows ",\n  ", the first one's comma made "[", as `JSONValue.writeArray`
        // lays them out.
        var lastFirst = courses.takeReversed()
        var first = true
        while !lastFirst.isEmpty {
            let taken = min(max(1, batch), lastFirst.count)
            let groups = stride(from: 0, to: taken, by: group).map { start in (start..<min(start + group, taken)).map { _ in lastFirst.removeLast() } }
            var parts = ParallelMap.map(consume groups, minimumItems: 1) { records -> [UInt8] in
                var bytes: [UInt8] = []
                bytes.reserveCapacity(records.count * 3_400)  // 3.2 KB a record on average
                for index in records.indices {
                    bytes.append(contentsOf: ",\n  ".utf8)
                    records[index].writeJSON(into: &bytes, indentingLevels: .max, depth: 1)
                }
                return bytes
            }
            if first { parts[0][0] = UInt8(ascii: "[") }
            first = false
            for part in parts { try write(part) }
        }
        try write(Array("\n]".utf8))
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
            let sources = parsed.provenance
            out += "  \(course.code) - \(course.title)\n"
            line("id", course.id, from: "derived from the canonical code")
            line("code", course.code.description, from: sources["code"])
            line("title", course.title.isEmpty ? "(missing)" : course.title, from: sources["title"])
            line("catalog", course.catalogName ?? "(none)", from: sources["catalog"])
            let credits = course.creditsText.map { text in
                text + (course.credits.map { " -> \(format($0.min))...\(format($0.max)), app credits \(course.appCredits)" } ?? " (not understood)")
            }
            line("credits", credits ?? "(missing)", from: sources["credits"])
            line("level", course.level?.displayName ?? "(unknown)", from: course.levelSource)
            if let contact = course.contactHours { line("contact hours", contact, from: sources["contactHours"]) }
            if let offered = course.offered { line("offered", offered, from: sources["offered"]) }
            line("description", course.description.isEmpty ? "(missing)" : course.description, from: sources["description"])
            line("prerequisite", course.prerequisiteString ?? "(none)", from: sources["prerequisite"])
            for link in parsed.prerequisiteLinks { line("  link", "\(link.code ?? link.text) -> \(link.url ?? "(unresolved)")") }
            if let tree = course.prerequisite {
                line("  tree", tree.indentedDescription(), from: "RequisiteParser over the prerequisite text")
            }
            line("corequisite", course.corequisiteString ?? "(none)", from: sources["corequisite"])
            for link in parsed.corequisiteLinks { line("  link", "\(link.code ?? link.text) -> \(link.url ?? "(unresolved)")") }
            for field in course.fields { line(field.label, field.value, from: sources["fields.\(field.label)"]) }
            for note in course.notes { line("note", note, from: sources["notes"]) }
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
