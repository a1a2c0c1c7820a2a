/// Turns tokens into items by recognizing the phrases of prerequisite prose: course codes (with an
/// implicit subject after a list of codes), grade and concurrency qualifiers, standing, programs,
/// permission, exams, notes and counts. Words it does not recognize stay `.word`/`.filler` items.
///
/// Each recognizer either consumes tokens and emits items (returning true) or leaves `index` alone.
struct RequisiteScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let tokens: [RequisiteToken]
    var items: [RequisiteItem] = []
    /// Course codes, referenced by `RequisiteItem.codeIndex`.
    var codes: [CourseCode] = []
    var index = 0
    /// What the later passes need to do, so that they can skip work on plain texts.
    var sawParenthesisOrNote = false
    var sawColon = false
    var sawQualifier = false

    /// Test names that look like subjects ("SAT 600" is a score, not a course).
    static let scoreSubjects: Set<String> = ["ACT", "SAT", "GPA", "GRE", "GMAT", "AP", "IB", "CLEP", "TOEFL", "IELTS", "ALEKS", "HSCG"]

    init(bytes: UnsafeBufferPointer<UInt8>, tokens: [RequisiteToken]) {
        self.bytes = bytes
        self.tokens = tokens
        items.reserveCapacity(tokens.count)
    }

    // MARK: Token helpers

    @inline(__always)
    func keyword(_ j: Int) -> RequisiteKeyword {
        j < tokens.count && tokens[j].isWord ? tokens[j].keyword : .unknown
    }

    @inline(__always)
    func isPunct(_ j: Int, _ byte: UInt8) -> Bool {
        j < tokens.count && !tokens[j].isWord && tokens[j].punct == byte
    }

    @inline(__always)
    func isWord(_ j: Int) -> Bool { j < tokens.count && tokens[j].isWord }

    /// True when the word starts with an upper-case letter.
    func isCapitalized(_ j: Int) -> Bool {
        guard isWord(j) else { return false }
        let b = bytes[tokens[j].start]
        return b >= 0x41 && b <= 0x5A
    }

    func isQuote(_ j: Int) -> Bool { isPunct(j, 0x22) || isPunct(j, 0x27) }

    /// "or better", "or higher", "or above": returns the index after it, or `j`.
    func afterComparative(_ j: Int) -> Int {
        keyword(j) == .or && keyword(j + 1).isComparative ? j + 2 : j
    }

    /// A letter grade ("C", "C-", "B+", quoted or not) at `j`: its byte span and the next token.
    func grade(at j0: Int) -> (start: Int, end: Int, next: Int)? {
        var j = j0
        if isQuote(j) { j += 1 }
        guard j < tokens.count, tokens[j].isWord, tokens[j].length == 1 else { return nil }
        let letter = bytes[tokens[j].start]
        guard letter >= 0x41 && letter <= 0x46 else { return nil }  // A-F
        let start = tokens[j].start
        var end = tokens[j].end
        j += 1
        if j < tokens.count, !tokens[j].spaceBefore, isPunct(j, 0x2B) || isPunct(j, 0x2D) {
            end = tokens[j].end
            j += 1
        }
        if isQuote(j), !tokens[j].spaceBefore { j += 1 }
        return (start, end, j)
    }

    // MARK: Emitting

    mutating func emit(_ kind: RequisiteItem.Kind, from first: Int, through last: Int) {
        var item = RequisiteItem(kind, tokens[first].start, tokens[last].end)
        if first == last { item.keyword = tokens[first].keyword }
        if item.isQualifier { sawQualifier = true }
        items.append(item)
        index = last + 1
    }

    /// Emits a suffix qualifier; a bracket or parenthesis pair around exactly it ("(minimum grade
    /// of C-)", "[Min Grade: C]") becomes part of it rather than a group.
    mutating func emitSuffix(_ kind: RequisiteItem.Kind, from first: Int, through last: Int, grade: (Int, Int)? = nil) {
        var start = tokens[first].start
        var end = tokens[last].end
        var next = last + 1
        if first > 0, !tokens[first - 1].isWord, next < tokens.count, !tokens[next].isWord {
            let open = tokens[first - 1].punct, close = tokens[next].punct
            if (open == 0x28 && close == 0x29) || (open == 0x5B && close == 0x5D) {
                if open == 0x28, let lastItem = items.last, lastItem.kind == .open, lastItem.start == tokens[first - 1].start {
                    items.removeLast()
                }
                start = tokens[first - 1].start
                end = tokens[next].end
                next += 1
            }
        }
        var item = RequisiteItem(kind, start, end)
        if let grade { (item.valueStart, item.valueEnd) = grade }
        sawQualifier = true
        items.append(item)
        index = next
    }

    // MARK: Main loop

    mutating func run() {
        while index < tokens.count {
            if !tokens[index].isWord {
                punctuation()
                continue
            }
            if course() || implicitCourse() { continue }
            if phrase() { continue }
            let word = keyword(index)
            emit(word.isFiller ? .filler : .word, from: index, through: index)
        }
    }

    mutating func punctuation() {
        let token = tokens[index]
        let kind: RequisiteItem.Kind?
        switch token.punct {
        case 0x2C: kind = .comma
        case 0x3B: kind = .semicolon
        case 0x2E:
            // "3.50", "e.g.", "B.A.": a period glued to a following word ends no sentence.
            kind = index + 1 < tokens.count && tokens[index + 1].isWord && !tokens[index + 1].spaceBefore ? nil : .period
        case 0x28: kind = .open
        case 0x29: kind = .close
        case 0x2F: kind = .slash
        case 0x3A: kind = .colon
        case 0x26:
            // "MAT 180 & CPT 135" joins; "A&S" is part of a name.
            let spaced = token.spaceBefore || (index + 1 < tokens.count && tokens[index + 1].spaceBefore)
            kind = spaced ? .and : nil
        default: kind = nil
        }
        if let kind {
            if kind == .open || kind == .close { sawParenthesisOrNote = true }
            if kind == .colon { sawColon = true }
            items.append(RequisiteItem(kind, token.start, token.end))
        }
        index += 1
    }

    /// Dispatches on the current word's keyword to the phrase recognizers.
    mutating func phrase() -> Bool {
        let word = keyword(index)
        switch word {
        case .and, .plus:
            // "and/or" is an inclusive or.
            if word == .and, isPunct(index + 1, 0x2F), keyword(index + 2) == .or {
                emit(.or, from: index, through: index + 2)
                return true
            }
            emit(.and, from: index, through: index)
            return true
        case .or:
            if concurrencySuffix() { return true }
            // "a 2.0 GPA or higher": a comparison, not an alternative.
            if keyword(index + 1).isComparative {
                emit(.word, from: index, through: index + 1)
                return true
            }
            emit(.or, from: index, through: index)
            return true
        case .both:
            emit(.both, from: index, through: index)
            return true
        case .either:
            emit(.either, from: index, through: index)
            return true
        case .which:
            return concurrencySuffix()
        case .a, .an:
            return gradeQualifier(allowArticle: true) || gradeQualifier(allowArticle: false) || creditPrefix() || atLeast()
        case .with, .grade, .grades, .minimum, .min:
            return gradeQualifier(allowArticle: true)
        case .credit, .completion, .successful, .concurrent, .prior, .previous, .corequisite, .corequisites:
            return concurrencyPrefix() || creditPrefix()
        case .passing, .undergraduate:
            return creditPrefix()
        case .graduate:
            return creditPrefix() || standing() || rolePermission()
        case .may:
            return concurrencySuffix() || (keyword(index + 1) == .not && noteMarker(.aside, through: index + 1))
        case .taken, .concurrently:
            return concurrencySuffix()
        case .freshman, .sophomore, .junior, .senior:
            return standing()
        case .admission, .admitted, .acceptance, .accepted:
            return admissionProgram()
        case .major, .majors, .minor, .minors, .program, .programs, .certificate, .concentration:
            return rolePermission() || programNoun()
        case .permission, .consent, .approval, .approved, .authorization:
            return permission()
        case .score, .scores:
            return scoreExam()
        case .placement, .act, .sat, .aleks:
            return namedExam()
        case .formerly, .previously:
            return noteMarker(.rename, through: index)
        case .recommended, .suggested, .waived, .cannot:
            return noteMarker(.aside, through: index)
        case .must:
            return keyword(index + 1) == .not && noteMarker(.aside, through: index + 1)
        case .excluding, .except:
            return noteMarker(.excluding, through: index)
        case .crosslisted:
            return noteMarker(.crossListed, through: index)
        case .cross:
            return isPunct(index + 1, 0x2D) && (keyword(index + 2) == .listed || keyword(index + 2) == .list)
                && noteMarker(.crossListed, through: index + 2)
        case .same:
            return keyword(index + 1) == .as && noteMarker(.crossListed, through: index + 1)
        case .also:
            return items.last?.kind == .open && noteMarker(.also, through: index)
        case .one, .two, .three, .four, .five, .any, .at:
            return atLeast()
        default:
            if word.isRole { return rolePermission() }
            // A bare letter grade: "C or better in MATH 105".
            return gradeQualifier(allowArticle: false)
        }
    }

    // MARK: Courses

    /// A course code at the current token: "CIS 162", "CIS-162", "cis162", "C S 235", "CIS 162L", "BUSI B011".
    mutating func course() -> Bool {
        let t = tokens[index]
        guard t.isSimple else { return false }
        var subject = ""
        var numberToken = index
        if t.digits > 0 {
            // Glued: "MATH108", "cis162".
            guard t.leadLetters >= 2, t.leadLetters <= 5, t.digits >= 2, t.digits <= 5, t.tailLetters <= 2,
                  t.leadUpper || allLower(t.start, t.start + t.leadLetters) else { return false }
            subject = upperString(t.start, t.start + t.leadLetters)
            guard !Self.scoreSubjects.contains(subject) else { return false }
            return emitCourse(subject: subject, numberToken: index, numberStart: t.start + t.leadLetters, first: index)
        }
        // "OR 2330" in upper-case prose is a connective and a number; MATH is both a word and a subject.
        guard t.leadUpper, t.tailLetters == 0, t.keyword == .unknown || t.keyword == .math else { return false }
        if t.leadLetters == 1 {
            // Spaced single letters: "C S 235".
            var j = index + 1
            subject = upperString(t.start, t.end)
            while j < tokens.count, tokens[j].isWord, tokens[j].isSimple, tokens[j].leadLetters == 1, tokens[j].digits == 0, tokens[j].leadUpper,
                  subject.utf8.count < 5 {
                subject += upperString(tokens[j].start, tokens[j].end)
                j += 1
            }
            guard subject.utf8.count >= 2 else { return false }
            numberToken = j
        } else {
            guard t.leadLetters <= 5 else { return false }
            subject = upperString(t.start, t.end)
            numberToken = index + 1
            if isPunct(numberToken, 0x2D), numberToken + 1 < tokens.count, !tokens[numberToken + 1].spaceBefore, !tokens[numberToken].spaceBefore {
                numberToken += 1
            }
        }
        guard isCourseNumber(numberToken, allowLetterPrefix: true), !Self.scoreSubjects.contains(subject) else { return false }
        let n = tokens[numberToken]
        return emitCourse(subject: subject, numberToken: numberToken, numberStart: n.start, first: index)
    }

    /// Digits (2-5) with an optional upper-case suffix of up to two letters, or one prefix letter then digits, or
    /// digits with letters between them ("7A20", "460D1").
    func isCourseNumber(_ j: Int, allowLetterPrefix: Bool) -> Bool {
        guard j < tokens.count, tokens[j].isWord, tokens[j].isSimple || tokens[j].isLetteredNumber else { return false }
        let n = tokens[j]
        guard n.digits >= (n.isLetteredNumber ? 3 : 2), n.digits <= 5 + n.innerLetters * 4 else { return false }
        if n.leadLetters == 1 {
            guard allowLetterPrefix, n.leadUpper, n.tailLetters == 0 else { return false }
        } else if n.leadLetters > 1 {
            return false
        }
        if n.tailLetters > 0 {
            guard n.tailLetters <= 2, allUpper(n.end - n.tailLetters, n.end) else { return false }
        }
        // "3000 level courses", "3000-4000", "3000-level", "3.50" (but "ARTS 4330-ARTS 4331" is a list).
        if keyword(j + 1) == .level { return false }
        if j + 2 < tokens.count, !tokens[j + 1].spaceBefore, isPunct(j + 1, 0x2D) || isPunct(j + 1, 0x2E),
           tokens[j + 2].isWord, !tokens[j + 2].spaceBefore, tokens[j + 2].digits > 0 || tokens[j + 2].keyword == .level {
            return false
        }
        return true
    }

    mutating func emitCourse(subject: String, numberToken: Int, numberStart: Int, first: Int) -> Bool {
        let n = tokens[numberToken]
        let digitsEnd = n.end - n.tailLetters
        let number = String(decoding: UnsafeBufferPointer(rebasing: bytes[numberStart..<digitsEnd]), as: UTF8.self)
        let suffix = n.tailLetters > 0 ? upperString(digitsEnd, n.end) : nil
        var item = RequisiteItem(.course, tokens[first].start, n.end)
        item.codeIndex = codes.count
        codes.append(CourseCode(subject: subject, number: number, suffix: suffix))
        item.numberDigits = n.digits
        items.append(item)
        index = numberToken + 1
        return true
    }

    /// A bare number right after a course list ("CIS 162 and 163", "STA 215/312") takes that list's subject.
    mutating func implicitCourse() -> Bool {
        let t = tokens[index]
        guard t.isSimple || t.isLetteredNumber, t.leadLetters == 0, isCourseNumber(index, allowLetterPrefix: false) else { return false }
        if keyword(index + 1).isQuantityUnit { return false }
        var k = items.count - 1
        while k >= 0 {
            switch items[k].kind {
            case .and, .or, .comma, .slash, .open, .close, .semicolon, .both, .either:
                k -= 1
                continue
            default: break
            }
            break
        }
        // At least one connective or separator must come between: "MATH 2415 3 hours" is no list.
        guard k >= 0, k < items.count - 1, items[k].kind == .course, items[k].codeIndex >= 0,
              items[k].numberDigits == t.digits else { return false }
        let previous = codes[items[k].codeIndex]
        let digitsEnd = t.end - t.tailLetters
        var item = RequisiteItem(.course, t.start, t.end)
        item.codeIndex = codes.count
        codes.append(CourseCode(subject: previous.subject,
                               number: String(decoding: UnsafeBufferPointer(rebasing: bytes[t.start..<digitsEnd]), as: UTF8.self),
                               suffix: t.tailLetters > 0 ? upperString(digitsEnd, t.end) : nil))
        item.numberDigits = t.digits
        items.append(item)
        index += 1
        return true
    }

    /// ASCII upper-casing of a byte span (only ever called on ASCII letters).
    func upperString(_ start: Int, _ end: Int) -> String {
        String(unsafeUninitializedCapacity: end - start) { buffer in
            for i in start..<end {
                let b = bytes[i]
                buffer[i - start] = b >= 0x61 && b <= 0x7A ? b - 0x20 : b
            }
            return end - start
        }
    }

    func allLower(_ start: Int, _ end: Int) -> Bool {
        for i in start..<end where !(bytes[i] >= 0x61 && bytes[i] <= 0x7A) { return false }
        return true
    }

    func allUpper(_ start: Int, _ end: Int) -> Bool {
        for i in start..<end where !(bytes[i] >= 0x41 && bytes[i] <= 0x5A) { return false }
        return true
    }

    // MARK: Grades, concurrency, completion

    /// "[A] [minimum] grade of C- [or better] [in]", "with a grade of C or better", "C or higher in",
    /// "Minimum Grade of D-", "Min Grade: C", "with a “C” or better".
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
        if keyword(j) == .grade || keyword(j) == .grades {
            j += 1
            named = true
            if isPunct(j, 0x3A) || keyword(j) == .of { j += 1 }
        } else if named, keyword(j) == .of {
            j += 1
        }
        guard let grade = grade(at: j) else { return false }
        j = grade.next
        let afterComparison = afterComparative(j)
        let compared = afterComparison != j
        j = afterComparison
        guard named || compared else { return false }
        if !chain, keyword(j) == .in || keyword(j) == .for {
            // "C or better in each of A, B, and C".
            if keyword(j + 1) == .each || keyword(j + 1) == .all, keyword(j + 2) == .of { j += 2 }
            var item = RequisiteItem(.gradePrefix, tokens[index].start, tokens[j].end)
            (item.valueStart, item.valueEnd) = (grade.start, grade.end)
            sawQualifier = true
            items.append(item)
            index = j + 1
            return true
        }
        let kind: RequisiteItem.Kind = chain || !named ? .gradeSuffixChain : .gradeSuffixImmediate
        emitSuffix(kind, from: index, through: j - 1, grade: (grade.start, grade.end))
        return true
    }

    /// "credit or registration in", "credit for or concurrent enrollment in", "concurrent enrollment
    /// in or credit for", "prior or concurrent enrollment in", "Corequisite:".
    mutating func concurrencyPrefix() -> Bool {
        var j = index
        func isEnrollment(_ k: Int) -> Bool {
            let w = keyword(k)
            return w == .enrollment || w == .enrolment || w == .registration
        }
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
            if isPunct(j, 0x3A) { j += 1 }
        default:
            return false
        }
        emit(.concurrentPrefix, from: index, through: j - 1)
        return true
    }

    /// "may be taken concurrently", "taken concurrently", "concurrently", "or concurrent enrollment".
    mutating func concurrencySuffix() -> Bool {
        var j = index
        switch keyword(j) {
        case .which, .may:
            if keyword(j) == .which {
                guard keyword(j + 1) == .may else { return false }
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
            } else if keyword(j + 1) == .concurrent,
                      keyword(j + 2) == .enrollment || keyword(j + 2) == .registration || keyword(j + 2) == .enrolment,
                      keyword(j + 3) != .in, keyword(j + 3) != .for {
                j += 3
            } else {
                return false
            }
        default:
            return false
        }
        emitSuffix(.concurrentSuffixChain, from: index, through: j - 1)
        return true
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
        emit(.creditPrefix, from: index, through: j - 1)
        return true
    }

    // MARK: Standing, programs, permission

    /// "junior standing", "sophomore standing or above", "graduate standing", "junior or senior standing".
    mutating func standing() -> Bool {
        let level = keyword(index)
        guard level.isClassStanding else { return false }
        func isStandingNoun(_ k: Int) -> Bool {
            let w = keyword(k)
            return w == .standing || w == .classification || w == .status
        }
        var j = index + 1
        if isStandingNoun(j) {
            j += 1
            j = afterComparative(j)
        } else {
            // "junior or senior standing": this class word is a leaf of its own.
            var k = j
            var found = false
            while k < tokens.count, k < index + 8 {
                let w = keyword(k)
                if w == .or || w == .and || isPunct(k, 0x2C) || isPunct(k, 0x2F) || w.isClassStanding {
                    k += 1
                    continue
                }
                found = isStandingNoun(k)
                break
            }
            guard found else { return false }
        }
        var item = RequisiteItem(.standing, tokens[index].start, tokens[j - 1].end)
        item.keyword = level
        items.append(item)
        index = j
        return true
    }

    /// "admission to the CIS major", "Admitted to CIS major", "admission to the BAS IT:CSD program".
    mutating func admissionProgram() -> Bool {
        var j = index + 1
        let preposition = keyword(j)
        guard preposition == .to || preposition == .into || preposition == .in || preposition == .as || preposition == .for else { return false }
        j += 1
        if keyword(j) == .the || keyword(j) == .a || keyword(j) == .an { j += 1 }
        let valueFirst = j
        var valueLast = -1
        var words = 0
        while j < tokens.count, words < 8 {
            let t = tokens[j]
            if t.isWord {
                let w = t.keyword
                if w == .and || w == .or || w == .plus || w.isPermissionWord || w == .by || w == .with { break }
                words += 1
                valueLast = j
                j += 1
                if w.isProgramNoun {
                    if isPunct(j, 0x2F), keyword(j + 1).isProgramNoun {
                        valueLast = j + 1
                        j += 2
                    }
                    break
                }
            } else if (t.punct == 0x3A || t.punct == 0x2D || t.punct == 0x27 || t.punct == 0x26), isWord(j + 1), !tokens[j + 1].spaceBefore {
                j += 1
            } else {
                break
            }
        }
        guard valueLast >= valueFirst else { return false }
        var last = valueLast
        if keyword(last + 1) == .standing { last += 1 }
        var item = RequisiteItem(.program, tokens[index].start, tokens[last].end)
        (item.valueStart, item.valueEnd) = (tokens[valueFirst].start, tokens[valueLast].end)
        items.append(item)
        index = last + 1
        return true
    }

    /// "CIS major standing", "declared business major", "CIS major/minor standing", "minor in Computer Science".
    mutating func programNoun() -> Bool {
        // "major faculty", "program director": people, not programs.
        if keyword(index + 1).isRole { return false }
        var first = items.count
        while first > 0, items.count - first < 3, items[first - 1].kind == .word, items[first - 1].note == .none {
            first -= 1
        }
        var last = index
        if isPunct(last + 1, 0x2F), keyword(last + 2).isProgramNoun { last += 2 }
        if keyword(last + 1) == .in, isCapitalized(last + 2), keyword(last + 2) == .unknown {
            last += 2
            while last + 1 < tokens.count, last < index + 7, isCapitalized(last + 1), keyword(last + 1) == .unknown || keyword(last + 1) == .and && isCapitalized(last + 2) {
                last += 1
            }
            if keyword(last) == .and { last -= 1 }
        }
        let valueLast = last
        if keyword(last + 1) == .standing { last += 1 }
        let start = first < items.count ? items[first].start : tokens[index].start
        items.removeSubrange(first...)
        var item = RequisiteItem(.program, start, tokens[last].end)
        (item.valueStart, item.valueEnd) = (start, tokens[valueLast].end)
        items.append(item)
        index = last + 1
        return true
    }

    /// End (exclusive) of a role phrase at `j` ("instructor", "department chair", "Department Chair
    /// or designee", "instructor/department"), or `j` when there is none.
    func rolePhraseEnd(from j: Int) -> Int {
        var k = j
        var end = j
        while k < tokens.count {
            var m = k
            var qualifiers = 0
            // "program director", "ARCH college advisor": qualifiers only count when a role follows.
            while qualifiers < 2, !keyword(m).isRole, keyword(m).isRoleQualifier || (isCapitalized(m) && keyword(m) == .unknown) {
                m += 1
                qualifiers += 1
            }
            guard keyword(m).isRole else { break }
            m += 1
            while keyword(m).isRole { m += 1 }
            end = m
            if isPunct(m, 0x2F) || keyword(m) == .or || keyword(m) == .and {
                k = m + 1
                continue
            }
            break
        }
        return end
    }

    /// "permission of instructor", "consent of the department chair", "approval from the director".
    mutating func permission() -> Bool {
        var j = index + 1
        let preposition = keyword(j)
        if preposition == .of || preposition == .from || preposition == .by {
            j += 1
            if keyword(j) == .the || keyword(j) == .a || keyword(j) == .an { j += 1 }
        }
        var roleEnd = rolePhraseEnd(from: j)
        if roleEnd == j, preposition == .of || preposition == .from || preposition == .by {
            // A named office: "consent of Honors College".
            while roleEnd < tokens.count, roleEnd < j + 4, isCapitalized(roleEnd), keyword(roleEnd) == .unknown { roleEnd += 1 }
        }
        // "Dean of the College of Technology".
        if roleEnd > j, keyword(roleEnd) == .of {
            var k = roleEnd + 1
            if keyword(k) == .the { k += 1 }
            let named = k
            while k < tokens.count, k < named + 4, isCapitalized(k), keyword(k) == .unknown || keyword(k).isRole { k += 1 }
            if k > named { roleEnd = k }
        }
        var item: RequisiteItem
        if roleEnd > j {
            item = RequisiteItem(.permission, tokens[index].start, tokens[roleEnd - 1].end)
            (item.valueStart, item.valueEnd) = (tokens[j].start, tokens[roleEnd - 1].end)
            index = roleEnd
        } else {
            item = RequisiteItem(.permission, tokens[index].start, tokens[index].end)
            (item.valueStart, item.valueEnd) = (tokens[index].start, tokens[index].end)
            index += 1
        }
        items.append(item)
        return true
    }

    /// "instructor approval", "advisor approval", "instructor's permission", "departmental approval".
    mutating func rolePermission() -> Bool {
        let roleEnd = rolePhraseEnd(from: index)
        guard roleEnd > index else { return false }
        var k = roleEnd
        if isQuote(k), keyword(k + 1) == .unknown, isWord(k + 1), tokens[k + 1].length == 1 { k += 2 }
        guard keyword(k).isPermissionWord else { return false }
        var item = RequisiteItem(.permission, tokens[index].start, tokens[k].end)
        (item.valueStart, item.valueEnd) = (tokens[index].start, tokens[roleEnd - 1].end)
        items.append(item)
        index = k + 1
        return true
    }

    // MARK: Exams

    /// "Math placement score of 3", "ACT math score of 24", "MPLS with a score of 116",
    /// "A passing score on the Mathematics Placement Test", "ALEKS score ≥ 40".
    mutating func scoreExam() -> Bool {
        // Name words before "score", possibly separated from it by "with a".
        var end = items.count
        var fillers = 0
        while end > 0, fillers < 2, items[end - 1].kind == .filler {
            end -= 1
            fillers += 1
        }
        var first = end
        while first > 0, end - first < 3, items[first - 1].kind == .word, items[first - 1].note == .none { first -= 1 }
        if first == end {
            end = items.count
            first = end
        }
        var nameStart = -1, nameEnd = -1, scoreStart = -1, scoreEnd = -1
        for k in first..<end {
            let text = items[k]
            if text.keyword == .passing || text.keyword == .satisfactory || text.keyword == .qualifying || text.keyword == .minimum {
                if scoreStart < 0 { scoreStart = text.start }
                scoreEnd = text.end
            } else {
                if nameStart < 0 { nameStart = text.start }
                nameEnd = text.end
            }
        }
        let j = index + 1
        var last = index
        let next = keyword(j)
        let atEnd = j >= tokens.count
        // A number follows: "of 24", ": 24", "≥ 40", ">= 40", "at least 24", "24".
        if atEnd || next == .of || (next == .at && keyword(j + 1) == .least) || isPunct(j, 0x3A) || isPunct(j, 0x3E)
            || isPunct(j, 0x3D) || tokens[j].digits > 0 {
            var k = j
            if next == .at { k += 2 } else if j < tokens.count, !tokens[j].isWord || next == .of { k += 1 }
            if isPunct(k, 0x3D) { k += 1 }
            if k < tokens.count, tokens[k].isWord, tokens[k].digits > 0, tokens[k].leadLetters == 0 {
                scoreStart = tokens[k].start
                scoreEnd = tokens[k].end
                // Decimal scores: "3.50".
                if isPunct(k + 1, 0x2E), k + 2 < tokens.count, !tokens[k + 1].spaceBefore, !tokens[k + 2].spaceBefore, tokens[k + 2].digits > 0 {
                    k += 2
                    scoreEnd = tokens[k].end
                }
                last = afterComparative(k + 1) - 1
            }
        } else if next == .on || next == .in || next == .for {
            var k = j + 1
            if keyword(k) == .the || keyword(k) == .a || keyword(k) == .an { k += 1 }
            var words = 0
            let firstName = k
            while k < tokens.count, words < 6, tokens[k].isWord {
                let w = tokens[k].keyword
                if w == .and || w == .or || w == .plus { break }
                k += 1
                words += 1
            }
            if k > firstName {
                nameStart = tokens[firstName].start
                nameEnd = tokens[k - 1].end
                last = k - 1
            }
        }
        guard nameStart >= 0 || scoreStart >= 0 else { return false }
        let start = first < items.count ? items[first].start : tokens[index].start
        items.removeSubrange(first...)
        var item = RequisiteItem(.exam, start, tokens[last].end)
        if nameStart >= 0 {
            (item.valueStart, item.valueEnd) = (nameStart, nameEnd)
        } else {
            (item.valueStart, item.valueEnd) = (tokens[index].start, tokens[index].end)
        }
        if scoreStart >= 0 { (item.scoreStart, item.scoreEnd) = (scoreStart, scoreEnd) }
        items.append(item)
        index = last + 1
        return true
    }

    /// "placement", "placement via the Calculus Readiness Test", "Math placement", "the SAT", "ACT".
    mutating func namedExam() -> Bool {
        let word = keyword(index)
        // "ACT math score of 24": the score recognizer takes the whole name.
        if keyword(index + 1) == .score || keyword(index + 1) == .scores || keyword(index + 2) == .score || keyword(index + 2) == .scores {
            return false
        }
        if word == .act || word == .sat {
            guard tokens[index].leadUpper else { return false }
        }
        var first = items.count
        if word == .placement {
            while first > 0, items.count - first < 2, items[first - 1].kind == .word, items[first - 1].note == .none { first -= 1 }
        }
        var last = index
        let next = keyword(last + 1)
        if next == .test || next == .exam || next == .examination { last += 1 }
        let via = keyword(last + 1)
        if word == .placement, via == .via || via == .by || via == .through || via == .on {
            var k = last + 2
            var words = 0
            while k < tokens.count, words < 6, tokens[k].isWord {
                let w = tokens[k].keyword
                if w == .and || w == .or || w == .plus || w.isPermissionWord { break }
                k += 1
                words += 1
            }
            if words > 0 { last = k - 1 }
        }
        let start = first < items.count ? items[first].start : tokens[index].start
        items.removeSubrange(first...)
        var item = RequisiteItem(.exam, start, tokens[last].end)
        (item.valueStart, item.valueEnd) = (start, tokens[last].end)
        items.append(item)
        index = last + 1
        return true
    }

    // MARK: Notes and counts

    mutating func noteMarker(_ note: RequisiteItem.Note, through last: Int) -> Bool {
        var item = RequisiteItem(.word, tokens[index].start, tokens[last].end)
        item.note = note
        sawParenthesisOrNote = true
        items.append(item)
        index = last + 1
        return true
    }

    /// "one of", "two of the following:", "one or more of the following", "any one of", "at least one of".
    mutating func atLeast() -> Bool {
        var j = index
        if keyword(j) == .a { return false }
        if keyword(j) == .at {
            guard keyword(j + 1) == .least else { return false }
            j += 2
        }
        var count = 1
        if keyword(j) == .any {
            j += 1
            if let n = keyword(j).count {
                count = n
                j += 1
            }
        } else if let n = keyword(j).count {
            count = n
            j += 1
        } else {
            return false
        }
        if keyword(j) == .or, keyword(j + 1) == .more { j += 2 }
        guard keyword(j) == .of else { return false }
        j += 1
        if keyword(j) == .the, keyword(j + 1) == .following {
            j += 2
            if keyword(j) == .courses || keyword(j) == .course { j += 1 }
        }
        let lastWord = j - 1
        if isPunct(j, 0x3A) { j += 1 }
        var item = RequisiteItem(.atLeast, tokens[index].start, tokens[lastWord].end)
        item.count = count
        items.append(item)
        index = j
        return true
    }
}
