import CatalogKit

/// The lossless check of requisite trees, for the harness and the tests.
extension Requisite {
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
