/// One course as gvingest publishes it: what `parse --json` prints, a snapshot keeps, `catalog.json` publishes, and
/// the diff, the news, search and Firestore read. Its stored properties and coding keys are the one list of a course's
/// fields and their JSON names; decoding one is validating it.
///
/// The published fields are always written, `null` when unknown (`@Nullable`), so every record carries every key.
/// The stamps (`createdAt`, `updatedAt`, `fingerprint`) and the diagnostics (`sources`, `warnings`) are written only
/// where they are set: a snapshot stamps its courses, `parse --json` adds the diagnostics.
public struct CourseRecord: Codable, Sendable, Equatable {
    /// Stable across runs: the code's ("cis-162l"), qualified by the title where another course shares the code.
    public var id: String
    /// The canonical code, "CIS 162".
    public var name: String
    public var subject: String
    /// The app's integer number (`CourseCode.numericValue`).
    public var number: Int
    /// The number as written, leading zeros and inner letters kept ("098", "7A20").
    public var numberText: String
    @Nullable public var suffix: String?
    public var title: String
    public var description: String
    /// The app's integer credits: the minimum of the range, 0 when unknown.
    public var credits: Int
    @Nullable public var creditRange: CreditRange?
    @Nullable public var creditsText: String?
    /// As the app shows it: "Undergraduate".
    @Nullable public var level: String?
    /// Where the level came from: the page, or the number ranges of the configuration.
    @Nullable public var levelSource: String?
    @Nullable public var prerequisite: Requisite?
    /// Canonical text: canonical codes, collapsed white space, label stripped.
    @Nullable public var prerequisiteString: String?
    /// The same with course codes linked to their catalog pages.
    @Nullable public var prerequisiteMarkdown: String?
    public var prerequisiteCourses: [String]
    @Nullable public var corequisite: Requisite?
    @Nullable public var corequisiteString: String?
    @Nullable public var corequisiteMarkdown: String?
    public var corequisiteCourses: [String]
    /// Courses in the catalog that name this one as a prerequisite.
    public var prerequisiteFor: [String]
    /// Codes this course's requisites name that the catalog does not have.
    public var missingReferences: [String]
    @Nullable public var offered: String?
    @Nullable public var contactHours: String?
    /// The catalog edition the page belongs to.
    @Nullable public var catalog: String?
    /// Every other labelled field, by label (a label met twice keeps both values, a line each).
    public var fields: [String: String]
    public var notes: [String]
    /// The course's page on the catalog's site.
    public var url: String
    /// Where it was read from (a file or the page).
    public var sourceUrl: String
    public var system: CatalogSystem
    /// The app's fields that no catalog page gives.
    @Nullable public var rubricsUrl: String? = nil
    @Nullable public var transitionPlanUrl: String? = nil

    /// When the course was first seen (RFC 3339, UTC).
    public var createdAt: String?
    /// When one of its compared fields last changed.
    public var updatedAt: String?
    /// The label of the first edition the course appears in (`backfill`'s, or the day a run first saw it).
    public var firstEdition: String?
    /// What happened to it, edition by edition (`CourseEvent`).
    public var history: [CourseEvent]?
    /// FNV-1a over the compared fields (`ComparableCourse.fingerprint`), in snapshots.
    public var fingerprint: String?
    /// For each field, the rule that read it (`parse --json` only).
    public var sources: [String: String]?
    public var warnings: [String]?

    /// The record of a normalized course, with its diagnostics when `diagnostics`; not yet stamped. Text that
    /// normalization leaves alone is cleaned here, so a new such field is a slot in `ParsedCourse` and a line below.
    public init(_ course: Course, diagnostics: Bool = false) {
        id = course.id
        name = course.code.description
        subject = course.code.subject
        number = course.code.numericValue
        numberText = course.code.number
        suffix = course.code.suffix
        title = course.title
        description = course.description
        credits = course.appCredits
        creditRange = course.credits
        creditsText = course.creditsText
        level = course.level?.displayName
        levelSource = course.levelSource
        prerequisite = course.prerequisite
        prerequisiteString = course.prerequisiteString
        prerequisiteMarkdown = course.prerequisiteMarkdown
        prerequisiteCourses = course.prerequisiteCourses
        corequisite = course.corequisite
        corequisiteString = course.corequisiteString
        corequisiteMarkdown = course.corequisiteMarkdown
        corequisiteCourses = course.corequisiteCourses
        prerequisiteFor = course.prerequisiteFor
        missingReferences = course.missingReferences
        let parsed = course.parsed
        offered = parsed.offered.map(TextCleaner.cleanLine)
        contactHours = parsed.contactHours.map(TextCleaner.cleanLine)
        catalog = parsed.catalogName.map(TextCleaner.cleanLine)
        fields = Dictionary(parsed.fields.map { (TextCleaner.cleanLine($0.label), TextCleaner.clean($0.value)) }, uniquingKeysWith: { "\($0)\n\($1)" })
        notes = parsed.notes.map(TextCleaner.clean)
        url = parsed.pageURL ?? parsed.sourceURL
        sourceUrl = parsed.sourceURL
        system = parsed.system
        if diagnostics {
            sources = parsed.provenance
            warnings = course.warnings
        }
    }

    /// The record's texts cleaned as `init(_:)` cleans them now: a snapshot written by an earlier gvingest reads as
    /// this one would write it, so the first run after an upgrade reports only real changes.
    mutating func cleanTexts() {
        title = TextCleaner.cleanLine(title)
        description = TextCleaner.clean(description)
        for keyPath in [\CourseRecord.creditsText, \.prerequisiteString, \.corequisiteString, \.offered, \.contactHours, \.catalog] {
            self[keyPath: keyPath] = self[keyPath: keyPath].map(TextCleaner.cleanLine)
        }
        fields = Dictionary(fields.map { (TextCleaner.cleanLine($0.key), TextCleaner.clean($0.value)) }, uniquingKeysWith: { "\($0)\n\($1)" })
        notes = notes.map(TextCleaner.clean)
    }

    /// The fields a diff compares, in the order it lists changes, each with its name for people and its canonical
    /// value; labelled fields (`fields.<label>`) follow by label. Codes, URLs, the edition's name, requisite renderings,
    /// cross-catalog links, stamps and diagnostics change without the course changing, and are not compared.
    public static let compared: [ComparedField] = [
        field(.title, "Title") { .text($0.title) }, field(.description, "Description") { .text($0.description) },
        field(.credits, "Credits") { $0.creditsLabel.map(JSONValue.string) }, field(.level, "Level") { .text($0.level) },
        field(.prerequisiteString, "Prerequisites") { .text($0.prerequisiteString) },
        field(.corequisiteString, "Corequisites") { .text($0.corequisiteString) },
        field(.offered, "Offered") { .text($0.offered) }, field(.contactHours, "Contact hours") { .text($0.contactHours) },
        field(.notes, "Notes") { record in
            let texts = Set(record.notes.compactMap { JSONValue.text($0)?.stringValue }).sorted()
            return texts.isEmpty ? nil : .array(texts.map(JSONValue.string))
        },
        field(.rubricsUrl, "Rubrics URL") { .text($0.rubricsUrl) },
        field(.transitionPlanUrl, "Transition plan URL") { .text($0.transitionPlanUrl) },
    ]

    private static func field(_ key: CodingKeys, _ label: String,
                              _ value: @escaping @Sendable (CourseRecord) -> JSONValue?) -> ComparedField {
        ComparedField(key: key.stringValue, label: label, value: value)
    }

    /// The credits as people compare them: "3" or "1-3" from the range; else as written; else the app's integer
    /// when positive.
    public var creditsLabel: String? {
        func format(_ value: Double) -> String { value.exactWholeNumber.map(String.init) ?? String(value) }
        if let range = creditRange { return range.min == range.max ? format(range.min) : "\(format(range.min))-\(format(range.max))" }
        if case let .string(text)? = JSONValue.text(creditsText) { return text }
        return credits > 0 ? String(credits) : nil
    }

    /// The credits as people read them: "1 credit", "3 credits", "1–3 credits"; a label that is no number as it is.
    public var creditsPhrase: String? { creditsLabel.map(Self.creditsPhrase) }

    /// A `creditsLabel` ("1", "1-3", "Variable") as people read it.
    public static func creditsPhrase(_ label: String) -> String {
        let bounds = label.split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.allSatisfy({ Double($0) != nil }) else { return label }
        if bounds.count == 1 { return label + (Double(label) == 1 ? " credit" : " credits") }
        return bounds.count == 2 ? "\(bounds[0])–\(bounds[1]) credits" : label
    }
}

/// A field a diff compares: its JSON name, its name for people, and its canonical value (nil when empty).
public struct ComparedField: Sendable {
    public let key: String
    public let label: String
    let value: @Sendable (CourseRecord) -> JSONValue?
}
