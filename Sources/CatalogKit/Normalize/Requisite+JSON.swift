extension Requisite {
    /// The tree in the JSON shapes `Requisite` documents, for the project's own writer; absent members are left out.
    public var json: JSONValue {
        var members: [String: JSONValue] = [:]
        switch self {
        case let .all(children, connective), let .any(children, connective):
            let key = if case .all = self { "all" } else { "any" }
            members[key] = .array(children.map(\.json))
            members["connective"] = connective.map(JSONValue.string)
        case let .atLeast(count, children, connective):
            members["atLeast"] = .int(count)
            members["connective"] = connective.map(JSONValue.string)
            members["of"] = .array(children.map(\.json))
        case let .course(course):
            if course.concurrent { members["concurrent"] = .bool(true) }
            members["course"] = .string(course.code.description)
            members["minGrade"] = course.minGrade.map(JSONValue.string)
            members["source"] = course.source.map(JSONValue.string)
        case let .standing(value, source), let .program(value, source), let .permission(value, source):
            let key = if case .standing = self { "standing" }
                else if case .program = self { "program" } else { "permission" }
            members[key] = .string(value)
            members["source"] = source.map(JSONValue.string)
        case let .exam(name, score, source):
            members["exam"] = .string(name)
            members["score"] = score.map(JSONValue.string)
            members["source"] = source.map(JSONValue.string)
        case let .text(value):
            members["text"] = .string(value)
        }
        return .object(members)
    }

}
