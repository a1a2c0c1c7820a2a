extension Requisite {
    /// Sorted, de-duplicated canonical codes of every course leaf (e.g. ["CIS 162", "MTH 201"]).
    ///
    /// Codes mentioned only inside text leaves or folded into a leaf's `source` (rename notes such as
    /// "formerly ACCT 2331", "recommended" asides) are not requirements and are not listed.
    public var courses: [String] {
        var codes = Set<CourseCode>()
        collectCourses(into: &codes)
        return codes.sorted().map(\.description)
    }

    private func collectCourses(into codes: inout Set<CourseCode>) {
        if case .course(let course) = self { codes.insert(course.code) }
        for child in children { child.collectCourses(into: &codes) }
    }

    /// The nodes an operator joins; none for a leaf.
    var children: [Requisite] {
        switch self {
        case .all(let children, _), .any(let children, _), .atLeast(_, let children, _): children
        case .course, .standing, .program, .permission, .exam, .text: []
        }
    }

    /// Human-readable indented tree, one node per line (for `gvingest prereq TEXT`).
    public func indentedDescription() -> String {
        var lines: [String] = []
        appendLines(to: &lines, depth: 0)
        return lines.joined(separator: "\n")
    }

    private func appendLines(to lines: inout [String], depth: Int) {
        let indent = String(repeating: "  ", count: depth)
        func quoted(_ source: String?) -> String { source.map { "  \"\($0)\"" } ?? "" }
        switch self {
        case .all(_, let connective), .any(_, let connective), .atLeast(_, _, let connective):
            let name = switch self {
            case .atLeast(let count, _, _): "at least \(count) of"
            case .any: "any of"
            default: "all of"
            }
            lines.append(indent + name + (connective.map { "  (\($0))" } ?? ""))
        case .course(let course):
            var qualifiers: [String] = []
            if let grade = course.minGrade { qualifiers.append("min grade \(grade)") }
            if course.concurrent { qualifiers.append("concurrent ok") }
            let details = qualifiers.isEmpty ? "" : " [" + qualifiers.joined(separator: ", ") + "]"
            lines.append(indent + "course " + course.code.description + details + quoted(course.source))
        case .standing(let value, let source):
            lines.append(indent + "standing " + value + quoted(source))
        case .program(let value, let source):
            lines.append(indent + "program " + value + quoted(source))
        case .permission(let value, let source):
            lines.append(indent + "permission of " + value + quoted(source))
        case .exam(let name, let score, let source):
            lines.append(indent + "exam " + name + (score.map { " score " + $0 } ?? "") + quoted(source))
        case .text(let text):
            lines.append(indent + "text \"" + text + "\"")
        }
        for child in children { child.appendLines(to: &lines, depth: depth + 1) }
    }

    /// Words of `source` that the tree does not account for; empty when the tree is lossless.
    ///
    /// A word is a maximal run of letters and digits, compared case-insensitively ("C-" is "C"; "3000-4000" is
    /// two). A leaf carries the words of its `source`, else of its value; an operator those of its `connective`.
    /// Leaf words are counted (leaves come from disjoint spans, so a word written three times must be carried
    /// three times); a connective word need only be present (one "and" stands for every "and" it joined).
    public func missingWords(of source: String) -> [String] {
        var leafCounts: [String: Int] = [:]
        var connectiveWords = Set<String>()
        collectWords(leafCounts: &leafCounts, connectiveWords: &connectiveWords)
        var missing: [String] = []
        for word in Requisite.words(of: source) {
            if connectiveWords.contains(word) { continue }
            if let count = leafCounts[word], count > 0 {
                leafCounts[word] = count - 1
            } else {
                missing.append(word)
            }
        }
        return missing
    }

    /// The lower-cased words of `text`: maximal runs of letters and digits.
    ///
    /// Read by scalar, not by `Character`: leaves are spans the parser cuts between scalars, and a cut
    /// can split a grapheme cluster (a space and the combining mark after it, " \u{656}n"), which
    /// would make the same letters one word in the source and another in the leaf.
    public static func words(of text: String) -> [String] {
        var words: [String] = []
        var current = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                current.append(scalar)
            } else if !current.isEmpty {
                words.append(String(current).lowercased())
                current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { words.append(String(current).lowercased()) }
        return words
    }

    private func collectWords(leafCounts: inout [String: Int], connectiveWords: inout Set<String>) {
        func addLeaf(_ text: String) {
            for word in Requisite.words(of: text) { leafCounts[word, default: 0] += 1 }
        }
        switch self {
        case .all(let children, let connective), .any(let children, let connective), .atLeast(_, let children, let connective):
            if let connective { connectiveWords.formUnion(Requisite.words(of: connective)) }
            for child in children { child.collectWords(leafCounts: &leafCounts, connectiveWords: &connectiveWords) }
        case .course(let course):
            addLeaf(course.source ?? course.code.description)
        case .standing(let value, let source), .program(let value, let source), .permission(let value, let source):
            addLeaf(source ?? value)
        case .exam(let name, let score, let source):
            addLeaf(source ?? (name + " " + (score ?? "")))
        case .text(let text):
            addLeaf(text)
        }
    }
}
