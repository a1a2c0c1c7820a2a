extension Requisite {
    /// The tree in the JSON shapes of `Codable`, for the project's own writer (sorted keys, fast).
    public var json: JSONValue {
        func node(_ pairs: [(String, JSONValue?)]) -> JSONValue {
            var object: [String: JSONValue] = [:]
            for (key, value) in pairs { if let value { object[key] = value } }
            return .object(object)
        }
        func text(_ value: String?) -> JSONValue? { value.map(JSONValue.string) }
        switch self {
        case let .all(children, connective):
            return node([("all", .array(children.map(\.json))), ("connective", text(connective))])
        case let .any(children, connective):
            return node([("any", .array(children.map(\.json))), ("connective", text(connective))])
        case let .atLeast(count, children, connective):
            return node([("atLeast", .int(count)), ("of", .array(children.map(\.json))), ("connective", text(connective))])
        case let .course(course):
            return node([("course", .string(course.code.description)), ("minGrade", text(course.minGrade)),
                         ("concurrent", course.concurrent ? .bool(true) : nil), ("source", text(course.source))])
        case let .standing(value, source):
            return node([("standing", .string(value)), ("source", text(source))])
        case let .program(value, source):
            return node([("program", .string(value)), ("source", text(source))])
        case let .permission(value, source):
            return node([("permission", .string(value)), ("source", text(source))])
        case let .exam(name, score, source):
            return node([("exam", .string(name)), ("score", text(score)), ("source", text(source))])
        case let .text(value):
            return .object(["text": .string(value)])
        }
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

    /// The record's members in the order the writer puts keys in (sorted), so a record is written straight
    /// from this list (`writeJSON`) without building a dictionary and sorting it again, once per course.
    var members: [(key: String, value: JSONValue)] {
        func string(_ value: String?) -> JSONValue { .from(value, JSONValue.string) }
        func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }
        var fieldTable: [String: String] = [:]
        for field in fields { fieldTable[field.label] = fieldTable[field.label].map { "\($0)\n\(field.value)" } ?? field.value }
        return [
            ("catalog", string(catalogName)), ("contactHours", string(contactHours)),
            ("corequisite", .from(corequisite, \.json)), ("corequisiteCourses", strings(corequisiteCourses)),
            ("corequisiteMarkdown", string(corequisiteMarkdown)), ("corequisiteString", string(corequisiteString)),
            ("creditRange", .from(credits) { .object(["min": .double($0.min), "max": .double($0.max)]) }),
            ("credits", .int(appCredits)), ("creditsText", string(creditsText)), ("description", .string(description)),
            ("fields", .object(fieldTable.mapValues(JSONValue.string))), ("id", .string(id)),
            ("level", string(level?.displayName)), ("levelSource", string(levelSource)),
            ("missingReferences", strings(missingReferences)), ("name", .string(code.description)), ("notes", strings(notes)),
            ("number", .int(code.numericValue)), ("numberText", .string(code.number)), ("offered", string(offered)),
            ("pageUrl", string(pageURL)), ("prerequisite", .from(prerequisite, \.json)),
            ("prerequisiteCourses", strings(prerequisiteCourses)), ("prerequisiteFor", strings(prerequisiteFor)),
            ("prerequisiteMarkdown", string(prerequisiteMarkdown)), ("prerequisiteString", string(prerequisiteString)),
            ("rubricsUrl", .null), ("sources", .object(provenance.mapValues(JSONValue.string))),
            ("subject", .string(code.subject)), ("suffix", string(code.suffix)), ("system", .string(system.rawValue)),
            ("title", .string(title)), ("transitionPlanUrl", .null), ("url", .string(sourceURL)), ("warnings", strings(warnings)),
        ]
    }

    /// Writes `json` (the same bytes as `json.write`), from `members` in their order.
    public func writeJSON(into out: inout [UInt8], indentingLevels levels: Int, depth: Int) {
        JSONValue.writeObject(members, into: &out, indentingLevels: levels, depth: depth)
    }
}
