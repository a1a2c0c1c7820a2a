import Foundation
import SafeLibXML

/// What a label means, whatever the catalog calls it.
enum FieldRole: Equatable {
    case credits, prerequisite, corequisite, description, offered, contactHours, other

    /// Maps a label ("Prerequisite(s)", "Prereq.", "Credit Hours", "Typically Offered") to its role.
    init(label: String) {
        self = Self.byLabel[Self.key(label)] ?? .other
    }

    /// Lower case without "(s)", dots and colons, white space collapsed (in one pass over an ASCII label's bytes).
    static func key(_ label: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(label.utf8.count)
        for byte in label.utf8 {
            guard byte < 0x80 else { return nonASCIIKey(label) }
            bytes.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte)
        }
        if bytes.suffix(3).elementsEqual("(s)".utf8) { bytes.removeLast(3) }
        bytes.removeAll { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ":") }
        return TextCollapsing.collapse(String(decoding: bytes, as: UTF8.self))
    }

    private static func nonASCIIKey(_ label: String) -> String {
        var key = label.lowercased()
        if key.hasSuffix("(s)") { key.removeLast(3) }
        key.removeAll { $0 == "." || $0 == ":" }
        return TextCollapsing.collapse(key)
    }

    /// One hash lookup per label, where a `switch` compares the strings one by one.
    private static let byLabel: [String: FieldRole] = [
        (FieldRole.credits, ["credits", "credit", "credit hours", "credit hour", "hours", "units", "semester hours",
                             "semester credit hours", "cr"]),
        (.prerequisite, ["prerequisite", "prerequisites", "prereq", "prereqs", "pre-requisite", "pre-requisites",
                         "enforced prerequisite", "enforced prerequisite at enrollment"]),
        (.corequisite, ["corequisite", "corequisites", "coreq", "coreqs", "co-requisite", "co-requisites", "concurrent",
                        "enforced corequisite", "enforced corequisite at enrollment",
                        "enforced concurrent at enrollment"]),
        (.description, ["description", "course description"]),
        (.offered, ["offered", "typically offered", "terms offered", "term offered", "when offered",
                    "semesters offered", "course offered"]),
        (.contactHours, ["contact hours"]),
    ].reduce(into: [:]) { table, entry in for label in entry.1 { table[label] = entry.0 } }
}

extension ParsedCourse {
    /// A course begun from its heading (at `place`): code, title, page URL and the catalog name before it.
    static func begun(from heading: HTMLNode, parsed: CourseHeading.Parsed, page: PageContext, system: CatalogSystem,
                      place: String) throws -> ParsedCourse {
        var course = ParsedCourse(code: parsed.code, title: parsed.title, sourceURL: page.sourceURLText, system: system)
        course.pageURL = page.pageURLString
        course.provenance["code"] = "course heading \(place)"
        course.provenance["title"] = "course heading \(place), text after the code"
        if let name = CourseHeading.catalogName(before: heading) {
            course.catalogName = name.text
            course.provenance["catalog"] = "nearest text containing \"Catalog\" before the heading, at \(name.path)"
        }
        return course
    }

    /// A cap the credits carry after a slash ("1-18 Credits/Maximum of 18"), kept as a note.
    mutating func noteCreditsCap(_ cap: String?, rule: @autoclosure () -> String) {
        guard let cap else { return }
        notes.append(cap)
        provenance["notes"] = provenance["notes"] ?? rule()
    }

    /// Credits the heading gave (in parentheses after the title, "(3)"), when the body gave none.
    mutating func takeCredits(_ credits: String?, rule: @autoclosure () -> String?) {
        guard creditsText == nil, let credits else { return }
        creditsText = credits
        provenance["credits"] = rule()
    }

    /// Prose without its last lines of a lone "Yes", "No", "Y" or "N" (a field whose label the page hides): notes.
    private mutating func proseWithoutTrailingFlags(_ text: String, scope: String) -> String? {
        // Nearly all prose ends in a sentence: its last line tells without splitting it.
        let lastLine = text.utf8.lastIndex(of: UInt8(ascii: "\n")).map { text[text.utf8.index(after: $0)...] } ?? text[...]
        if !lastLine.isEmpty, !Self.isLoneFlag(lastLine) { return text }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var flags: [String] = []
        while let last = lines.last, Self.isLoneFlag(last) || (last.isEmpty && !flags.isEmpty) {
            if !last.isEmpty { flags.insert(String(last), at: 0) }
            lines.removeLast()
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        if !flags.isEmpty {
            notes += flags
            provenance["notes"] = "a line holding only a yes/no value at the end of the prose, \(scope)"
        }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }

    /// The credits of a segment that is only a credit phrase ("3 Credit(s)"), as some Acalog catalogs write them.
    static func loneCreditPhrase(_ text: String) -> String? {
        guard text.utf8.count <= 40, let first = text.utf8.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9"),
              let (rest, credits, cap) = CourseHeading.trailingCreditPhrase(text), rest.isEmpty, cap == nil else { return nil }
        return credits
    }

    static func isLoneFlag(_ line: Substring) -> Bool {
        let scalars = line.unicodeScalars
        guard let first = scalars.firstIndex(where: { !CharacterSet.whitespaces.contains($0) }),
              let last = scalars.lastIndex(where: { !CharacterSet.whitespaces.contains($0) }),
              scalars[first...last].prefix(4).count <= 3 else { return false }
        return ["y", "n", "yes", "no"].contains(String(scalars[first...last]).lowercased())
    }

    /// Fills the course from the segments of its body read at `scope` ("after <h3> at /html/…/h3"), recording where
    /// each field came from; with `unlabelledAsNotes` (its rule), unlabelled text is a note.
    mutating func assemble(_ written: [ContentSegment], scope: String, unlabelledAsNotes: String? = nil) {
        var segments = written
        var roles = written.map { $0.label.map(FieldRole.init(label:)) }
        // A requisite whose later sentence another label opens is several fields (put in place from the end).
        for index in segments.indices.reversed() {
            guard let role = roles[index] else { continue }
            let pieces = InlineSentences.splitFollowingFields(segments[index], role: role)
            guard pieces.count > 1 else { continue }
            segments.replaceSubrange(index...index, with: pieces)
            roles.replaceSubrange(index...index, with: [role] + pieces.dropFirst().map { $0.label.map(FieldRole.init(label:)) })
        }
        let hasDescriptionLabel = roles.contains(.description)
        let hasCreditsLabel = roles.contains(.credits)
        var paragraphs: [String] = []
        var paragraphRules: [String] = []
        for (segment, role) in zip(segments, roles) {
            guard let label = segment.label, let role else {
                let links = Self.courseLinks(segment)
                if !hasCreditsLabel, creditsText == nil, let credits = Self.loneCreditPhrase(segment.text) {
                    creditsText = credits
                    provenance["credits"] = "unlabelled text holding only a credit phrase, \(scope)"
                } else if segment.emphasized, prerequisiteText == nil, !links.isEmpty {
                    prerequisiteText = segment.text
                    prerequisiteLinks = links
                    provenance["prerequisite"] = "unlabelled emphasis holding course links, \(scope)"
                } else if let rule = unlabelledAsNotes {
                    notes.append(segment.text)
                    provenance["notes"] = provenance["notes"] ?? "\(rule), \(scope)"
                } else if segment.emphasized || hasDescriptionLabel {
                    notes.append(segment.text)
                    provenance["notes"] = "unlabelled text set apart from the description, \(scope)"
                } else if let prose = proseWithoutTrailingFlags(segment.text, scope: scope) {
                    paragraphs.append(prose)
                    paragraphRules.append("unlabelled text \(scope)")
                }
                continue
            }
            let rule = Self.rule(for: segment, label: label, scope: scope)
            let value = segment.text
            switch role {
            case .credits where creditsText == nil:
                set(\.creditsText, value, field: "credits", rule: rule)
            case .prerequisite where prerequisiteText == nil:
                set(\.prerequisiteText, value, field: "prerequisite", rule: rule)
                prerequisiteLinks = Self.courseLinks(segment)
            case .corequisite where corequisiteText == nil:
                set(\.corequisiteText, value, field: "corequisite", rule: rule)
                corequisiteLinks = Self.courseLinks(segment)
            case .offered where offered == nil:
                set(\.offered, value, field: "offered", rule: rule)
            case .contactHours where contactHours == nil:
                set(\.contactHours, value, field: "contactHours", rule: rule)
            case .description:
                if let prose = proseWithoutTrailingFlags(value, scope: scope) {
                    paragraphs.append(prose)
                    paragraphRules.append(rule)
                }
            default:
                addField(label, value, rule: rule)
            }
        }
        guard let first = paragraphRules.first else { return }
        description = paragraphs.joined(separator: "\n\n")
        provenance["description"] = first
    }

    /// `label "Credit Hours:" in <strong>, after <h3> at /html/…`, in room reserved once (interpolating grew it often).
    private static func rule(for segment: ContentSegment, label: String, scope: String) -> String {
        let written = segment.writtenLabel ?? label
        let style = segment.labelStyle ?? "text"
        var rule = ""
        rule.reserveCapacity((segment.rule?.utf8.count ?? written.utf8.count + style.utf8.count + 12) + scope.utf8.count + 2)
        if let given = segment.rule {
            rule += given
        } else {
            rule += "label \""
            rule += written
            rule += "\" in "
            rule += style
        }
        rule += ", "
        rule += scope
        return rule
    }

    /// Sets a field; a label with no text leaves it nil but still says where the label was.
    private mutating func set(_ keyPath: WritableKeyPath<ParsedCourse, String?>, _ value: String, field: String, rule: String) {
        if value.isEmpty {
            provenance[field] = "\(rule) (empty)"
        } else {
            self[keyPath: keyPath] = value
            provenance[field] = rule
        }
    }

    /// A labelled field of the kind nothing else reads, kept with the rule that found it.
    mutating func addField(_ label: String, _ value: String, rule: String) {
        fields.append(LabelledField(label: label, value: value))
        provenance["fields.\(label)"] = rule
    }

    static func courseLinks(_ segment: ContentSegment) -> [CourseLink] {
        segment.links.compactMap { link in
            let text = TextCollapsing.collapse(link.text)
            guard let code = CourseCode(parsing: text) ?? CourseCode.leading(in: text)?.code ?? Self.searchedCode(link.url)
            else { return nil }
            return CourseLink(code: code.description, text: text, url: link.url?.absoluteString)
        }
    }

    /// The course a CourseLeaf search link names (`/search/?P=MATH%20115`), for links whose text is no code.
    static func searchedCode(_ url: URL?) -> CourseCode? {
        guard let url, let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems,
              let value = items.first(where: { $0.name == "P" })?.value else { return nil }
        return CourseCode(parsing: value)
    }
}
