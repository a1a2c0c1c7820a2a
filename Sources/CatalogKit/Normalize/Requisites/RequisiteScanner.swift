/// Turns tokens into items by recognizing the phrases of prerequisite prose (codes, qualifiers, standing, programs,
/// permission, exams, notes, counts); other words stay `.word`/`.filler` items. Each recognizer either consumes
/// tokens and emits items (returning true) or leaves `index` alone.
struct RequisiteScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let tokens: [RequisiteToken]
    var items: [RequisiteItem] = []
    /// Course codes, referenced by `RequisiteItem.codeIndex`.
    var codes: [CourseCode] = []
    var index = 0
    /// What the later passes need to do, so that they can skip work on plain texts.
    var sawGroupOrNote = false
    var sawQualifier = false

    /// Test names that look like subjects ("SAT 600" is a score, not a course).
    static let scoreSubjects: Set<String> = ["ACT", "SAT", "GPA", "GRE", "GMAT", "AP", "IB", "CLEP", "TOEFL", "IELTS", "ALEKS", "HSCG"]

    @inline(__always) func keyword(_ j: Int) -> RequisiteKeyword {
        j < tokens.count && tokens[j].isWord ? tokens[j].keyword : .unknown
    }

    @inline(__always) func isPunct(_ j: Int, _ byte: UInt8) -> Bool {
        j < tokens.count && !tokens[j].isWord && tokens[j].punct == byte
    }

    @inline(__always) func isWord(_ j: Int) -> Bool { j < tokens.count && tokens[j].isWord }

    func isCapitalized(_ j: Int) -> Bool { isWord(j) && RequisiteLexer.isASCIIUpper(bytes[tokens[j].start]) }

    func isQuote(_ j: Int) -> Bool { isPunct(j, UInt8(ascii: "\"")) || isPunct(j, UInt8(ascii: "'")) }

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
        guard letter >= UInt8(ascii: "A") && letter <= UInt8(ascii: "F") else { return nil }
        let start = tokens[j].start
        var end = tokens[j].end
        j += 1
        if j < tokens.count, !tokens[j].spaceBefore, isPunct(j, UInt8(ascii: "+")) || isPunct(j, UInt8(ascii: "-")) {
            end = tokens[j].end
            j += 1
        }
        if isQuote(j), !tokens[j].spaceBefore { j += 1 }
        return (start, end, j)
    }

    /// Appends `item` and goes on at token `next`; true, for the recognizers to return.
    @discardableResult
    mutating func append(_ item: RequisiteItem, next: Int) -> Bool {
        if item.kind.isPrefix || item.kind.isSuffix { sawQualifier = true }
        items.append(item)
        index = next
        return true
    }

    /// Emits an item of tokens `first` through `last`; a leaf's value is the tokens `value` names.
    @discardableResult
    mutating func emit(_ kind: RequisiteItem.Kind, from first: Int, through last: Int,
                       value: (first: Int, last: Int)? = nil) -> Bool {
        var item = RequisiteItem(kind, tokens[first].start, tokens[last].end)
        if first == last { item.keyword = tokens[first].keyword }
        if let value { (item.valueStart, item.valueEnd) = (tokens[value.first].start, tokens[value.last].end) }
        return append(item, next: last + 1)
    }

    /// Emits a suffix qualifier; brackets or parentheses around exactly it ("[Min Grade: C]") are part of it, no group.
    mutating func emitSuffix(_ kind: RequisiteItem.Kind, from first: Int, through last: Int,
                             grade: (Int, Int)? = nil) -> Bool {
        var start = tokens[first].start
        var end = tokens[last].end
        var next = last + 1
        if first > 0, !tokens[first - 1].isWord, next < tokens.count, !tokens[next].isWord {
            let open = tokens[first - 1].punct, close = tokens[next].punct
            if (open == UInt8(ascii: "(") && close == UInt8(ascii: ")")) || (open == UInt8(ascii: "[") && close == UInt8(ascii: "]")) {
                if open == UInt8(ascii: "("), let lastItem = items.last, lastItem.kind == .open, lastItem.start == tokens[first - 1].start {
                    items.removeLast()
                }
                start = tokens[first - 1].start
                end = tokens[next].end
                next += 1
            }
        }
        var item = RequisiteItem(kind, start, end)
        if let grade { (item.valueStart, item.valueEnd) = grade }
        return append(item, next: next)
    }

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
        case UInt8(ascii: ","): kind = .comma
        case UInt8(ascii: ";"): kind = .semicolon
        case UInt8(ascii: "."):
            // "3.50", "e.g.", "B.A.": a period glued to a following word ends no sentence.
            kind = index + 1 < tokens.count && tokens[index + 1].isWord && !tokens[index + 1].spaceBefore ? nil : .period
        case UInt8(ascii: "("): kind = .open
        case UInt8(ascii: ")"): kind = .close
        case UInt8(ascii: "/"): kind = .slash
        case UInt8(ascii: ":"): kind = .colon
        case UInt8(ascii: "&"):
            // "MAT 180 & CPT 135" joins; "A&S" is part of a name.
            let spaced = token.spaceBefore || (index + 1 < tokens.count && tokens[index + 1].spaceBefore)
            kind = spaced ? .and : nil
        default: kind = nil
        }
        if let kind {
            if kind == .open || kind == .close || kind == .colon { sawGroupOrNote = true }
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
            if word == .and, isPunct(index + 1, UInt8(ascii: "/")), keyword(index + 2) == .or {
                return emit(.or, from: index, through: index + 2)
            }
            return emit(.and, from: index, through: index)
        case .or:
            if emit(.concurrentSuffixChain) { return true }
            // "a 2.0 GPA or higher": a comparison, not an alternative.
            if keyword(index + 1).isComparative { return emit(.word, from: index, through: index + 1) }
            return emit(.or, from: index, through: index)
        case .both, .either:
            return emit(word == .both ? .both : .either, from: index, through: index)
        case .which:
            return emit(.concurrentSuffixChain)
        case .a, .an:
            return gradeQualifier(allowArticle: true) || gradeQualifier(allowArticle: false) || emit(.creditPrefix)
                || atLeast()
        case .with, .grade, .grades, .minimum, .min:
            return gradeQualifier(allowArticle: true)
        case .credit, .completion, .successful, .concurrent, .prior, .previous, .corequisite, .corequisites:
            return emit(.concurrentPrefix) || emit(.creditPrefix)
        case .passing, .undergraduate:
            return emit(.creditPrefix)
        case .graduate:
            return emit(.creditPrefix) || standing() || rolePermission()
        case .may:
            return emit(.concurrentSuffixChain) || noteMarker(.aside, until: match(Self.asides, from: index))
        case .taken, .concurrently, .can:
            return emit(.concurrentSuffixChain)
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
        case .formerly, .previously, .excluding, .except, .crosslisted, .cross, .same:
            return noteMarker(.mention, until: match(Self.mentions, from: index))
        case .recommended, .suggested, .waived, .cannot, .must:
            return noteMarker(.aside, until: match(Self.asides, from: index))
        case .also:
            return items.last?.kind == .open && noteMarker(.mention, until: index + 1)
        case .one, .two, .three, .four, .five, .any, .at:
            return atLeast()
        default:
            if word.isRole { return rolePermission() }
            // A bare letter grade: "C or better in MATH 105".
            return gradeQualifier(allowArticle: false)
        }
    }
}
