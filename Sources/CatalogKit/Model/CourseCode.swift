/// A course code ("CIS 162", "BIO 120L", "FINA 7A20"): subject, number, optional suffix. Every written form ("cis162",
/// "C S 235") maps to one canonical form, "SUBJ NUMBER[SUFFIX]", which `description` prints and ids derive from.
public struct CourseCode: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Upper-case letters, spaces removed ("C S" becomes "CS").
    public var subject: String
    /// The number as written, leading zeros kept ("098"), with its letters but the suffix: "B011", "7A20", "460D1".
    public var number: String
    /// A trailing letter suffix ("L" in "BIO 120L"), or nil.
    public var suffix: String?

    public init(subject: String, number: String, suffix: String? = nil) {
        self.subject = subject
        self.number = number
        self.suffix = (suffix?.isEmpty ?? true) ? nil : suffix
    }

    /// The canonical form: "CIS 162", "BIO 120L".
    public var description: String { "\(subject) \(number)\(suffix ?? "")" }

    /// The app's integer `number`: a letter before the digits is a prefix ("BUSI B011" is 11), letters after them a
    /// suffix ("CIS 162L" is 162), a letter between digits a digit ("FINA 7A20" is 7020) unless three digits or more,
    /// a whole number already, come before it ("ENG 460D1" is 460); 0 for no digits or more than an Int holds.
    public var numericValue: Int { numericReading.value }

    /// How many places `numericValue` was read from, leading zeros included: 3 for "162L" and "098", 4 for
    /// "2303", "0300" and "7A20". A catalog's numbering scheme is the width most of its numbers have.
    public var numberWidth: Int { numericReading.width }

    private var numericReading: (value: Int, width: Int) {
        var value = 0
        var width = 0
        var leadingDigits = 0
        var inLeadingRun = true
        var overflowed = false
        /// Takes the next place; false when the number ends there.
        func read(digit: Int?, isNumber: Bool) -> Bool {
            if let digit {
                if inLeadingRun { leadingDigits += 1 }
                let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(digit)
                overflowed = overflow1 || overflow2
                value = sum
                width += 1
            } else if width > 0, !isNumber {
                // A letter after digits ends the number when the digits before it make one; otherwise it is a place.
                if leadingDigits >= 3 { return false }
                inLeadingRun = false
                (value, overflowed) = value.multipliedReportingOverflow(by: 10)
                width += 1
            }
            return !overflowed
        }
        // Sorting a catalog reads every number dozens of times: its bytes rather than its characters when it is
        // ASCII (where the only characters that are numbers are the digits).
        if number.utf8.allSatisfy({ $0 < 0x80 }) {
            for byte in number.utf8 {
                guard read(digit: (0x30...0x39).contains(byte) ? Int(byte) - 0x30 : nil, isNumber: false) else { break }
            }
        } else {
            for character in number {
                guard read(digit: character.isASCIIDigit ? character.wholeNumberValue : nil, isNumber: character.isNumber)
                else { break }
            }
        }
        return overflowed ? (0, 0) : (value, width)
    }

    /// A stable identifier derived from the canonical code: "cis-162l".
    public var id: String { "\(subject)-\(number)\(suffix ?? "")".lowercased() }

    /// By subject, then number as a number ("CIS 99" before "CIS 162"), then as written, then suffix.
    public static func < (lhs: CourseCode, rhs: CourseCode) -> Bool {
        // Step by step: a tuple would work out both numbers even when the subjects already decide.
        if lhs.subject != rhs.subject { return lhs.subject < rhs.subject }
        let (left, right) = (lhs.numericValue, rhs.numericValue)
        if left != right { return left < right }
        if lhs.number != rhs.number { return lhs.number < rhs.number }
        return (lhs.suffix ?? "") < (rhs.suffix ?? "")
    }

    /// Parses a string that is a whole course code, in any case and common spelling.
    public init?(parsing text: String) {
        let scalars = Array(text.unicodeScalars)
        let start = CourseCodeScanner.skipSpaces(scalars, from: 0)
        guard let match = CourseCodeScanner.scan(scalars, from: start, caseSensitive: false),
              CourseCodeScanner.skipSpaces(scalars, from: match.end) == scalars.count else { return nil }
        self = match.code
    }

    /// A code at the start of `text` (upper-case subjects only, as headings write them) and where it ends.
    public static func leading(in text: String) -> (code: CourseCode, rest: Substring)? {
        let scalars = Array(text.unicodeScalars)
        let start = CourseCodeScanner.skipSpaces(scalars, from: 0)
        guard let match = CourseCodeScanner.scan(scalars, from: start, caseSensitive: true, lowerCaseSuffix: true) else { return nil }
        return (match.code, Substring(text.unicodeScalars.dropFirst(match.end)))
    }
}

/// The hand-written scanner behind `CourseCode`: a regex engine would be the slowest part of a parse.
enum CourseCodeScanner {
    static let maxSubjectLetters = 5

    static func skipSpaces(_ s: [Unicode.Scalar], from index: Int) -> Int {
        s[index...].firstIndex { $0 != " " && $0 != "\u{A0}" && $0 != "\t" } ?? s.count
    }

    static func isLetter(_ c: Unicode.Scalar, upperOnly: Bool) -> Bool {
        (c >= "A" && c <= "Z") || (!upperOnly && c >= "a" && c <= "z")
    }

    static func isDigit(_ c: Unicode.Scalar) -> Bool { c >= "0" && c <= "9" }

    static func upper(_ c: Unicode.Scalar) -> Character {
        c >= "a" && c <= "z" ? Character(Unicode.Scalar(c.value - 32) ?? c) : Character(c)
    }

    /// Scans SUBJECT [space|hyphen] [letter]DIGITS[LETTER DIGITS][SUFFIX] at `start`; the code must end at a word boundary.
    /// - Parameter lowerCaseSuffix: a heading's suffix may be written in lower case ("CTCS 190g", "PHIL 174gw",
    ///   USC's), though its subject may not; an ordinal's ("20th") is no suffix.
    static func scan(_ s: [Unicode.Scalar], from start: Int, caseSensitive: Bool,
                     lowerCaseSuffix: Bool = false) -> (code: CourseCode, end: Int)? {
        guard start < s.count, isLetter(s[start], upperOnly: caseSensitive) else { return nil }
        if start > 0, isLetter(s[start - 1], upperOnly: false) || isDigit(s[start - 1]) { return nil }
        // Letter groups: "CIS", "A&S", or lone letters joined by single spaces ("C S 235").
        var (subject, i) = letterGroup(s, at: start, caseSensitive: caseSensitive)
        let firstGroupLength = subject.count
        while firstGroupLength == 1, i + 1 < s.count, s[i] == " " {
            let (group, next) = letterGroup(s, at: i + 1, caseSensitive: caseSensitive)
            guard group.count == 1 else { break }
            subject += group
            i = next
        }
        // A word and one letter before the number: "COM S 309", "CPR E 288" (Iowa State's subjects).
        if firstGroupLength >= 2, i + 3 < s.count, s[i] == " " {
            let (group, next) = letterGroup(s, at: i + 1, caseSensitive: caseSensitive)
            if group.count == 1, next + 1 < s.count, s[next] == " ", isDigit(s[next + 1]) {
                subject += group
                i = next
            }
        }
        let letterCount = subject.filter { $0 != "&" }.count
        guard letterCount >= 2, letterCount <= maxSubjectLetters else { return nil }
        // Separator: spaces (NBSP included) or one hyphen, or nothing ("cis162").
        var j = skipSpaces(s, from: i)
        if j < s.count, s[j] == "-" { j = skipSpaces(s, from: j + 1) }
        var number = ""
        // A one-letter prefix before the digits ("B011"), only when digits follow at once.
        if j + 1 < s.count, isLetter(s[j], upperOnly: true), isDigit(s[j + 1]), j > i {
            number.append(Character(s[j]))
            j += 1
        }
        let digitsStart = j
        while j < s.count, isDigit(s[j]), j - digitsStart < 5 { number.append(Character(s[j])); j += 1 }
        var digitCount = j - digitsStart
        guard digitCount >= 1 else { return nil }
        if j < s.count, isDigit(s[j]) { return nil }
        // Letters between digits belong to the number: "FINA 7A20", "PHOP 6X57", "ENG 460D1" (one letter each time,
        // twice at most; not after a prefix letter).
        var innerLetters = 0
        while innerLetters < 2, number.first?.isASCIIDigit == true, j + 1 < s.count, isLetter(s[j], upperOnly: caseSensitive),
              isDigit(s[j + 1]) {
            var k = j + 1
            var run = ""
            while k < s.count, isDigit(s[k]), run.count < 4 { run.unicodeScalars.append(s[k]); k += 1 }
            if k < s.count, isDigit(s[k]) { return nil }
            number.append(upper(s[j]))
            number += run
            digitCount += run.count
            innerLetters += 1
            j = k
        }
        guard digitCount >= (innerLetters > 0 ? 3 : 2) else { return nil }
        // "3000-4000 level" and decimals are not codes.
        if j < s.count, s[j] == ".", j + 1 < s.count, isDigit(s[j + 1]) { return nil }
        var suffix = ""
        var k = j
        let suffixUpperOnly = caseSensitive && !lowerCaseSuffix
        while k < s.count, isLetter(s[k], upperOnly: suffixUpperOnly), suffix.count < 2 { suffix.append(upper(s[k])); k += 1 }
        if !suffix.isEmpty {
            // A suffix must end the word: "CIS 162L" yes, "CIS 162Lab" no (keep the bare number then).
            if k < s.count, isLetter(s[k], upperOnly: false) || isDigit(s[k]) {
                suffix = ""
                k = j
            } else if lowerCaseSuffix, s[j] >= "a" && s[j] <= "z", ["ST", "ND", "RD", "TH"].contains(suffix) {
                return nil
            }
        } else if j < s.count, isDigit(s[j]) {
            return nil
        }
        return (CourseCode(subject: subject, number: number, suffix: suffix), k)
    }

    private static func letterGroup(_ s: [Unicode.Scalar], at start: Int, caseSensitive: Bool) -> (String, Int) {
        var group = ""
        var i = start
        while i < s.count {
            if isLetter(s[i], upperOnly: caseSensitive) {
                group.append(upper(s[i]))
            } else if s[i] == "&", !group.isEmpty, i + 1 < s.count, isLetter(s[i + 1], upperOnly: caseSensitive) {
                group.append("&")
            } else {
                break
            }
            i += 1
            if group.count > maxSubjectLetters + 1 { break }
        }
        return (group, i)
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
