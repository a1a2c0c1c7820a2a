import Foundation
import SafeLibXML

/// Reads a course heading: "CIS 452 - Operating Systems", "CIS 499: Study", "THTR 7900 Research and Writing (3)".
enum CourseHeading {
    struct Parsed: Equatable {
        var code: CourseCode
        var title: String
        /// Credits in parentheses at the end of the heading, as LSU writes them ("3", "1-12 per sem.").
        var credits: String?
        /// What the credits' slash adds: "Maximum of 18" in "1-18 Credits/Maximum of 18".
        var creditsCap: String?
        /// Whether a period follows the code ("MATH 92. Algebra Review. 3 units"), so one closes the title too.
        var periodSeparated = false
    }

    static let separators: Set<Character> = ["-", "\u{2013}", "\u{2014}", ":", "."]

    /// The nearest text before a course heading that mentions "Catalog", outside links and a catalog menu's choices.
    static func catalogName(before heading: HTMLNode) -> HTMLNode? {
        heading.nearestPrecedingText(containing: "Catalog", outside: ["a", "option"])
    }

    static func parse(_ text: String) -> Parsed? {
        let collapsed = TextCollapsing.collapse(text)
        guard let (code, rest) = CourseCode.leading(in: collapsed) else { return nil }
        // The code must stand alone: "CIS 452 - …", "CIS 452: …" or "CIS 452 …", not "CIS 452ish".
        if let first = rest.first, !(first == " " || separators.contains(first)) { return nil }
        var title = rest.drop(while: { $0 == " " })
        if let first = title.first, separators.contains(first) { title = title.dropFirst().drop(while: { $0 == " " }) }
        let periods = rest.first(where: { $0 != " " }) == "."
        let (stripped, credits) = trailingCredits(String(title))
        return Parsed(code: code, title: periods ? withoutClosingPeriod(stripped) : stripped, credits: credits, periodSeparated: periods)
    }

    /// "Beginning Algebra Review." without its closing period; an ellipsis ("Topics…", "Topics...") is the title's.
    private static func withoutClosingPeriod(_ title: String) -> String {
        guard title.hasSuffix("."), !title.hasSuffix("..") else { return title }
        return String(title.dropLast().trimmingTrailingSpaces())
    }

    /// Reads a heading whose title may end in a credit phrase ("CIS 112  Computer Literacy  3 Credit Hours").
    static func parseSplittingCredits(_ text: String) -> Parsed? {
        guard var parsed = parse(text) else { return nil }
        if let (title, credits, cap) = trailingCreditPhrase(parsed.title) {
            parsed.title = title
            parsed.credits = credits
            parsed.creditsCap = cap
            // The credits followed the title's closing period ("Vector Analysis. 4 units"): parse saw none.
            if parsed.periodSeparated { parsed.title = withoutClosingPeriod(title) }
        }
        return parsed
    }

    /// Splits "Title (3)" into "Title" and "3" when the parenthetical reads as credits.
    static func trailingCredits(_ title: String) -> (title: String, credits: String?) {
        trailingParenthetical(title) { $0.first?.isASCIIDigit == true && looksLikeCredits($0) }
    }

    /// Splits "Text (inner)" into "Text" and "inner" when `accepts` takes the inner text.
    static func trailingParenthetical(_ text: String, accepts: (Substring) -> Bool) -> (String, String?) {
        guard text.hasSuffix(")"), let open = text.lastIndex(of: "(") else { return (text, nil) }
        let inner = text[text.index(after: open)..<text.index(before: text.endIndex)]
        guard accepts(inner) else { return (text, nil) }
        return (String(text[..<open].trimmingTrailingSpaces()), String(inner))
    }

    /// Words that end a credit phrase: "3 Credit Hours", "4.000 Credit hours", "(3 Credits)".
    private static let creditUnits: Set<String> = ["credit", "credits", "hour", "hours", "hr", "hrs", "cr", "unit", "units",
                                                   "sch"]
    private static let creditJoiners: Set<String> = ["to", "or", "-", "\u{2013}"]

    /// Splits "Literacy 3 Credit Hours" into the text before and the credits ("3", "1 to 3", "3 or 4"), when numbers
    /// and credit units end it; a cap after a slash ("1-18 Credits/Maximum of 18") is `cap` ("Credit/No Credit" none).
    static func trailingCreditPhrase(_ text: String) -> (rest: String, credits: String, cap: String?)? {
        var words = TextCollapsing.collapse(text).split(separator: " ").map(String.init)
        // "Credit(s)", "unit(s)": a plural in parentheses, no opening one.
        func bare(_ word: String) -> String {
            var word = word.lowercased()
            if word.hasSuffix("(s)") { word.removeLast(3) }
            return word.trimmingCharacters(in: CharacterSet(charactersIn: "().:"))
        }
        var cap: String?
        if text.utf8.contains(UInt8(ascii: "/")),
           let slashed = words.lastIndex(where: { $0.contains("/") }), slashed > 0, words[slashed - 1].first?.isASCIIDigit == true,
           let slash = words[slashed].firstIndex(of: "/"), creditUnits.contains(bare(String(words[slashed][..<slash]))) {
            let after = words[slashed][words[slashed].index(after: slash)...]
            if !after.isEmpty, !creditUnits.contains(bare(String(after))) {
                cap = ([String(after)] + words[(slashed + 1)...]).joined(separator: " ")
                words[slashed] = String(words[slashed][..<slash])
                words.removeSubrange((slashed + 1)...)
            }
        }
        let parenthesized = words.last.map { $0.hasSuffix(")") && !$0.lowercased().hasSuffix("(s)") } == true
        func isNumber(_ word: String) -> Bool {
            let digits = bare(word)
            return !digits.isEmpty && digits.allSatisfy { $0.isASCIIDigit || $0 == "." || $0 == "-" || $0 == "\u{2013}" }
                && (Double(digits.split(whereSeparator: { $0 == "-" || $0 == "\u{2013}" }).first ?? "") ?? .infinity) <= maximumCredits
        }
        var units = 0
        while units < 2, units < words.count, creditUnits.contains(bare(words[words.count - 1 - units])) { units += 1 }
        guard units > 0 else { return nil }
        words.removeLast(units)
        guard let last = words.last, isNumber(last) else { return nil }
        var start = words.count - 1
        // Numbers joined by "to", "or" or a dash: "1 to 3", "3 or 4"; a lone number before them is the title's.
        while start >= 2, creditJoiners.contains(bare(words[start - 1])), isNumber(words[start - 2]) { start -= 2 }
        if parenthesized, !words[start].hasPrefix("(") { return nil }
        let credits = words[start...].map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "()")) }.joined(separator: " ")
        return (words[..<start].joined(separator: " "), credits, cap)
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
    /// Up to the last character that is not a space (" " only; other white space stays).
    func trimmingTrailingSpaces() -> SubSequence {
        self[..<(lastIndex { $0 != " " }.map(index(after:)) ?? startIndex)]
    }
}
