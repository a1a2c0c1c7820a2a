/// Course codes in prose: "CIS 162", "C S 235", "BUSI B011", "FINA 7A20", and a bare number after a list.
extension RequisiteScanner {
    /// A course code at the current token: "CIS 162", "CIS-162", "cis162", "C S 235", "CIS 162L", "BUSI B011".
    mutating func course() -> Bool {
        let t = tokens[index]
        guard t.isSimple else { return false }
        var subject = ""
        var numberToken = index
        if t.digits > 0 {
            // Glued: "MATH108", "cis162".
            guard t.leadLetters >= 2, t.leadLetters <= 5, t.digits >= 2, t.digits <= 5, t.tailLetters <= 2,
                  t.leadUpper || !bytes[t.start..<t.start + t.leadLetters].contains(where: RequisiteLexer.isASCIIUpper)
            else { return false }
            subject = upperString(t.start, t.start + t.leadLetters)
            guard !Self.scoreSubjects.contains(subject) else { return false }
            return emitCourse(subject: subject, numberToken: index, numberStart: t.start + t.leadLetters)
        }
        // "OR 2330" in upper-case prose is a connective and a number; MATH is both a word and a subject.
        guard t.leadUpper, t.tailLetters == 0, t.keyword == .unknown || t.keyword == .math else { return false }
        if t.leadLetters == 1 {
            // Spaced single letters: "C S 235".
            var j = index + 1
            subject = upperString(t.start, t.end)
            while isCapitalLetter(j), subject.utf8.count < 5 {
                subject += upperString(tokens[j].start, tokens[j].end)
                j += 1
            }
            guard subject.utf8.count >= 2 else { return false }
            numberToken = j
        } else {
            guard t.leadLetters <= 5 else { return false }
            subject = upperString(t.start, t.end)
            numberToken = index + 1
            // A word and one letter: "COM S 309", "CPR E 288" (Iowa State's subjects).
            if isCapitalLetter(numberToken), subject.utf8.count < 5,
               isCourseNumber(numberToken + 1, allowLetterPrefix: false) {
                subject += upperString(tokens[numberToken].start, tokens[numberToken].end)
                numberToken += 1
            }
            if isPunct(numberToken, UInt8(ascii: "-")), numberToken + 1 < tokens.count, !tokens[numberToken + 1].spaceBefore, !tokens[numberToken].spaceBefore {
                numberToken += 1
            }
        }
        guard isCourseNumber(numberToken, allowLetterPrefix: true), !Self.scoreSubjects.contains(subject) else { return false }
        return emitCourse(subject: subject, numberToken: numberToken, numberStart: tokens[numberToken].start)
    }

    /// A word of one upper-case letter: a part of a spaced subject ("C S", "COM S").
    func isCapitalLetter(_ j: Int) -> Bool {
        j < tokens.count && tokens[j].isWord && tokens[j].isSimple && tokens[j].leadLetters == 1
            && tokens[j].digits == 0 && tokens[j].leadUpper
    }

    /// 2-5 digits and up to two upper-case suffix letters, a prefix letter then digits, or lettered digits ("7A20").
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
            guard n.tailLetters <= 2, bytes[n.end - n.tailLetters..<n.end].allSatisfy(RequisiteLexer.isASCIIUpper)
            else { return false }
        }
        // "3000 level courses", "3000-4000", "3000-level", "3.50" (but "ARTS 4330-ARTS 4331" is a list).
        if keyword(j + 1) == .level { return false }
        if j + 2 < tokens.count, !tokens[j + 1].spaceBefore, isPunct(j + 1, UInt8(ascii: "-")) || isPunct(j + 1, UInt8(ascii: ".")),
           tokens[j + 2].isWord, !tokens[j + 2].spaceBefore, tokens[j + 2].digits > 0 || tokens[j + 2].keyword == .level {
            return false
        }
        return true
    }

    /// Emits the course that starts at the current token and whose number starts at byte `numberStart`.
    mutating func emitCourse(subject: String, numberToken: Int, numberStart: Int) -> Bool {
        let n = tokens[numberToken]
        let digitsEnd = n.end - n.tailLetters
        let number = String(decoding: UnsafeBufferPointer(rebasing: bytes[numberStart..<digitsEnd]), as: UTF8.self)
        let suffix = n.tailLetters > 0 ? upperString(digitsEnd, n.end) : nil
        var item = RequisiteItem(.course, tokens[index].start, n.end)
        item.codeIndex = codes.count
        codes.append(CourseCode(subject: subject, number: number, suffix: suffix))
        item.numberDigits = n.digits
        return append(item, next: numberToken + 1)
    }

    /// A bare number right after a course list ("CIS 162 and 163", "STA 215/312") takes that list's subject.
    mutating func implicitCourse() -> Bool {
        let t = tokens[index]
        guard t.isSimple || t.isLetteredNumber, t.leadLetters == 0, isCourseNumber(index, allowLetterPrefix: false) else { return false }
        if keyword(index + 1).isQuantityUnit { return false }
        let k = items.lastIndex {
            ![.and, .or, .comma, .slash, .open, .close, .semicolon, .both, .either].contains($0.kind)
        } ?? -1
        // At least one connective or separator must come between: "MATH 2415 3 hours" is no list.
        guard k >= 0, k < items.count - 1, items[k].kind == .course, items[k].codeIndex >= 0,
              items[k].numberDigits == t.digits else { return false }
        let subject = codes[items[k].codeIndex].subject
        return emitCourse(subject: subject, numberToken: index, numberStart: t.start)
    }

    /// ASCII upper-casing of a byte span (only ever called on ASCII letters).
    func upperString(_ start: Int, _ end: Int) -> String {
        String(unsafeUninitializedCapacity: end - start) { buffer in
            for i in start..<end {
                let b = bytes[i]
                buffer[i - start] = b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z") ? b - 0x20 : b
            }
            return end - start
        }
    }
}
