/// A course's level; the app shows it capitalised ("Undergraduate").
public enum CourseLevel: String, Sendable, Codable, CaseIterable, Comparable {
    case developmental, undergraduate, graduate, doctoral

    /// The app-facing string: "Developmental", "Undergraduate", "Graduate", "Doctoral".
    public var displayName: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    /// Reads a level a page states ("Graduate", "undergraduate level", "Doctoral"); nil otherwise.
    public init?(stated text: String) {
        let lowered = text.lowercased()
        if lowered.contains("undergraduate") {
            self = .undergraduate
        } else if lowered.contains("doctoral") || lowered.contains("doctorate") {
            self = .doctoral
        } else if lowered.contains("graduate") {
            self = .graduate
        } else if lowered.contains("developmental") || lowered.contains("remedial") {
            self = .developmental
        } else {
            return nil
        }
    }

    public static func < (lhs: CourseLevel, rhs: CourseLevel) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}

/// A number range that implies a level: GVSU's 100–499 are undergraduate courses.
public struct LevelRange: Sendable, Equatable, Codable {
    public var from: Int
    /// Inclusive; nil means no upper bound.
    public var to: Int?
    public var level: CourseLevel

    public init(from: Int, to: Int?, level: CourseLevel) {
        self.from = from
        self.to = to
        self.level = level
    }

    public func contains(_ number: Int) -> Bool { number >= from && (to.map { number <= $0 } ?? true) }

    /// GVSU's numbering: 0–99 developmental, 100–499 undergraduate, 500–699 graduate, 700+ doctoral.
    public static let gvsuDefaults: [LevelRange] = [
        LevelRange(from: 0, to: 99, level: .developmental),
        LevelRange(from: 100, to: 499, level: .undergraduate),
        LevelRange(from: 500, to: 699, level: .graduate),
        LevelRange(from: 700, to: nil, level: .doctoral),
    ]
}
