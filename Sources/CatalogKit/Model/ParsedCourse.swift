/// The catalog systems gvingest has parsers for.
public enum CatalogSystem: String, Sendable, Codable, CaseIterable {
    case gvsu, acalog, courseleaf, banner
}

/// A link to a course as a page wrote it: the code it names, the text, and where it points.
public struct CourseLink: Sendable, Equatable, Codable {
    /// The canonical code the link names, when its text reads as one ("CIS 241").
    public var code: String?
    /// The link text, white space collapsed.
    public var text: String
    /// The absolute URL, when the href resolves.
    public var url: String?
}

/// A labelled field of a course page that has no dedicated slot ("Repeatability:", "TCCNS Equivalent:").
public struct LabelledField: Sendable, Equatable, Codable {
    /// The label as the page writes it, without its colon.
    public var label: String
    public var value: String
}

/// One course as a parser extracted it from a page, before normalization: text as the page has it.
public struct ParsedCourse: Sendable, Equatable, Codable {
    public var code: CourseCode
    public var title: String
    /// The catalog edition the page belongs to ("2019-2020 Undergraduate & Graduate Catalog").
    public var catalogName: String?
    /// The credits as written ("4", "1-3", "3 or 4"), or nil when the page states none.
    public var creditsText: String?
    /// GVSU's contact-hour triple without parentheses ("3-0-0").
    public var contactHours: String?
    /// When the course is offered, as written ("fall and winter semesters").
    public var offered: String?
    /// The description; paragraphs separated by a blank line.
    public var description = ""
    /// The prerequisite text with its label removed.
    public var prerequisiteText: String?
    public var corequisiteText: String?
    /// Course links inside the prerequisite, in order.
    public var prerequisiteLinks: [CourseLink] = []
    public var corequisiteLinks: [CourseLink] = []
    /// Every other labelled field, in page order.
    public var fields: [LabelledField] = []
    /// Unlabelled remarks the page sets apart (emphasised notes).
    public var notes: [String] = []
    /// Where the page was read from (`file://…` or `https://…`).
    public var sourceURL: String
    /// The page's own URL when it declares one (canonical link), used to resolve its links.
    public var pageURL: String?
    public var system: CatalogSystem
    /// For each field, the rule that produced it: an XPath, a label, a sentence pattern. Made with room for the
    /// usual fields' rules: growing the table as they came in rehashed it twice a course.
    public var provenance = [String: String](minimumCapacity: 12)

    public init(code: CourseCode, title: String, sourceURL: String, system: CatalogSystem) {
        self.code = code
        self.title = title
        self.sourceURL = sourceURL
        self.system = system
    }
}

/// What a listing page links to: courses, and other pages of the same listing.
public struct CourseListing: Sendable, Equatable, Codable {
    /// The subject or listing heading ("Computer Information Systems").
    public var heading: String?
    /// The subject code the heading names, when it does ("CIS").
    public var subjectCode: String?
    public var courses: [ListedCourse]
    /// How many pages the listing's pager says there are (1 when there is no pager).
    public var pageCount = 1
    /// Links to the listing's other pages, absolute.
    public var pageLinks: [String] = []
}

/// A course a listing links to.
public struct ListedCourse: Sendable, Equatable, Codable {
    public var code: String?
    public var title: String?
    /// Credits when the listing shows them ("(3)", "(1-12 per sem.)").
    public var creditsText: String?
    public var url: String
}
