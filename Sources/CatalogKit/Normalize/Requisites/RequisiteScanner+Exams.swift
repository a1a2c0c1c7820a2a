/// Exams with scores, named exams, notes and counts ("at least two of").
extension RequisiteScanner {
    /// What may stand between "score" and its number, or before the exam it names.
    static let scoreMarks = phrases("of [=]", "at least [=]", ": [=]", "> [=]", "= [=]")
    static let examPrepositions = phrases("on|in|for [the|a|an]")

    /// "ACT math score of 24", "MPLS with a score of 116", "A passing score on the Mathematics Placement Test".
    mutating func scoreExam() -> Bool {
        // Name words before "score", possibly separated from it by "with a".
        var end = items.count - items.suffix(2).reversed().prefix { $0.kind == .filler }.count
        var first = startOfWords(before: end, atMost: 3)
        if first == end {
            end = items.count
            first = end
        }
        let words = items[first..<end]
        let isScoreWord = { (word: RequisiteItem) in [.passing, .satisfactory, .qualifying, .minimum].contains(word.keyword) }
        var nameStart = words.first { !isScoreWord($0) }?.start ?? -1
        var nameEnd = words.last { !isScoreWord($0) }?.end ?? -1
        var scoreStart = words.first(where: isScoreWord)?.start ?? -1
        var scoreEnd = words.last(where: isScoreWord)?.end ?? -1
        let j = index + 1
        var last = index
        // A number follows: "of 24", ": 24", "≥ 40", ">= 40", "at least 24", "24".
        if var k = match(Self.scoreMarks, from: j) ?? (j >= tokens.count || tokens[j].digits > 0 ? j : nil) {
            if k < tokens.count, tokens[k].isWord, tokens[k].digits > 0, tokens[k].leadLetters == 0 {
                scoreStart = tokens[k].start
                scoreEnd = tokens[k].end
                // Decimal scores: "3.50".
                if isPunct(k + 1, UInt8(ascii: ".")), k + 2 < tokens.count, !tokens[k + 1].spaceBefore, !tokens[k + 2].spaceBefore, tokens[k + 2].digits > 0 {
                    k += 2
                    scoreEnd = tokens[k].end
                }
                last = afterComparative(k + 1) - 1
            }
        } else if let firstName = match(Self.examPrepositions, from: j) {
            let k = endOfName(from: firstName, stopsAtPermission: false)
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
        (item.valueStart, item.valueEnd) = nameStart >= 0 ? (nameStart, nameEnd) : (tokens[index].start, tokens[index].end)
        if scoreStart >= 0 { (item.scoreStart, item.scoreEnd) = (scoreStart, scoreEnd) }
        return append(item, next: last + 1)
    }

    /// "placement", "placement via the Calculus Readiness Test", "Math placement", "the SAT", "ACT".
    mutating func namedExam() -> Bool {
        let word = keyword(index)
        // "confirmed co-op work placement", "a clinical placement": a post the student holds, no test.
        if word == .placement, index > 0, [.work, .field, .clinical].contains(keyword(index - 1)) { return false }
        // "ACT math score of 24": the score recognizer takes the whole name.
        if [keyword(index + 1), keyword(index + 2)].contains(where: { $0 == .score || $0 == .scores }) { return false }
        if word == .act || word == .sat, !tokens[index].leadUpper { return false }
        let first = word == .placement ? startOfWords(before: items.count, atMost: 2) : items.count
        var last = index
        if [.test, .exam, .examination].contains(keyword(last + 1)) { last += 1 }
        if word == .placement, [.via, .by, .through, .on].contains(keyword(last + 1)) {
            let end = endOfName(from: last + 2, stopsAtPermission: true)
            if end > last + 2 { last = end - 1 }
        }
        return emitTakingWords(.exam, from: first, through: last, valueThrough: last)
    }

    /// End (exclusive) of a name's words from `j`: six at most, up to a connective (or a permission word).
    func endOfName(from j: Int, stopsAtPermission: Bool) -> Int {
        var k = j
        while k < tokens.count, k - j < 6, tokens[k].isWord {
            let w = tokens[k].keyword
            if w == .and || w == .or || w == .plus || (stopsAtPermission && w.isPermissionWord) { break }
            k += 1
        }
        return k
    }

    /// Where the plain words (at most `limit`, none a note) just before `items[end]` start: the name of a leaf.
    func startOfWords(before end: Int, atMost limit: Int) -> Int {
        end - items[..<end].suffix(limit).reversed().prefix { $0.kind == .word && $0.note == .none }.count
    }

    /// Replaces the name words from `items[first]` on with a leaf of `kind` to token `last`, valued to `valueLast`.
    mutating func emitTakingWords(_ kind: RequisiteItem.Kind, from first: Int, through last: Int,
                                  valueThrough valueLast: Int) -> Bool {
        let start = first < items.count ? items[first].start : tokens[index].start
        items.removeSubrange(first...)
        var item = RequisiteItem(kind, start, tokens[last].end)
        (item.valueStart, item.valueEnd) = (start, tokens[valueLast].end)
        return append(item, next: last + 1)
    }

    /// Emits a note's marker word(s) from the current token to token `next`; nothing when `next` is nil.
    mutating func noteMarker(_ note: RequisiteItem.Note, until next: Int?) -> Bool {
        guard let next else { return false }
        var item = RequisiteItem(.word, tokens[index].start, tokens[next - 1].end)
        item.note = note
        sawGroupOrNote = true
        return append(item, next: next)
    }

    static let countedOf = phrases("or more of", "of")
    static let theFollowing = phrases("the following [courses|course]")

    /// "one of", "two of the following:", "one or more of the following", "any one of", "at least one of".
    mutating func atLeast() -> Bool {
        var j = index
        if keyword(j) == .a { return false }
        if keyword(j) == .at {
            guard keyword(j + 1) == .least else { return false }
            j += 2
        }
        // "any of" is one of; otherwise a count must be written.
        var count = 1
        let any = keyword(j) == .any
        if any { j += 1 }
        if let n = keyword(j).count {
            count = n
            j += 1
        } else if !any {
            return false
        }
        guard let afterOf = match(Self.countedOf, from: j) else { return false }
        j = match(Self.theFollowing, from: afterOf) ?? afterOf
        let lastWord = j - 1
        if isPunct(j, UInt8(ascii: ":")) { j += 1 }
        var item = RequisiteItem(.atLeast, tokens[index].start, tokens[lastWord].end)
        item.count = count
        return append(item, next: j)
    }
}
