/// A recognized piece of prerequisite prose: a leaf, a connective, structural punctuation, or a
/// qualifier waiting to be attached to courses. Every item covers a byte span of the source.
struct RequisiteItem {
    enum Kind: UInt8 {
        case course, standing, program, permission, exam, text
        // Words not (yet) part of a leaf; `filler` ones may be folded into a neighbouring leaf.
        case word, filler
        // Connectives ("both" and "either" open an and/or).
        case and, or, both, either
        case comma, semicolon, period, open, close, slash, colon
        /// "one of", "two of the following:"; `count` holds N.
        case atLeast
        // Qualifiers of the courses that follow (prefix) or precede (suffix).
        case gradePrefix, gradeSuffixChain, gradeSuffixImmediate
        case concurrentPrefix, concurrentSuffixChain, creditPrefix

        var isPrefix: Bool { self == .gradePrefix || self == .concurrentPrefix || self == .creditPrefix }
        var isSuffix: Bool {
            self == .gradeSuffixChain || self == .gradeSuffixImmediate || self == .concurrentSuffixChain
        }
    }

    /// Why a word makes the span around it a note rather than a requirement.
    enum Note: UInt8 {
        case none
        /// Another name of a course: "formerly ACCT 2331", "(Also ANTH 3381)", "excluding MATH 1300", "same as",
        /// "cross-listed with".
        case mention
        /// Advice or a restriction, not a requirement: "(CPS 221 and 231 strongly recommended)",
        /// "(DIGM 3354 waived for …)", "Credit may not be applied toward a degree for both …".
        case aside
    }

    var kind: Kind
    var start: Int
    var end: Int
    /// Value span: the standing, program, permission or exam name; the grade of a grade qualifier
    /// or of a course (empty when none).
    var valueStart = 0
    var valueEnd = 0
    /// Score span of an exam (empty when none).
    var scoreStart = 0
    var scoreEnd = 0
    /// Index of a course's code in the scanner's `codes` (kept out of the item so that items stay
    /// plain data: copying them must not retain strings).
    var codeIndex = -1
    /// Digits in the course number, so that "CIS 162 and 1630" does not read 1630 as CIS.
    var numberDigits = 0
    var concurrent = false
    /// N of `atLeast`.
    var count = 0
    var note = Note.none
    /// The keyword of a one-word item; the class of a `standing` leaf.
    var keyword = RequisiteKeyword.unknown

    init(_ kind: Kind, _ start: Int, _ end: Int) {
        self.kind = kind
        self.start = start
        self.end = end
    }

    var isLeaf: Bool {
        switch kind {
        case .course, .standing, .program, .permission, .exam, .text: true
        default: false
        }
    }

    var isWordLike: Bool { kind == .word || kind == .filler }

    var hasGrade: Bool { valueEnd > valueStart }
}
