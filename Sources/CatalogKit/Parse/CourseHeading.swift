import SafeLibXML

/// Reads a course heading: "CIS 452 - Operating Systems Concepts", "CIS 499: Independent Study",
/// "CHEM 1101 Principles of Chemistry I", "THTR 7900 Research and Writing (3)".
enum CourseHeading {
    struct Parsed: Equatable {
        var code: CourseCode
        var title: String
        /// Credits in parentheses at the end of the heading, as LSU writes them ("3", "1-12 per sem.").
        var credits: String?
    }

    static let separators: Set<Character> = ["-", "\u{2013}", "\u{2014}", ":", "."]

    static func parse(_ text: String) -> Parsed? {
        let collapsed = TextCollapsing.collapse(text)
        guard let (code, rest) = CourseCode.leading(in: collapsed) else { return nil }
        // The code must stand alone: "CIS 452 - …", "CIS 452: …" or "CIS 452 …", not "CIS 452ish".
        if let first = rest.first, !(first == " " || separators.contains(first)) { return nil }
        var title = Substring(rest)
        title = title.drop(while: { $0 == " " })
        if let first = title.first, separators.contains(first) {
            title = title.dropFirst().drop(while: { $0 == " " })
        }
        var titleText = String(title)
        var credits: String?
        if let (stripped, found) = trailingCredits(titleText) {
            titleText = stripped
            credits = found
        }
        return Parsed(code: code, title: titleText, credits: credits)
    }

    /// Splits "Title (3)" into "Title" and "3" when the parenthetical reads as credits.
    static func trailingCredits(_ title: String) -> (String, String)? {
        guard title.hasSuffix(")"), let open = title.lastIndex(of: "(") else { return nil }
        let inner = title[title.index(after: open)..<title.index(before: title.endIndex)]
        guard let first = inner.first, first.isASCIIDigit, looksLikeCredits(inner) else { return nil }
        let stripped = title[..<open].trimmingTrailingSpaces()
        return (String(stripped), String(inner))
    }

    private static let creditWords: Set<String> = ["to", "or", "per", "sem", "sem.", "cr", "cr.", "credit", "credits",
                                                   "hour", "hours", "hr", "hr.", "hrs", "hrs.", "unit", "units", "-", "–"]

    /// More credits than this in one course is a year ("(1800 - 1848)"), not credits.
    static let maximumCredits = 30.0

    static func looksLikeCredits(_ text: Substring) -> Bool {
        for word in text.split(separator: " ") {
            if creditWords.contains(word.lowercased()) { continue }
            guard word.allSatisfy({ $0.isASCIIDigit || $0 == "." || $0 == "-" || $0 == "\u{2013}" || $0 == "," }) else { return false }
            for number in word.split(whereSeparator: { $0 == "-" || $0 == "\u{2013}" || $0 == "," }) {
                guard let value = Double(number), value <= maximumCredits else { return false }
            }
        }
        return true
    }
}

extension StringProtocol {
    func trimmingTrailingSpaces() -> SubSequence {
        var end = endIndex
        while end > startIndex, self[index(before: end)] == " " { end = index(before: end) }
        return self[startIndex..<end]
    }
}
