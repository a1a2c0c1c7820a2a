/// A course after normalization: the parsed course, and what normalizing it worked out. Fields normalization does
/// not interpret stay in `parsed`; the record cleans them (`CourseRecord.init(_:)`), so a new one needs no slot here.
public struct Course: Sendable, Equatable {
    public var parsed: ParsedCourse
    /// The parsed code with the configured subject renamings applied.
    public var code: CourseCode
    /// Stable across runs: the code's ("cis-162l"), qualified by the title where another course shares the code.
    public var id: String { Self.id(code: code, qualifier: idQualifier) }
    /// Set only where another course of the catalog has the same code (`SharedCodes`).
    public var idQualifier: String? = nil
    /// Title and description cleaned (`TextCleaner`): shared codes and levels compare them.
    public var title: String
    public var description: String
    public var credits: CreditRange?
    public var creditsText: String?
    public var level: CourseLevel?
    /// Where the level came from: the page, or the number ranges of the configuration.
    public var levelSource: String?
    public var prerequisite: Requisite?
    /// Canonical text: canonical codes, collapsed white space, label stripped.
    public var prerequisiteString: String?
    /// The same with course codes linked to their catalog pages.
    public var prerequisiteMarkdown: String?
    public var prerequisiteCourses: [String]
    public var corequisite: Requisite?
    public var corequisiteString: String?
    public var corequisiteMarkdown: String?
    public var corequisiteCourses: [String]
    /// Courses in the catalog that name this one as a prerequisite (filled across the catalog).
    public var prerequisiteFor: [String] = []
    /// Codes this course's requisites name that the catalog does not have (filled across the catalog).
    public var missingReferences: [String] = []
    public var warnings: [String]

    /// `id` from its two fields, which copy alone where `courses[index].id` copies (retains) the whole course.
    static func id(code: CourseCode, qualifier: String?) -> String {
        qualifier.map { "\(code.id)-\($0)" } ?? code.id
    }

    /// The app's integer credits: the minimum of the range, 0 when unknown.
    public var appCredits: Int { credits?.appCredits ?? 0 }
}
