/// One node of a parsed prerequisite: an operator over other nodes or a leaf requirement.
///
/// Its JSON (`Codable`) is the `requisite` of schemas/catalog.schema.json, optional keys left out when nil or false.
/// Provenance keys keep the tree lossless (FuzzHarness's `missingWords(of:)`): `source` on a leaf is the exact span of
/// prose it came from, grade, concurrency or rename phrases included, omitted when it equals the value;
/// `connective` on an operator holds the distinct words that joined its children ("both and", "one of the
/// following or"), omitted when they were only juxtaposed, slashed or split into sentences.
/// A `text` leaf is prose the parser did not understand, verbatim; it never contributes courses.
public indirect enum Requisite: Sendable, Hashable {
    /// Every child is required.
    case all([Requisite], connective: String? = nil)
    /// One child is required.
    case any([Requisite], connective: String? = nil)
    /// At least `count` children are required ("two of the following").
    case atLeast(Int, of: [Requisite], connective: String? = nil)
    /// A course, with grade and concurrency qualifiers.
    case course(CourseRequirement)
    /// Class standing such as "junior" (a minimum: "junior standing or above" is also "junior").
    case standing(String, source: String? = nil)
    /// Admission to or membership in a program ("CIS major").
    case program(String, source: String? = nil)
    /// Permission of someone ("instructor", "department chair").
    case permission(String, source: String? = nil)
    /// A placement or test result ("ACT math", score "24").
    case exam(String, score: String? = nil, source: String? = nil)
    /// Prose not understood, kept verbatim.
    case text(String)
}

/// A course leaf: the code and how it must have been taken.
public struct CourseRequirement: Sendable, Hashable {
    public var code: CourseCode
    /// Lowest accepted grade as written ("C", "C-"), or nil when none is stated.
    public var minGrade: String?
    /// True when the course may (or must) be taken at the same time ("credit or registration in").
    public var concurrent = false
    /// The exact prose span, when it differs from the canonical code.
    public var source: String?
}
