import Foundation
import SafeLibXML

/// One course of a published catalog, and the fields search looks at.
public struct SearchableCourse: Sendable, Equatable {
    public var record: CourseRecord
    public var code: CourseCode?

    public init(_ record: CourseRecord) {
        self.record = record
        code = CourseCode(parsing: record.name)
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

/// A course the query found, and where its words matched.
public struct SearchHit: Sendable, Equatable {
    public var course: SearchableCourse
    public var match: SearchMatch
}

/// Searches a published catalog. Pure: courses and a query in, ranked hits out.
public enum CatalogSearch {
    /// The courses of a `catalog.json` (or snapshot) document.
    public static func courses(in bytes: [UInt8]) throws(FormatError) -> [SearchableCourse] {
        try CourseDocument.read(bytes, SearchableCourse.init).courses
    }

    /// The courses that pass every filter and match the words: code, then title, then description matches, by code.
    public static func search(_ courses: [SearchableCourse], _ query: CatalogQuery) -> [SearchHit] {
        let words = TextCollapsing.collapse(query.text).lowercased()
        // "cis162" finds "CIS 162": codes are also compared without their spaces.
        let compactWords = words.filter { $0 != " " }
        let requires = query.requires?.description
        var hits: [SearchHit] = []
        for course in courses {
            if let subject = query.subject, course.subject.caseInsensitiveCompare(subject) != .orderedSame { continue }
            if let level = query.level, course.level?.caseInsensitiveCompare(level) != .orderedSame { continue }
            if let credits = query.credits, !course.allows(credits: credits) { continue }
            if let requires, !course.requires(requires) { continue }
            let match: SearchMatch
            if words.isEmpty {
                match = .filters
            } else if course.name.lowercased().contains(words) || course.name.lowercased().filter({ $0 != " " }).contains(compactWords) {
                match = .code
            } else if course.title.lowercased().contains(words) {
                match = .title
            } else if course.description.lowercased().contains(words) {
                match = .description
            } else {
                continue
            }
            hits.append(SearchHit(course: course, match: match))
        }
        return hits.sorted { lhs, rhs in
            if lhs.match != rhs.match { return lhs.match < rhs.match }
            switch (lhs.course.code, rhs.course.code) {
            case let (left?, right?) where left != right: return left < right
            default: return lhs.course.name < rhs.course.name
            }
        }
    }
}
