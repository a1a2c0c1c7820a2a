/// Words the recognizer reacts to; everything else is `.unknown`.
enum RequisiteKeyword: String, CaseIterable {
    case unknown = ""
    case and, or, both, either, plus
    case a, an, the, with, `in`, of, `for`, to, into, `as`, by, on, at, via, through, from
    case be, `is`, are, must, may, can, have, has, having, required, completed, written, least, more
    case following, courses, course, any, which, such, each, all
    case grade, grades, minimum, min, better, higher, above, greater, passing, satisfactory, qualifying
    case credit, concurrent, concurrently, current, registration, enrollment, enrolment, taken
    case prior, previous, corequisite, corequisites, completion, successful, undergraduate, graduate, level
    case freshman, sophomore, junior, senior, standing, classification, status
    case admission, admitted, acceptance, accepted, declared, major, majors, minor, minors
    case program, programs, certificate, concentration
    case permission, consent, approval, approved, authorization
    case instructor, instructors, department, departmental, dept, chair, chairperson, advisor, adviser
    case director, coordinator, dean, designee, faculty, head, professor, committee, college, school, office, manager, supervisor
    case placement, score, scores, exam, examination, test, act, sat, aleks, math, mathematics
    // What makes a placement a student's post rather than a test ("co-op work placement", "field placement").
    case work, field, clinical
    // Notes that make a course mention something other than a requirement.
    case formerly, previously, also, recommended, suggested, waived, excluding, except, same, crosslisted, cross, listed, list
    case not, cannot
    case one, two, three, four, five
    // Quantities that make a bare number something other than a course number.
    case hours, hour, semester, sch, credits, units, percent
    case none

    /// Hash of the lower-cased spelling → keyword and its spelling, which a word that hashes alike must also have.
    static let table = Dictionary(allCases.filter { $0 != .unknown }.map { keyword in
        let spelling = Array(keyword.rawValue.utf8)
        return (FNV1a.hash(spelling), (keyword: keyword, spelling: spelling))
    }, uniquingKeysWith: { $1 })

    /// The keyword an ASCII word is: the hash of its lower-cased bytes finds a candidate to compare them with.
    static func lookUp(hash: UInt64, _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> RequisiteKeyword? {
        guard let entry = table[hash], entry.spelling.count == end - start else { return nil }
        for offset in entry.spelling.indices where RequisiteLexer.lowercased(bytes[start + offset]) != entry.spelling[offset] {
            return nil
        }
        return entry.keyword
    }

    var isPermissionWord: Bool { [.permission, .consent, .approval, .approved, .authorization].contains(self) }

    /// People and offices that give permission ("instructor", "department chair").
    var isRole: Bool {
        switch self {
        case .instructor, .instructors, .department, .departmental, .dept, .chair, .chairperson, .advisor, .adviser,
             .director, .coordinator, .dean, .designee, .faculty, .head, .professor, .committee, .college, .school, .office,
             .manager, .supervisor:
            true
        default: false
        }
    }

    /// Words that may precede a role inside a role phrase ("program director", "graduate advisor").
    var isRoleQualifier: Bool { [.program, .graduate, .undergraduate, .major, .the].contains(self) }

    var isClassStanding: Bool { [.freshman, .sophomore, .junior, .senior, .graduate].contains(self) }

    var isProgramNoun: Bool {
        [.major, .majors, .minor, .minors, .program, .programs, .certificate, .concentration].contains(self)
    }

    /// Words that carry no requirement of their own and may be folded into a neighbouring leaf.
    var isFiller: Bool {
        switch self {
        case .a, .an, .the, .with, .in, .of, .for, .to, .by, .on, .at, .be, .is, .are, .must, .have, .has,
             .having, .required, .completed, .written, .prior, .which, .such, .also:
            true
        default: false
        }
    }

    var isComparative: Bool { [.better, .higher, .above, .greater].contains(self) }

    /// Counts words up to five ("two of the following").
    var count: Int? { [.one, .two, .three, .four, .five].firstIndex(of: self).map { $0 + 1 } }

    /// Units after a number that make it a quantity, not a course number ("3 hours", "6 SCH").
    var isQuantityUnit: Bool {
        [.hours, .hour, .semester, .sch, .credits, .credit, .units, .percent, .level].contains(self)
    }
}

/// One word or punctuation mark of the prose, as a byte range of its UTF-8.
struct RequisiteToken {
    var start: Int
    var end: Int
    /// True for a run of letters/digits; false for a single punctuation mark.
    var isWord: Bool
    /// For punctuation, the ASCII byte it stands for (curly quotes map to '"' or '\'', dashes to '-').
    var punct: UInt8 = 0
    var keyword = RequisiteKeyword.unknown
    /// Shape of a word: leading ASCII letters, digits, trailing letters; `isSimple` when that is all ("MATH108").
    var leadLetters = 0
    var digits = 0
    var tailLetters = 0
    /// Upper-case letters between digits, as in "7A20" or "460D1": an `isLetteredNumber`, not an `isSimple` word.
    var innerLetters = 0
    var isSimple = false
    var isLetteredNumber = false
    /// True when every leading letter is upper-case.
    var leadUpper = false
    var spaceBefore: Bool

    var length: Int { end - start }
}

/// Splits prose into tokens by hand over UTF-8: regexes and Foundation would dominate the parse time.
enum RequisiteLexer {
    @inline(__always)
    static func isASCIILetter(_ b: UInt8) -> Bool { lowercased(b) >= UInt8(ascii: "a") && lowercased(b) <= UInt8(ascii: "z") }

    /// An ASCII letter's lower case (the 0x20 bit); other bytes pass through only where that bit is already set.
    @inline(__always) static func lowercased(_ b: UInt8) -> UInt8 { b | 0x20 }

    @inline(__always) static func isASCIIDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    @inline(__always) static func isASCIIUpper(_ b: UInt8) -> Bool { b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") }

    /// What the non-ASCII scalar at `i` is (space, punctuation as an ASCII byte, or a word's) and its length in bytes.
    static func classifyNonASCII(_ bytes: UnsafeBufferPointer<UInt8>, _ i: Int) -> (kind: ScalarKind, length: Int) {
        let lead = bytes[i]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        guard i + length <= bytes.count else { return (.word, bytes.count - i) }
        if length == 2, lead == 0xC2 {
            let b = bytes[i + 1]
            if b == 0xA0 { return (.space, 2) }          // no-break space
            // ¡ § « » ° etc. are punctuation; ª ² ³ µ ¹ º ¼ ½ ¾ are letters or numbers.
            switch b {
            case 0xAA, 0xB2, 0xB3, 0xB5, 0xB9, 0xBA, 0xBC...0xBE: break
            case 0xA1...0xBF: return (.punct(UInt8(ascii: "~")), 2)
            default: break
            }
        }
        if length == 3, lead == 0xE2 {
            let b1 = bytes[i + 1], b2 = bytes[i + 2]
            if b1 == 0x80 {
                switch b2 {
                case 0x80...0x8F, 0xA8, 0xA9, 0xAF: return (.space, 3)
                case 0x90...0x95: return (.punct(UInt8(ascii: "-")), 3)   // dashes
                case 0x98, 0x99, 0x9B: return (.punct(UInt8(ascii: "'")), 3) // single quotes
                case 0x9C, 0x9D, 0x9F: return (.punct(UInt8(ascii: "\"")), 3) // double quotes
                default: return (.punct(UInt8(ascii: "~")), 3)
                }
            }
            if b1 == 0x81, b2 < 0xB0 { return (.punct(UInt8(ascii: "~")), 3) }  // superscript digits follow
            if b1 == 0x89, b2 == 0xA5 { return (.punct(UInt8(ascii: ">")), 3) }  // ≥
            if b1 == 0x89, b2 == 0xA4 { return (.punct(UInt8(ascii: "<")), 3) }  // ≤
            if (b1 >= 0x88 && b1 <= 0x8B) || b1 == 0x96 || b1 == 0x97 { return (.punct(UInt8(ascii: "~")), 3) } // math, shapes, bullets
        }
        if length == 3, lead == 0xE3, bytes[i + 1] == 0x80, bytes[i + 2] == 0x80 { return (.space, 3) }
        return (.word, length)
    }

    enum ScalarKind { case space, punct(UInt8), word }

    static func tokenize(_ bytes: UnsafeBufferPointer<UInt8>, into tokens: inout [RequisiteToken]) {
        let count = bytes.count
        var i = 0
        var spaceBefore = true
        while i < count {
            let b = bytes[i]
            let kind: ScalarKind, length: Int
            if b >= 0x80 {
                (kind, length) = classifyNonASCII(bytes, i)
            } else if b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") || b == UInt8(ascii: "\n")
                        || b == UInt8(ascii: "\r") {
                (kind, length) = (.space, 1)
            } else {
                (kind, length) = (isASCIILetter(b) || isASCIIDigit(b) ? .word : .punct(b), 1)
            }
            switch kind {
            case .space:
                spaceBefore = true
                i += length
                continue
            case .punct(let mapped):
                tokens.append(RequisiteToken(start: i, end: i + length, isWord: false, punct: mapped,
                                             spaceBefore: spaceBefore))
                i += length
            case .word:
                tokens.append(scanWord(bytes, from: i, spaceBefore: spaceBefore))
                i = tokens[tokens.count - 1].end
            }
            spaceBefore = false
        }
    }

    /// Scans one word (letters/digits, and non-ASCII letters) and measures its shape and keyword.
    private static func scanWord(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, spaceBefore: Bool) -> RequisiteToken {
        let count = bytes.count
        var i = start
        var hash = FNV1a.offsetBasis
        var phase = 0            // 0 leading letters, 1 digits, 2 trailing letters, 3 anything else
        var lead = 0, digits = 0, tail = 0, inner = 0
        var leadUpper = true
        var ascii = true
        while i < count {
            let b = bytes[i]
            if b < 0x80 {
                let letter = isASCIILetter(b)
                guard letter || isASCIIDigit(b) else { break }
                hash = FNV1a.step(hash, letter ? lowercased(b) : b)
                if letter {
                    switch phase {
                    case 0:
                        lead += 1
                        if b >= UInt8(ascii: "a") { leadUpper = false }
                    case 1:
                        phase = 2
                        tail = 1
                    case 2: tail += 1
                    default: break
                    }
                } else {
                    switch phase {
                    case 0, 1:
                        phase = 1
                        digits += 1
                    case 2 where tail == 1 && inner < 2 && lead == 0 && isASCIIUpper(bytes[i - 1]):
                        // One upper-case letter between digits is part of a number: "7A20", "460D1".
                        phase = 1
                        tail = 0
                        inner += 1
                        digits += 1
                    default: phase = 3
                    }
                }
                i += 1
            } else {
                let (kind, length) = classifyNonASCII(bytes, i)
                guard case .word = kind else { break }
                ascii = false
                phase = 3
                i += length
            }
        }
        var keyword = RequisiteKeyword.unknown
        if ascii, digits == 0, i - start <= 16, let found = RequisiteKeyword.lookUp(hash: hash, bytes, start, i) {
            keyword = found
        }
        return RequisiteToken(start: start, end: i, isWord: true, keyword: keyword,
                              leadLetters: lead, digits: digits, tailLetters: tail, innerLetters: inner,
                              isSimple: ascii && phase != 3 && inner == 0, isLetteredNumber: ascii && phase != 3 && inner > 0,
                              leadUpper: leadUpper && lead > 0, spaceBefore: spaceBefore)
    }
}
