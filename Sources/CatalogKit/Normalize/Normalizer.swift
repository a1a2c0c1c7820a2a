/// The normalize stage: parsed courses in, clean courses out. A pure function of its input and rules.
public struct Normalizer: Sendable {
    public var rules: NormalizationRules

    public init(rules: NormalizationRules = .standard) {
        self.rules = rules
    }

    /// The numbering that gives levels: the configured ranges, else the scheme `codes` are written in, four-digit when
    /// more numbers have four places or more than fewer ("2303", "0300", "7A20"), three-digit otherwise.
    public func numberingScheme(for codes: some Sequence<CourseCode>) -> NumberingScheme {
        if let levels = rules.levels { return NumberingScheme(ranges: levels, origin: "normalize.levels") }
        var wide = 0, narrow = 0
        for code in codes {
            if code.numberWidth >= 4 { wide += 1 } else if code.numberWidth > 0 { narrow += 1 }
        }
        return wide > narrow ? .fourDigit : .threeDigit
    }

    /// One course; `links` maps codes to catalog URLs for Markdown, levels come from `scheme` (by default its own).
    public func normalize(_ parsed: ParsedCourse, links: [String: String] = [:], scheme: NumberingScheme? = nil) -> Course {
        let scheme = scheme ?? numberingScheme(for: [parsed.code])
        var warnings: [String] = []
        let code = rules.subjects.renaming(parsed.code)
        if !rules.knownSubjects.isEmpty, !rules.knownSubjects.contains(code.subject) {
            warnings.append("unknown subject \(code.subject) (not in normalize.knownSubjects); kept")
        }
        let creditsText = parsed.creditsText.map(TextCleaner.cleanLine)
        var credits = creditsText.flatMap(CreditRange.init(parsing:))
        if credits == nil, let triple = parsed.contactHours { credits = CreditRange(parsing: "(\(triple))") }
        if let text = creditsText, credits == nil, !CreditRange.saysVariable(text) {
            warnings.append("credits \"\(text)\" not understood; kept as written")
        }

        var (level, levelSource): (CourseLevel?, String?)
        if let stated = parsed.fields.first(where: { ["level", "levels", "course level"].contains($0.label.lowercased()) }),
           let found = CourseLevel(stated: stated.value) {
            (level, levelSource) = (found, "the page's \"\(stated.label)\" field")
        } else if let found = scheme.level(of: code, title: parsed.title) {
            (level, levelSource) = found
        } else {
            warnings.append("no level: number \(code.numericValue) is in no range of the \(scheme.origin)")
        }

        var linkTable = links
        for link in parsed.prerequisiteLinks + parsed.corequisiteLinks {
            if let linked = link.code, let url = link.url, linkTable[linked] == nil { linkTable[linked] = url }
        }
        let prerequisite = requisite(parsed.prerequisiteText, links: linkTable)
        let corequisite = requisite(parsed.corequisiteText, links: linkTable)

        return Course(
            parsed: parsed, code: code, title: TextCleaner.cleanLine(parsed.title),
            description: TextCleaner.clean(parsed.description),
            credits: credits, creditsText: creditsText, level: level, levelSource: levelSource,
            prerequisite: prerequisite.tree, prerequisiteString: prerequisite.text, prerequisiteMarkdown: prerequisite.markdown,
            prerequisiteCourses: prerequisite.courses,
            corequisite: corequisite.tree, corequisiteString: corequisite.text, corequisiteMarkdown: corequisite.markdown,
            corequisiteCourses: corequisite.courses, warnings: warnings)
    }

    func requisite(_ source: String?, links: [String: String])
        -> (tree: Requisite?, text: String?, markdown: String?, courses: [String]) {
        guard let cleaned = source.map(TextCleaner.cleanLine), !cleaned.isEmpty else { return (nil, nil, nil, []) }
        let text = RequisiteParser.canonicalText(cleaned)
        let tree = RequisiteParser.parse(cleaned, renaming: rules.subjects)
        return (tree, text, RequisiteMarkdown.render(text, links: links), tree?.courses ?? [])
    }

    /// A whole catalog, sorted by id, shared codes resolved (`SharedCodes`), with reverse prerequisite links and the
    /// codes the catalog lacks; the page order makes no difference to the result.
    public func normalize(catalog parsed: consuming [ParsedCourse]) -> [Course] {
        let codeLinks = ParallelMap.map(Array(parsed.indices)) { [parsed] index in
            (parsed[index].code.description, parsed[index].pageURL ?? parsed[index].sourceURL)
        }
        // A code two pages give links to the first of their URLs, whichever page came first.
        let links = Dictionary(codeLinks, uniquingKeysWith: min)
        let scheme = numberingScheme(for: parsed.lazy.map(\.code))
        // Each course is independent of the others: spread over the cores, where each parsed course is let go of.
        var normalized = ParallelMap.map(consume parsed) { [links] in normalize($0, links: links, scheme: scheme) }
        let shared = SharedCodes.resolve(normalized)
        for (index, qualifier) in shared.qualifiers { normalized[index].idQualifier = qualifier }
        for (index, warnings) in shared.warnings { normalized[index].warnings += warnings }
        // Below, indices move and each id and code is worked out once, on the cores (`keys` reads the courses
        // through a copy of the array that ends with it, so the links set below change the array in place).
        let keys = { [normalized] in
            ParallelMap.map(Array(normalized.indices)) { index in
                (id: Course.id(code: normalized[index].code, qualifier: normalized[index].idQualifier),
                 code: normalized[index].code, codeText: normalized[index].code.description)
            }
        }()
        var kept = shared.kept
        let ids = keys.map(\.id)
        kept.sort { ids[$0] < ids[$1] }
        let codes = Set(kept.map { keys[$0].codeText })
        var requiredBy: [String: [Int]] = [:]
        for index in kept {
            for required in normalized[index].prerequisiteCourses { requiredBy[required, default: []].append(index) }
        }
        let reverse = ParallelMap.map(kept) { [requiredBy, normalized] index -> (prerequisiteFor: [String], missing: [String]) in
            let requirers = Set((requiredBy[keys[index].codeText] ?? []).map { keys[$0].code })
            let prerequisiteFor = requirers.sorted().map(\.description)
            let references = Set(normalized[index].prerequisiteCourses + normalized[index].corequisiteCourses)
            return (prerequisiteFor, references.filter { !codes.contains($0) }.sorted())
        }
        for (position, index) in kept.enumerated() {
            normalized[index].prerequisiteFor = reverse[position].prerequisiteFor
            normalized[index].missingReferences = reverse[position].missing
        }
        // The kept courses are moved out in order, not copied (a copy retains every field, and the array's end
        // releases them all again): popped into optional slots, last course first, each slot taken once.
        var slots: [Course?] = []
        slots.reserveCapacity(normalized.count)
        while let course = normalized.popLast() { slots.append(course) }
        return kept.compactMap { index in slots[slots.count - 1 - index].take() }
    }
}

/// Renders requisite text as Markdown with course codes linked to their catalog pages.
enum RequisiteMarkdown {
    static func render(_ text: String, links: [String: String]) -> String {
        if links.isEmpty { return MarkupEscaping.markdown(text) }
        // The scanner reads scalars by offset; the text between codes is copied out of the string by index,
        // which `position` keeps in step with `index` (building it scalar by scalar cost more than the scan).
        let view = text.unicodeScalars
        let scalars = Array(view)
        var output = ""
        output.reserveCapacity(text.utf8.count + 64)
        var plainStart = view.startIndex
        var position = view.startIndex
        var index = 0
        while index < scalars.count {
            // A code starts with an upper-case ASCII letter (all `scan` accepts) at a word start ("CIS 162", not "xCIS 162").
            if CourseCodeScanner.isLetter(scalars[index], upperOnly: true), index == 0 || !isWordCharacter(scalars[index - 1]),
               let match = CourseCodeScanner.scan(scalars, from: index, caseSensitive: true),
               let url = links[match.code.description] {
                let end = view.index(position, offsetBy: match.end - index)
                output += MarkupEscaping.markdown(String(view[plainStart..<position]))
                output += "[\(MarkupEscaping.markdown(String(view[position..<end])))](\(MarkupEscaping.markdownLinkTarget(url)))"
                index = match.end
                position = end
                plainStart = end
                continue
            }
            index += 1
            position = view.index(after: position)
        }
        output += MarkupEscaping.markdown(String(view[plainStart...]))
        return output
    }

    private static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
    }
}
