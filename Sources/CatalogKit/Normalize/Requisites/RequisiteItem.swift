/// A byte span of prerequisite prose recognized as a leaf, connective, punctuation or qualifier waiting for courses.
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
        /// Another name of a course: "formerly ACCT 2331", "(Also ANTH 3381)", "excluding MATH 1300", "same as".
        case mention
        /// Advice or a restriction, not a requirement: "(CPS 221 strongly recommended)", "Credit may not be applied …".
        case aside
    }

    var kind: Kind
    var start: Int
    var end: Int
    /// Value span: a leaf's name (program, permission, exam), or the grade of a qualifier or course (empty for none).
    var valueStart = 0
    var valueEnd = 0
    /// Score span of an exam (empty when none).
    var scoreStart = 0
    var scoreEnd = 0
    /// Index of a course's code in the scanner's `codes`: items stay plain data, copied without retaining strings.
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
