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

    /// The record's members in the order the writer puts keys in (sorted).
    var members: [(key: String, value: JSONValue)] {
        var collector = JSONMemberCollector()
        visitMembers(&collector)
        return collector.members
    }

    /// Writes `json` (the same bytes as `json.write`) straight into `out`: no `JSONValue` per member, no
    /// dictionary of members; `parse --json` writes thousands of records.
    public func writeJSON(into out: inout [UInt8], indentingLevels levels: Int, depth: Int) {
        // The buffer is lent to the writer and taken back (swaps, no copies).
        var writer = JSONObjectWriter(indentingLevels: levels, depth: depth)
        swap(&writer.out, &out)
        visitMembers(&writer)
        writer.finish()
        swap(&writer.out, &out)
    }

    /// The record's one list of members, sorted by key, handed to `visitor` one by one: `members` collects
    /// them as values, `writeJSON` writes them as they come.
    func visitMembers<Visitor: JSONMemberVisitor>(_ visitor: inout Visitor) {
        visitor.string("catalog", catalogName)
        visitor.string("contactHours", contactHours)
        visitor.value("corequisite") { .from(corequisite, \.json) }
        visitor.strings("corequisiteCourses", corequisiteCourses)
        visitor.string("corequisiteMarkdown", corequisiteMarkdown)
        visitor.string("corequisiteString", corequisiteString)
        visitor.value("creditRange") { .from(credits) { .object(["min": .double($0.min), "max": .double($0.max)]) } }
        visitor.int("credits", appCredits)
        visitor.string("creditsText", creditsText)
        visitor.string("description", description)
        var fieldTable: [String: String] = [:]
        for field in fields { fieldTable[field.label] = fieldTable[field.label].map { "\($0)\n\(field.value)" } ?? field.value }
        visitor.stringTable("fields", fieldTable)
        visitor.string("id", id)
        visitor.string("level", level?.displayName)
        visitor.string("levelSource", levelSource)
        visitor.strings("missingReferences", missingReferences)
        visitor.string("name", code.description)
        visitor.strings("notes", notes)
        visitor.int("number", code.numericValue)
        visitor.string("numberText", code.number)
        visitor.string("offered", offered)
        visitor.string("pageUrl", pageURL)
        visitor.value("prerequisite") { .from(prerequisite, \.json) }
        visitor.strings("prerequisiteCourses", prerequisiteCourses)
        visitor.strings("prerequisiteFor", prerequisiteFor)
        visitor.string("prerequisiteMarkdown", prerequisiteMarkdown)
        visitor.string("prerequisiteString", prerequisiteString)
        visitor.string("rubricsUrl", nil)
        visitor.stringTable("sources", provenance)
        visitor.string("subject", code.subject)
        visitor.string("suffix", code.suffix)
        visitor.string("system", system.rawValue)
        visitor.string("title", title)
        visitor.string("transitionPlanUrl", nil)
        visitor.string("url", sourceURL)
        visitor.strings("warnings", warnings)
    }
}
