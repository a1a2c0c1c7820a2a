/// Qualifiers of a course: a minimum grade, taken concurrently, credit hours completed.
extension RequisiteScanner {
    /// "[A] [minimum] grade of C- [or better] [in]", "with a grade of C or better", "C or higher in",
    /// "Minimum Grade of D-", "Min Grade: C", "with a “C” or better", "a minimum "C-" grade in" (the grade before
    /// the word, as Langara writes it).
    mutating func gradeQualifier(allowArticle: Bool) -> Bool {
        var j = index
        let chain = keyword(j) == .with
        if chain { j += 1 }
        if allowArticle, keyword(j) == .a || keyword(j) == .an { j += 1 }
        var named = false
        if keyword(j) == .minimum || keyword(j) == .min {
            j += 1
            named = true
        }
        let minimumOnly = named && keyword(j) != .grade && keyword(j) != .grades
        if keyword(j) == .grade || keyword(j) == .grades {
            j += 1
            named = true
            if isPunct(j, UInt8(ascii: ":")) || keyword(j) == .of { j += 1 }
        } else if named, keyword(j) == .of {
            j += 1
        }
        guard let grade = grade(at: j) else { return false }
        j = grade.next
        if minimumOnly, keyword(j) == .grade { j += 1 }
        let afterComparison = afterComparative(j)
        let compared = afterComparison != j
        j = afterComparison
        guard named || compared else { return false }
        if !chain, keyword(j) == .in || keyword(j) == .for {
            // "C or better in each of A, B, and C".
            if keyword(j + 1) == .each || keyword(j + 1) == .all, keyword(j + 2) == .of { j += 2 }
            var item = RequisiteItem(.gradePrefix, tokens[index].start, tokens[j].end)
            (item.valueStart, item.valueEnd) = (grade.start, grade.end)
            return append(item, next: j + 1)
        }
        let kind: RequisiteItem.Kind = chain || !named ? .gradeSuffixChain : .gradeSuffixImmediate
        return emitSuffix(kind, from: index, through: j - 1, grade: (grade.start, grade.end))
    }

    /// "credit or registration in", "concurrent enrollment in or credit for", "prior or concurrent enrollment in".
    mutating func concurrencyPrefix() -> Bool {
        var j = index
        switch keyword(j) {
        case .credit, .completion, .successful:
            if keyword(j) == .successful { j += 1 }
            j += 1
            if keyword(j) == .for || keyword(j) == .in || keyword(j) == .of { j += 1 }
            guard keyword(j) == .or else { return false }
            j += 1
            if keyword(j) == .concurrent || keyword(j) == .current { j += 1 }
            guard isEnrollment(j) else { return false }
            j += 1
            if keyword(j) == .in || keyword(j) == .for { j += 1 }
        case .concurrent:
            j += 1
            guard isEnrollment(j) else { return false }
            j += 1
            if keyword(j) == .in || keyword(j) == .for { j += 1 }
            if keyword(j) == .or {
                if keyword(j + 1) == .credit, keyword(j + 2) == .for || keyword(j + 2) == .in {
                    j += 3
                } else if keyword(j + 1) == .completion, keyword(j + 2) == .of {
                    j += 3
                } else if keyword(j + 1) == .prior, keyword(j + 2) == .credit, keyword(j + 3) == .for {
                    j += 4
                }
            }
        case .prior, .previous:
            j += 1
            guard keyword(j) == .or, keyword(j + 1) == .concurrent, isEnrollment(j + 2) else { return false }
            j += 3
            if keyword(j) == .in || keyword(j) == .for { j += 1 }
        case .corequisite, .corequisites:
            j += 1
            if isPunct(j, UInt8(ascii: ":")) { j += 1 }
        default:
            return false
        }
        return emit(.concurrentPrefix, from: index, through: j - 1)
    }

    /// "may be taken concurrently", "can be concurrent" (UC Davis), "concurrently", "or concurrent enrollment".
    mutating func concurrencySuffix() -> Bool {
        var j = index
        switch keyword(j) {
        case .which, .may, .can:
            if keyword(j) == .which {
                guard keyword(j + 1) == .may || keyword(j + 1) == .can else { return false }
                j += 1
            }
            guard keyword(j + 1) == .be else { return false }
            j += 2
            if keyword(j) == .taken { j += 1 }
            guard keyword(j) == .concurrently || keyword(j) == .concurrent else { return false }
            j += 1
        case .taken:
            guard keyword(j + 1) == .concurrently else { return false }
            j += 2
        case .concurrently:
            j += 1
        case .or:
            if keyword(j + 1) == .concurrently {
                j += 2
            } else if keyword(j + 1) == .concurrent, isEnrollment(j + 2), keyword(j + 3) != .in,
                      keyword(j + 3) != .for {
                j += 3
            } else {
                return false
            }
        default:
            return false
        }
        return emitSuffix(.concurrentSuffixChain, from: index, through: j - 1)
    }

    func isEnrollment(_ k: Int) -> Bool {
        [.enrollment, .enrolment, .registration].contains(keyword(k))
    }

    /// "credit for", "completion of", "successful completion of", "a passing grade in", "Undergraduate level".
    mutating func creditPrefix() -> Bool {
        var j = index
        switch keyword(j) {
        case .credit:
            guard keyword(j + 1) == .for || keyword(j + 1) == .in else { return false }
            j += 2
        case .successful:
            guard keyword(j + 1) == .completion, keyword(j + 2) == .of else { return false }
            j += 3
        case .completion:
            guard keyword(j + 1) == .of else { return false }
            j += 2
        case .a, .an, .passing:
            if keyword(j) != .passing { j += 1 }
            guard keyword(j) == .passing, keyword(j + 1) == .grade, keyword(j + 2) == .in || keyword(j + 2) == .of else { return false }
            j += 3
        case .undergraduate, .graduate:
            guard keyword(j + 1) == .level else { return false }
            j += 2
        default:
            return false
        }
        return emit(.creditPrefix, from: index, through: j - 1)
    }
}
