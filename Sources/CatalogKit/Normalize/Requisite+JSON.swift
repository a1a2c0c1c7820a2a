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
    public var record: [String: JSONValue] {
        func string(_ value: String?) -> JSONValue { .from(value, JSONValue.string) }
        func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }
        var fieldTable: [String: String] = [:]
        for field in fields { fieldTable[field.label] = fieldTable[field.label].map { "\($0)\n\(field.value)" } ?? field.value }
        return [
            "id": .string(id), "subject": .string(code.subject), "number": .int(code.numericValue), "numberText": .string(code.number),
            "suffix": string(code.suffix), "name": .string(code.description), "title": .string(title), "description": .string(description),
            "credits": .int(appCredits),
            "creditRange": .from(credits) { .object(["min": .double($0.min), "max": .double($0.max)]) },
            "creditsText": string(creditsText), "level": string(level?.displayName), "levelSource": string(levelSource),
            "rubricsUrl": .null, "transitionPlanUrl": .null,
            "prerequisite": .from(prerequisite, \.json), "prerequisiteString": string(prerequisiteString),
            "prerequisiteMarkdown": string(prerequisiteMarkdown), "prerequisiteCourses": strings(prerequisiteCourses),
            "corequisite": .from(corequisite, \.json), "corequisiteString": string(corequisiteString),
            "corequisiteMarkdown": string(corequisiteMarkdown), "corequisiteCourses": strings(corequisiteCourses),
            "prerequisiteFor": strings(prerequisiteFor), "missingReferences": strings(missingReferences),
            "offered": string(offered), "contactHours": string(contactHours), "catalog": string(catalogName),
            "fields": .object(fieldTable.mapValues(JSONValue.string)), "notes": strings(notes),
            "url": .string(sourceURL), "pageUrl": string(pageURL), "system": .string(system.rawValue),
            "sources": .object(provenance.mapValues(JSONValue.string)), "warnings": strings(warnings),
        ]
    }
}
