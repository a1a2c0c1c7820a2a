import SafeLibXML

/// A course's level; the app shows it capitalised ("Undergraduate").
public enum CourseLevel: String, Sendable, Codable, CaseIterable {
    case developmental, undergraduate, graduate, doctoral

    /// The app-facing string: "Developmental", "Undergraduate", "Graduate", "Doctoral".
    public var displayName: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    /// Reads a level a page states ("Graduate", "undergraduate level", "Doctoral"); nil otherwise.
    public init?(stated text: String) {
        let lowered = text.lowercased()
        // The first word found decides: "undergraduate" holds "graduate", and a doctoral level may say "graduate" too.
        let words: [(word: String, level: CourseLevel)] = [("undergraduate", .undergraduate),
            ("doctoral", .doctoral), ("doctorate", .doctoral), ("graduate", .graduate),
            ("developmental", .developmental), ("remedial", .developmental)]
        guard let found = words.first(where: { lowered.contains($0.word) }) else { return nil }
        self = found.level
    }
}

/// A number range that implies a level: GVSU's 100–499 are undergraduate courses.
public struct LevelRange: Sendable, Equatable {
    public var from: Int
    /// Inclusive; nil means no upper bound.
    public var to: Int?
    public var level: CourseLevel
}

/// How a catalog's course numbers imply levels: the configured ranges, or the numbering its own numbers show.
public struct NumberingScheme: Sendable, Equatable {
    public var ranges: [LevelRange]
    /// Where the ranges come from, as `levelSource` names it.
    public var origin: String
    /// Whether a title may make a course doctoral: where no range is doctoral, only the catalog's words say which are.
    public var doctoralFromTitle = false

    /// GVSU's: 0–99 developmental, 100–499 undergraduate, 500–699 graduate, 700 and up doctoral.
    public static let threeDigit = NumberingScheme(ranges: [
        LevelRange(from: 0, to: 99, level: .developmental),
        LevelRange(from: 100, to: 499, level: .undergraduate),
        LevelRange(from: 500, to: 699, level: .graduate),
        LevelRange(from: 700, to: nil, level: .doctoral),
    ], origin: "three-digit numbering, read from the catalog's course numbers")

    /// The common four-digit numbering: 0–999 developmental, 1000–4999 undergraduate, 5000 and up graduate.
    public static let fourDigit = NumberingScheme(ranges: [
        LevelRange(from: 0, to: 999, level: .developmental),
        LevelRange(from: 1000, to: 4999, level: .undergraduate),
        LevelRange(from: 5000, to: nil, level: .graduate),
    ], origin: "four-digit numbering, read from the catalog's course numbers", doctoralFromTitle: true)

    /// The level of course `code` titled `title` and the rule that gave it; nil when no range holds its number.
    func level(of code: CourseCode, title: String) -> (level: CourseLevel, source: String)? {
        // Four places or more in a three-digit catalog are read as four-digit, as a catalog moving between numberings
        // holds both (UM-Dearborn's CIS 150 beside CIS 1501) and three-digit ranges would make every such course
        // doctoral. The odd three-place number of a four-digit catalog stays below its 1000: such catalogs write it so.
        if self == .threeDigit, code.numberWidth >= 4 { return Self.fourDigit.level(of: code, title: title) }
        if doctoralFromTitle, let word = Self.doctoralWord(in: title) {
            return (.doctoral, "the title's word \"\(word)\" (\(origin), where no number range is doctoral)")
        }
        let number = code.numericValue
        guard let range = ranges.first(where: { number >= $0.from && number <= $0.to ?? .max }) else { return nil }
        return (range.level, "number \(number) in \(range.from)…\(range.to.map(String.init) ?? "") (\(origin))")
    }

    private static func doctoralWord(in title: String) -> Substring? {
        // Few titles hold the stem: a byte search first (splitting each title, or Foundation's `contains`, cost).
        guard title.lowercased().containsBytes("doctora") else { return nil }
        return title.split(whereSeparator: { !$0.isLetter }).first { ["doctoral", "doctorate"].contains($0.lowercased()) }
    }
}
