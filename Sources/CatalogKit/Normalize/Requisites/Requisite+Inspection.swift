extension Requisite {
    /// Sorted distinct codes of the course leaves; those in text leaves or a leaf's `source` ("formerly …") are not.
    public var courses: [String] {
        var codes = Set<CourseCode>()
        collectCourses(into: &codes)
        return codes.sorted().map(\.description)
    }

    private func collectCourses(into codes: inout Set<CourseCode>) {
        if case .course(let course) = self { codes.insert(course.code) }
        for child in children { child.collectCourses(into: &codes) }
    }

    /// The nodes an operator joins; none for a leaf.
    public var children: [Requisite] {
        switch self {
        case .all(let children, _), .any(let children, _), .atLeast(_, let children, _): children
        case .course, .standing, .program, .permission, .exam, .text: []
        }
    }

    /// Human-readable indented tree, one node per line (for `gvingest prereq TEXT`).
    public func indentedDescription() -> String {
        var lines: [String] = []
        appendLines(to: &lines, depth: 0)
        return lines.joined(separator: "\n")
    }

    private func appendLines(to lines: inout [String], depth: Int) {
        let indent = String(repeating: "  ", count: depth)
        func quoted(_ source: String?) -> String { source.map { "  \"\($0)\"" } ?? "" }
        switch self {
        case .all(_, let connective), .any(_, let connective), .atLeast(_, _, let connective):
            let name = switch self {
            case .atLeast(let count, _, _): "at least \(count) of"
            case .any: "any of"
            default: "all of"
            }
            lines.append(indent + name + (connective.map { "  (\($0))" } ?? ""))
        case .course(let course):
            let qualifiers = [course.minGrade.map { "min grade \($0)" }, course.concurrent ? "concurrent ok" : nil]
                .compactMap(\.self)
            let details = qualifiers.isEmpty ? "" : " [" + qualifiers.joined(separator: ", ") + "]"
            lines.append(indent + "course " + course.code.description + details + quoted(course.source))
        case .standing(let value, let source), .program(let value, let source), .permission(let value, let source):
            let name = if case .standing = self { "standing " }
                else if case .program = self { "program " } else { "permission of " }
            lines.append(indent + name + value + quoted(source))
        case .exam(let name, let score, let source):
            lines.append(indent + "exam " + name + (score.map { " score " + $0 } ?? "") + quoted(source))
        case .text(let text):
            lines.append(indent + "text \"" + text + "\"")
        }
        for child in children { child.appendLines(to: &lines, depth: depth + 1) }
    }
}
