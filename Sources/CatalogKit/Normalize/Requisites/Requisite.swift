/// One node of a parsed prerequisite: an operator over other nodes or a leaf requirement.
///
/// JSON (`Codable`), one object per node; optional keys are omitted when nil/false:
/// - `{"all":[…], "connective":"and"}`, `{"any":[…]}`, `{"atLeast":2, "of":[…]}`
/// - `{"course":"CIS 162", "minGrade":"C", "concurrent":true, "source":"CIS 162 with a minimum grade of C"}`
/// - `{"standing":"junior"}`, `{"program":"CIS major"}`, `{"permission":"instructor"}`
/// - `{"exam":"Math placement", "score":"3"}`, `{"text":"six additional hours of 3000-4000 level Mathematics"}`
///
/// Provenance keys keep the tree lossless (see `missingWords(of:)`): `source` on a leaf is the exact span of
/// prose it came from, grade, concurrency or rename phrases included, omitted when it equals the value;
/// `connective` on an operator holds the distinct words that joined its children ("both and", "one of the
/// following or"), omitted when they were only juxtaposed, slashed or split into sentences.
/// A `text` leaf is prose the parser did not understand, verbatim; it never contributes courses.
public indirect enum Requisite: Sendable, Hashable, Codable {
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

    private enum Key: String, CodingKey {
        case all, any, atLeast, of, connective
        case course, minGrade, concurrent
        case standing, program, permission, exam, score, text, source
    }

    /// Writes the members of `json`, so that the shapes are written down once.
    public func encode(to encoder: any Encoder) throws {
        guard case .object(let members) = json else { return }
        var container = encoder.container(keyedBy: Key.self)
        for (name, value) in members.sorted(by: { $0.key < $1.key }) {
            guard let key = Key(rawValue: name) else { continue }
            switch value {
            case .string(let text): try container.encode(text, forKey: key)
            case .int(let number): try container.encode(number, forKey: key)
            case .bool(let flag): try container.encode(flag, forKey: key)
            case .array: try container.encode(children, forKey: key)
            case .null, .double, .object: break  // `json` writes none of these
            }
        }
    }

    /// Reads a node written by `encode(to:)`; the key present ("all", "course", …) decides the kind.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let connective = try container.decodeIfPresent(String.self, forKey: .connective)
        let source = try container.decodeIfPresent(String.self, forKey: .source)
        if let children = try container.decodeIfPresent([Requisite].self, forKey: .all) {
            self = .all(children, connective: connective)
        } else if let children = try container.decodeIfPresent([Requisite].self, forKey: .any) {
            self = .any(children, connective: connective)
        } else if let count = try container.decodeIfPresent(Int.self, forKey: .atLeast) {
            self = .atLeast(count, of: try container.decode([Requisite].self, forKey: .of), connective: connective)
        } else if let codeText = try container.decodeIfPresent(String.self, forKey: .course) {
            guard let code = CourseCode(parsing: codeText) else {
                throw DecodingError.dataCorruptedError(forKey: .course, in: container, debugDescription: "not a course code: \(codeText)")
            }
            self = .course(CourseRequirement(
                code: code,
                minGrade: try container.decodeIfPresent(String.self, forKey: .minGrade),
                concurrent: try container.decodeIfPresent(Bool.self, forKey: .concurrent) ?? false,
                source: source))
        } else if let value = try container.decodeIfPresent(String.self, forKey: .standing) {
            self = .standing(value, source: source)
        } else if let value = try container.decodeIfPresent(String.self, forKey: .program) {
            self = .program(value, source: source)
        } else if let value = try container.decodeIfPresent(String.self, forKey: .permission) {
            self = .permission(value, source: source)
        } else if let name = try container.decodeIfPresent(String.self, forKey: .exam) {
            self = .exam(name, score: try container.decodeIfPresent(String.self, forKey: .score), source: source)
        } else if let text = try container.decodeIfPresent(String.self, forKey: .text) {
            self = .text(text)
        } else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no requisite key"))
        }
    }
}

/// A course leaf: the code and how it must have been taken.
public struct CourseRequirement: Sendable, Hashable {
    public var code: CourseCode
    /// Lowest accepted grade as written ("C", "C-"), or nil when none is stated.
    public var minGrade: String?
    /// True when the course may (or must) be taken at the same time ("credit or registration in").
    public var concurrent: Bool
    /// The exact prose span, when it differs from the canonical code.
    public var source: String?

    public init(code: CourseCode, minGrade: String? = nil, concurrent: Bool = false, source: String? = nil) {
        self.code = code
        self.minGrade = minGrade
        self.concurrent = concurrent
        self.source = source
    }
}
