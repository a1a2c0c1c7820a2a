import Foundation

/// The normalize stage: parsed courses in, clean courses out. A pure function of its input and rules.
public struct Normalizer: Sendable {
    public var rules: NormalizationRules

    public init(rules: NormalizationRules = .gvsu) {
        self.rules = rules
    }

    /// Normalizes one course; `links` maps canonical codes to catalog URLs for Markdown links.
    public func normalize(_ parsed: ParsedCourse, links: [String: String] = [:]) -> Course {
        var warnings: [String] = []
        var code = parsed.code
        if let current = rules.subjects.code(for: code.subject), current != code.subject {
            code.subject = current
        }
        if !rules.knownSubjects.isEmpty, !rules.knownSubjects.contains(code.subject) {
            warnings.append("unknown subject \(code.subject) (not in normalize.knownSubjects); kept")
        }
        let creditsText = parsed.creditsText.map(TextCleaner.cleanLine)
        var credits = creditsText.flatMap(CreditRange.init(parsing:))
        if credits == nil, let triple = parsed.contactHours { credits = CreditRange(parsing: "(\(triple))") }
        if let text = creditsText, credits == nil { warnings.append("credits \"\(text)\" not understood; kept as written") }

        var level: CourseLevel?
        var levelSource: String?
        if let stated = parsed.fields.first(where: { ["level", "levels", "course level"].contains($0.label.lowercased()) }),
           let found = CourseLevel(stated: stated.value) {
            level = found
            levelSource = "the page's \"\(stated.label)\" field"
        } else if let range = rules.levels.first(where: { $0.contains(code.numericValue) }) {
            level = range.level
            levelSource = "number \(code.numericValue) in \(range.from)…\(range.to.map(String.init) ?? "") (normalize.levels)"
        } else {
            warnings.append("no level: number \(code.numericValue) is in no configured range")
        }

        var linkTable = links
        for link in parsed.prerequisiteLinks + parsed.corequisiteLinks {
            if let linked = link.code, let url = link.url, linkTable[linked] == nil { linkTable[linked] = url }
        }
        let prerequisite = requisite(parsed.prerequisiteText, links: linkTable)
        let corequisite = requisite(parsed.corequisiteText, links: linkTable)

        return Course(
            code: code, title: TextCleaner.cleanLine(parsed.title), description: TextCleaner.clean(parsed.description),
            credits: credits, creditsText: creditsText, level: level, levelSource: levelSource,
            prerequisite: prerequisite.tree, prerequisiteString: prerequisite.text, prerequisiteMarkdown: prerequisite.markdown,
            prerequisiteCourses: prerequisite.courses,
            corequisite: corequisite.tree, corequisiteString: corequisite.text, corequisiteMarkdown: corequisite.markdown,
            corequisiteCourses: corequisite.courses,
            offered: parsed.offered.map(TextCleaner.cleanLine), contactHours: parsed.contactHours,
            catalogName: parsed.catalogName.map(TextCleaner.cleanLine),
            fields: parsed.fields.map { LabelledField(label: $0.label, value: TextCleaner.clean($0.value)) },
            notes: parsed.notes.map(TextCleaner.clean), pageURL: parsed.pageURL ?? parsed.sourceURL, sourceURL: parsed.sourceURL,
            system: parsed.system, provenance: parsed.provenance, warnings: warnings)
    }

    struct NormalizedRequisite {
        var tree: Requisite?
        var text: String?
        var markdown: String?
        var courses: [String]
    }

    func requisite(_ source: String?, links: [String: String]) -> NormalizedRequisite {
        guard let source, !TextCleaner.cleanLine(source).isEmpty else { return NormalizedRequisite(courses: []) }
        let cleaned = TextCleaner.cleanLine(source)
        let text = RequisiteParser.canonicalText(cleaned)
        var tree = RequisiteParser.parse(cleaned)
        if !rules.subjects.isEmpty {
            tree = tree?.mappingCodes { code in
                var renamed = code
                renamed.subject = rules.subjects.code(for: code.subject) ?? code.subject
                return renamed
            }
        }
        let courses = tree?.courses ?? []
        return NormalizedRequisite(tree: tree, text: text, markdown: RequisiteMarkdown.render(text, links: links), courses: courses)
    }

    /// Normalizes a whole catalog: one course per id (the first wins, later ones are warned about), sorted
    /// by id, with reverse prerequisite links and references to codes the catalog lacks.
    public func normalize(catalog parsed: [ParsedCourse]) -> [Course] {
        var links: [String: String] = [:]
        for course in parsed {
            if links[course.code.description] == nil { links[course.code.description] = course.pageURL ?? course.sourceURL }
        }
        var byID: [String: Course] = [:]
        for item in parsed {
            let course = normalize(item, links: links)
            if var existing = byID[course.id] {
                existing.warnings.append("also found at \(course.sourceURL); that copy was ignored")
                byID[course.id] = existing
            } else {
                byID[course.id] = course
            }
        }
        let codes = Set(byID.values.map(\.code.description))
        var reverse: [String: Set<String>] = [:]
        for course in byID.values {
            for required in course.prerequisiteCourses { reverse[required, default: []].insert(course.code.description) }
        }
        return byID.values.map { course in
            var course = course
            course.prerequisiteFor = reverse[course.code.description].map { $0.sorted { (CourseCode(parsing: $0) ?? course.code) < (CourseCode(parsing: $1) ?? course.code) } } ?? []
            course.missingReferences = Set(course.prerequisiteCourses + course.corequisiteCourses).subtracting(codes).sorted()
            return course
        }.sorted { $0.id < $1.id }
    }
}

/// Renders requisite text as Markdown with course codes linked to their catalog pages.
enum RequisiteMarkdown {
    static func render(_ text: String, links: [String: String]) -> String {
        var output = ""
        var index = text.startIndex
        while index < text.endIndex {
            let rest = text[index...]
            let atWordStart = text[index].isUppercase
                && (index == text.startIndex || !(text[text.index(before: index)].isLetter || text[text.index(before: index)].isNumber))
            if atWordStart, let (code, after) = CourseCode.leading(in: String(rest)), after.count < rest.count,
               let url = links[code.description] {
                let consumed = rest.count - after.count
                let end = text.index(index, offsetBy: consumed)
                output += "[\(escape(String(text[index..<end])))](\(url.replacingOccurrences(of: ")", with: "%29")))"
                index = end
                continue
            }
            output += escape(String(text[index]))
            index = text.index(after: index)
        }
        return output
    }

    /// Backslash-escapes the characters Markdown would read as markup.
    static func escape(_ text: String) -> String {
        var output = ""
        for character in text {
            if "\\`*_[]<>#|".contains(character) { output.append("\\") }
            output.append(character)
        }
        return output
    }
}
