/// Qualifiers of a course: a minimum grade, taken concurrently, credit hours completed.
extension RequisiteScanner {
    /// What names a grade before it: "minimum grade of", "Grade:", "min".
    static let gradeNames = phrases("minimum|min grade|grades [:|of]", "grade|grades [:|of]", "minimum|min [of]")

    /// "[A] [minimum] grade of C- [or better] [in]", "with a grade of C or better", "C or higher in", "Min Grade: C",
    /// "with a “C” or better", "a minimum "C-" grade in" (the grade before the word, as Langara writes it).
    mutating func gradeQualifier(allowArticle: Bool) -> Bool {
        var j = index
        let chain = keyword(j) == .with
        if chain { j += 1 }
        if allowArticle, keyword(j) == .a || keyword(j) == .an { j += 1 }
        // Every word the scanner does not know comes here (as a bare grade): the table is asked only when it can help.
        let named = [.minimum, .min, .grade, .grades].contains(keyword(j)) ? match(Self.gradeNames, from: j) : nil
        let minimumOnly = (keyword(j) == .minimum || keyword(j) == .min)
            && keyword(j + 1) != .grade && keyword(j + 1) != .grades
        guard let grade = grade(at: named ?? j) else { return false }
        j = grade.next
        if minimumOnly, keyword(j) == .grade { j += 1 }
        let afterComparison = afterComparative(j)
        guard named != nil || afterComparison != j else { return false }
        j = afterComparison
        if !chain, keyword(j) == .in || keyword(j) == .for {
            // "C or better in each of A, B, and C".
            if keyword(j + 1) == .each || keyword(j + 1) == .all, keyword(j + 2) == .of { j += 2 }
            var item = RequisiteItem(.gradePrefix, tokens[index].start, tokens[j].end)
            (item.valueStart, item.valueEnd) = (grade.start, grade.end)
            return append(item, next: j + 1)
        }
        let kind: RequisiteItem.Kind = chain || named == nil ? .gradeSuffixChain : .gradeSuffixImmediate
        return emitSuffix(kind, from: index, through: j - 1, grade: (grade.start, grade.end))
    }

    /// "credit or registration in", "concurrent enrollment in or credit for", "prior or concurrent enrollment in".
    static let concurrencyPrefixes = phrases(
        "credit|completion [for|in|of] or [concurrent|current] enrollment|enrolment|registration [in|for]",
        "successful * [for|in|of] or [concurrent|current] enrollment|enrolment|registration [in|for]",
        "concurrent enrollment|enrolment|registration [in|for] or credit for|in",
        "concurrent enrollment|enrolment|registration [in|for] or completion of",
        "concurrent enrollment|enrolment|registration [in|for] or prior credit for",
        "concurrent enrollment|enrolment|registration [in|for]",
        "prior|previous or concurrent enrollment|enrolment|registration [in|for]",
        "corequisite|corequisites [:]")

    /// "may be taken concurrently", "can be concurrent" (UC Davis), "concurrently", "or concurrent enrollment".
    static let concurrencySuffixes = phrases(
        "which may|can be [taken] concurrently|concurrent",
        "may|can be [taken] concurrently|concurrent",
        "taken concurrently",
        "[or] concurrently",
        "or concurrent enrollment|enrolment|registration !in|for")

    /// "credit for", "completion of", "successful completion of", "a passing grade in", "Undergraduate level".
    static let creditPrefixes = phrases(
        "credit for|in", "successful completion of", "completion of", "[a|an] passing grade in|of",
        "undergraduate|graduate level")

    /// Notes: another name of a course ("formerly …", "same as") or an aside ("… recommended", "may not …").
    static let mentions = phrases("formerly|previously|excluding|except|crosslisted", "cross - listed|list", "same as")
    static let asides = phrases("recommended|suggested|waived|cannot", "must|may not")

    /// Emits a concurrency or credit qualifier over the first of its phrases written from the current token.
    mutating func emit(_ kind: RequisiteItem.Kind) -> Bool {
        let phrases = kind == .creditPrefix ? Self.creditPrefixes
            : kind == .concurrentPrefix ? Self.concurrencyPrefixes : Self.concurrencySuffixes
        guard let next = match(phrases, from: index) else { return false }
        return kind.isSuffix ? emitSuffix(kind, from: index, through: next - 1) : emit(kind, from: index, through: next - 1)
    }

    /// Phrases written as lines of words: `a|b` is either word, `[…]` may be left out, `!…` must not come next (and is
    /// not read), `*` is any token, and a mark such as `:` is that punctuation (`:|of` either).
    static func phrases(_ lines: String...) -> [[PhraseStep]] {
        lines.map { line in
            line.split(separator: " ").map { written in
                var step = PhraseStep()
                var text = written
                if text.hasPrefix("[") { (step.mode, text) = (.optional, text.dropFirst().dropLast()) }
                if text.hasPrefix("!") { (step.mode, text) = (.absent, text.dropFirst()) }
                if text == "*" { step.mode = .anyToken }
                if let byte = text.utf8.first, !RequisiteLexer.isASCIILetter(byte) { step.punct = byte }
                let parts = text.split(separator: "|")
                step.words = parts.compactMap { RequisiteKeyword(rawValue: String($0)) }
                // Each part is a keyword, or the one leading punctuation: a misspelt word would drop out unseen.
                assert(step.mode == .anyToken || step.words.count + (step.punct == 0 ? 0 : 1) == parts.count, "\(written)")
                return step
            }
        }
    }

    /// The token after the first of `phrases` written from token `start`, or nil when none is.
    func match(_ phrases: [[PhraseStep]], from start: Int) -> Int? {
        phrases: for phrase in phrases {
            var j = start
            for step in phrase {
                let found = step.mode == .anyToken || (step.punct != 0 && isPunct(j, step.punct))
                    || step.words.contains(keyword(j))
                switch (step.mode, found) {
                case (.absent, true): continue phrases
                case (.absent, false), (.optional, false): break
                case (_, true): j += 1
                default: continue phrases
                }
            }
            return j
        }
        return nil
    }
}

/// One token of a phrase of a table: one of `words`, or the punctuation mark `punct`.
struct PhraseStep {
    enum Mode { case required, optional, absent, anyToken }
    var mode = Mode.required
    var words: [RequisiteKeyword] = []
    var punct: UInt8 = 0
}
