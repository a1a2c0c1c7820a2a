extension Requisite {
    /// The tree in the JSON shapes of `Codable`, for the project's own writer (sorted keys, fast); absent members
    /// are left out, as `Codable` leaves out nil.
    public var json: JSONValue {
        var members: [String: JSONValue] = [:]
        switch self {
        case let .all(children, connective):
            members["all"] = .array(children.map(\.json))
            members["connective"] = connective.map(JSONValue.string)
        case let .any(children, connective):
            members["any"] = .array(children.map(\.json))
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
        case let .standing(value, source):
            members["source"] = source.map(JSONValue.string)
            members["standing"] = .string(value)
        case let .program(value, source):
            members["program"] = .string(value)
            members["source"] = source.map(JSONValue.string)
        case let .permission(value, source):
            members["permission"] = .string(value)
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

    /// The same tree with every course code passed through `transform` (subject aliases).
    public func mappingCodes(_ transform: (CourseCode) -> CourseCode) -> Requisite {
        switch self {
        case let .all(children, connective): return .all(children.map { $0.mappingCodes(transform) }, connective: connective)
        case let .any(children, connective): return .any(children.map { $0.mappingCodes(transform) }, connective: connective)
        case let .atLeast(count, children, connective):
            return .atLeast(count, of: children.map { $0.mappingCodes(transform) }, connective: connective)
        case var .course(course):
            course.code = transform(course.code)
            return .course(course)
        case .standing, .program, .permission, .exam, .text:
            return self
        }
    }
}

extension Course {
    /// The course as a record: the app's fields (`id`, `number`, `subject`, `name`, `title`, `description`,
    /// `credits`, `rubricsUrl`, `level`, `transitionPlanUrl`, `prerequisite`, `prerequisiteString`) and the
    /// richer ones beside them. Every key is present; `null` where nothing is known.
    public var json: JSONValue { .object(record) }

    /// The same record as the members of its object.
    public var record: [String: JSONValue] { Dictionary(uniqueKeysWithValues: members) }

    /// Writes `json` (the same bytes) into `out`, from `members` as listed: no dictionary to sort per record.
    public func writeJSON(into out: inout [UInt8], indentingLevels levels: Int, depth: Int) {
        JSONValue.writeObject(sortedMembers: members, into: &out, indentingLevels: levels, depth: depth)
    }

    /// The record's one list of members, sorted by key.
    var members: [(key: String, value: JSONValue)] {
        func string(_ value: String?) -> JSONValue { .from(value, JSONValue.string) }
        func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }
        var fieldTable: [String: String] = [:]
        for field in fields { fieldTable[field.label] = fieldTable[field.label].map { "\($0)\n\(field.value)" } ?? field.value }
        return [
            ("catalog", string(catalogName)),
            ("contactHours", string(contactHours)),
            ("corequisite", .from(corequisite, \.json)),
            ("corequisiteCourses", strings(corequisiteCourses)),
            ("corequisiteMarkdown", string(corequisiteMarkdown)),
            ("corequisiteString", string(corequisiteString)),
            ("creditRange", .from(credits) { .object(["min": .double($0.min), "max": .double($0.max)]) }),
            ("credits", .int(appCredits)),
            ("creditsText", string(creditsText)),
            ("description", string(description)),
            ("fields", .object(fieldTable.mapValues(JSONValue.string))),
            ("id", string(id)),
            ("level", string(level?.displayName)),
            ("levelSource", string(levelSource)),
            ("missingReferences", strings(missingReferences)),
            ("name", string(code.description)),
            ("notes", strings(notes)),
            ("number", .int(code.numericValue)),
            ("numberText", string(code.number)),
            ("offered", string(offered)),
            ("pageUrl", string(pageURL)),
            ("prerequisite", .from(prerequisite, \.json)),
            ("prerequisiteCourses", strings(prerequisiteCourses)),
            ("prerequisiteFor", strings(prerequisiteFor)),
            ("prerequisiteMarkdown", string(prerequisiteMarkdown)),
            ("prerequisiteString", string(prerequisiteString)),
            ("rubricsUrl", .null),
            ("sources", .object(provenance.mapValues(JSONValue.string))),
            ("subject", string(code.subject)),
            ("suffix", string(code.suffix)),
            ("system", .string(system.rawValue)),
            ("title", string(title)),
            ("transitionPlanUrl", .null),
            ("url", string(sourceURL)),
            ("warnings", strings(warnings)),
        ]
    }
}
