import Foundation
import SafeLibXML

/// One course of a published catalog, and the fields search looks at.
public struct SearchableCourse: Sendable, Equatable {
    public let record: CourseRecord
    public let code: CourseCode?
    /// Made once: a search folds no description again.
    public let keys: SearchKeys

    public init(_ record: CourseRecord) {
        self.record = record
        code = CourseCode(parsing: record.name)
        keys = SearchKeys(record)
    }

    /// The canonical code ("CIS 162"), the record's `name`.
    public var name: String { record.name }
    public var subject: String { record.subject }
    public var title: String { record.title }
    public var description: String { record.description }
    /// The level as published ("Undergraduate"), when there is one.
    public var level: String? { record.level }

    /// Whether it can be taken for `credits`: within its credit range, or its app credits when it has no range.
    func allows(credits: Double) -> Bool {
        guard let range = record.creditRange else { return Double(record.credits) == credits }
        return range.min <= credits && credits <= range.max
    }

    /// Whether its prerequisite or corequisite names the course of canonical code `code`.
    func requires(_ code: String) -> Bool {
        (record.prerequisiteCourses + record.corequisiteCourses).contains { (CourseCode(parsing: $0)?.description ?? $0) == code }
    }
}

/// What to look for: words in a course's code, title or description, and filters every result must pass.
public struct CatalogQuery: Sendable, Equatable {
    /// Matched case-insensitively; empty matches every course (then the filters choose).
    public var text: String
    /// A subject code ("CIS"), any case.
    public var subject: String?
    /// A level ("graduate"), any case.
    public var level: String?
    /// Courses a student can take for this many credits: within the credit range, or the credits when no range.
    public var credits: Double?
    /// Courses whose prerequisite or corequisite names this course.
    public var requires: CourseCode?

    public init(text: String = "", subject: String? = nil, level: String? = nil, credits: Double? = nil, requires: CourseCode? = nil) {
        self.text = text
        self.subject = subject
        self.level = level
        self.credits = credits
        self.requires = requires
    }

    /// True when the query asks for nothing: no words and no filter.
    public var isEmpty: Bool {
        TextCollapsing.collapse(text).isEmpty && subject == nil && level == nil && credits == nil && requires == nil
    }
}

/// Where a course matched the query's words, best first (in the order of the cases).
public enum SearchMatch: String, Sendable, Comparable, CaseIterable {
    case code, title, description
    /// No words were asked for: the course passed the filters.
    case filters

    public static func < (lhs: SearchMatch, rhs: SearchMatch) -> Bool {
        (allCases.firstIndex(of: lhs) ?? 0) < (allCases.firstIndex(of: rhs) ?? 0)
    }
}

/// The one ranking of `gvingest search` and the site's search (SiteAssets.searchScript does the same steps on the keys
/// `SearchKeys` writes into its index): the tier of a course, best first; ties go to the shorter title, then code order.
public enum SearchTier: Int, Sendable, Comparable, CaseIterable {
    /// The code itself, with or without its space ("cis162").
    case exactCode
    /// The start of a code: a subject ("cis"), or "cis 16".
    case codePrefix
    case exactTitle
    case titlePrefix
    /// Every word starts a word of the title.
    case titleWords
    /// Every word starts a word of the code, the title or the description.
    case anywhere
    /// No words: the filters chose it.
    case filters

    public static func < (lhs: SearchTier, rhs: SearchTier) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Where it matched, as `--json` says it.
    public var match: SearchMatch {
        switch self {
        case .exactCode, .codePrefix: .code
        case .exactTitle, .titlePrefix, .titleWords: .title
        case .anywhere: .description
        case .filters: .filters
        }
    }
}

/// The forms of a course's text search compares: lower case, accents dropped, every run of other characters than
/// letters and digits one space. The site's index carries them as made here, so the browser compares the same keys.
public struct SearchKeys: Sendable, Equatable {
    /// "cis 162l", and "cis162l" without its spaces.
    public var code: String
    public var compactCode: String
    public var title: String
    public var description: String

    public init(_ record: CourseRecord) {
        code = Self.fold(record.name)
        compactCode = code.filter { $0 != " " }
        title = Self.fold(record.title)
        description = Self.fold(record.description)
    }

    /// The text the last tier looks in, each word after a space: code, compact code, title, description.
    var anywhere: String { " \(code) \(compactCode) \(title) \(description)" }

    public static func fold(_ text: String) -> String {
        var folded = ""
        var space = false
        for character in text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased() {
            if character.isLetter || character.isNumber {
                if space, !folded.isEmpty { folded.append(" ") }
                space = false
                folded.append(character)
            } else {
                space = true
            }
        }
        return folded
    }

    /// The tier of these keys for a folded query, nil when it does not match; "" (no words) is `.filters`.
    public func tier(_ query: String) -> SearchTier? {
        guard !query.isEmpty else { return .filters }
        let compactQuery = query.filter { $0 != " " }
        if compactCode == compactQuery { return .exactCode }
        if compactCode.hasPrefix(compactQuery) { return .codePrefix }
        if title == query { return .exactTitle }
        if title.hasPrefix(query) { return .titlePrefix }
        let words = query.split(separator: " ").map { " " + $0 }
        if words.allSatisfy((" " + title).contains) { return .titleWords }
        let anywhere = anywhere
        return words.allSatisfy(anywhere.contains) ? .anywhere : nil
    }
}

/// A course the query found, where its words matched, and its place in the ranking.
public struct SearchHit: Sendable, Equatable {
    public var course: SearchableCourse
    public var tier: SearchTier
    public var match: SearchMatch { tier.match }
}

extension CourseRecord {
    /// Code order: subject, number, the number as written, id. The site's index is in this order.
    public static func inCodeOrder(_ a: CourseRecord, _ b: CourseRecord) -> Bool {
        (a.subject, a.number, a.numberText, a.id) < (b.subject, b.number, b.numberText, b.id)
    }
}

/// Searches a published catalog. Pure: courses and a query in, ranked hits out.
public enum CatalogSearch {
    /// The courses of a `catalog.json` (or snapshot) document.
    public static func courses(in bytes: [UInt8]) throws(FormatError) -> [SearchableCourse] {
        try CourseDocument.read(bytes, SearchableCourse.init).courses
    }

    /// The courses that pass every filter and match the words, ranked by `SearchTier`; ties to the shorter title
    /// (in UTF-16 units, as the browser counts), then code order. With no words, code order.
    public static func search(_ courses: [SearchableCourse], _ query: CatalogQuery) -> [SearchHit] {
        let words = SearchKeys.fold(query.text)
        let requires = query.requires?.description
        var hits: [SearchHit] = []
        for course in courses {
            if let subject = query.subject, course.subject.caseInsensitiveCompare(subject) != .orderedSame { continue }
            if let level = query.level, course.level?.caseInsensitiveCompare(level) != .orderedSame { continue }
            if let credits = query.credits, !course.allows(credits: credits) { continue }
            if let requires, !course.requires(requires) { continue }
            guard let tier = course.keys.tier(words) else { continue }
            hits.append(SearchHit(course: course, tier: tier))
        }
        return hits.sorted { lhs, rhs in
            if lhs.tier != rhs.tier { return lhs.tier < rhs.tier }
            if lhs.tier != .filters, lhs.course.title.utf16.count != rhs.course.title.utf16.count {
                return lhs.course.title.utf16.count < rhs.course.title.utf16.count
            }
            return CourseRecord.inCodeOrder(lhs.course.record, rhs.course.record)
        }
    }
}
