extension Requisite {
    /// Sorted distinct codes of the course leaves; those in text leaves or a leaf's `source` ("formerly …") are not.
    public var courses: [String] { Set(courseCodes).sorted().map(\.description) }

    private var courseCodes: [CourseCode] {
        if case .course(let course) = self { return [course.code] }
        return children.flatMap(\.courseCodes)
    }

    /// The nodes an operator joins; none for a leaf.
    public var children: [Requisite] {
        switch self {
        case .all(let children, _), .any(let children, _), .atLeast(_, let children, _): children
        case .course, .standing, .program, .permission, .exam, .text: []
        }
    }

    /// Human-readable indented tree, one node per line, two spaces a level from `depth` (for `gvingest prereq TEXT`).
    public func indentedDescription(depth: Int = 0) -> String {
        func quoted(_ source: String?) -> String { source.map { "  \"\($0)\"" } ?? "" }
        let line: String
        switch self {
        case .all(_, let connective), .any(_, let connective), .atLeast(_, _, let connective):
            let name = switch self {
            case .atLeast(let count, _, _): "at least \(count) of"
            case .any: "any of"
            default: "all of"
            }
            line = name + (connective.map { "  (\($0))" } ?? "")
        case .course(let course):
            let qualifiers = [course.minGrade.map { "min grade \($0)" }, course.concurrent ? "concurrent ok" : nil]
                .compactMap(\.self)
            let details = qualifiers.isEmpty ? "" : " [" + qualifiers.joined(separator: ", ") + "]"
            line = "course " + course.code.description + details + quoted(course.source)
        case .standing(let value, let source), .program(let value, let source), .permission(let value, let source):
            let name = if case .standing = self { "standing " }
                else if case .program = self { "program " } else { "permission of " }
            line = name + value + quoted(source)
        case .exam(let name, let score, let source):
            line = "exam " + name + (score.map { " score " + $0 } ?? "") + quoted(source)
        case .text(let text):
            line = "text \"" + text + "\""
        }
        let indent = String(repeating: "  ", count: depth)
        return ([indent + line] + children.map { $0.indentedDescription(depth: depth + 1) }).joined(separator: "\n")
    }
}
