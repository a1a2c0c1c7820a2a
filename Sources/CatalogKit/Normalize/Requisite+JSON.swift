extension Requisite: JSONRecord {
    /// The tree in the JSON shapes of `Codable`, for the project's own writer (sorted keys, fast).
    public var json: JSONValue { jsonObject }

    /// The node's members, sorted by key (`atLeast` < `connective` < `of`; `concurrent` < `course`; …); absent
    /// ones are left out, as `Codable` leaves out nil.
    func visitMembers<Visitor: JSONMemberVisitor>(_ visitor: inout Visitor) {
        switch self {
        case let .all(children, connective):
            visitor.objects("all", children)
            visitor.string("connective", ifPresent: connective)
        case let .any(children, connective):
            visitor.objects("any", children)
            visitor.string("connective", ifPresent: connective)
        case let .atLeast(count, children, connective):
            visitor.int("atLeast", count)
            visitor.string("connective", ifPresent: connective)
            visitor.objects("of", children)
        case let .course(course):
            if course.concurrent { visitor.bool("concurrent", true) }
            visitor.string("course", course.code.description)
            visitor.string("minGrade", ifPresent: course.minGrade)
            visitor.string("source", ifPresent: course.source)
        case let .standing(value, source):
            visitor.string("source", ifPresent: source)
            visitor.string("standing", value)
        case let .program(value, source):
            visitor.string("program", value)
            visitor.string("source", ifPresent: source)
        case let .permission(value, source):
            visitor.string("permission", value)
            visitor.string("source", ifPresent: source)
        case let .exam(name, score, source):
            visitor.string("exam", name)
            visitor.string("score", ifPresent: score)
            visitor.string("source", ifPresent: source)
        case let .text(value):
            visitor.string("text", value)
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

extension Course: JSONRecord {
    /// The course as a record: the app's fields (`id`, `number`, `subject`, `name`, `title`, `description`,
    /// `credits`, `rubricsUrl`, `level`, `transitionPlanUrl`, `prerequisite`, `prerequisiteString`) and the
    /// richer ones beside them. Every key is present; `null` where nothing is known.
    public var json: JSONValue { jsonObject }

    /// The same record as the members of its object.
    public var record: [String: JSONValue] { Dictionary(uniqueKeysWithValues: members) }

    /// Writes `json` (the same bytes as `json.write`) straight into `out`.
    public func writeJSON(into out: inout [UInt8], indentingLevels levels: Int, depth: Int) {
        writeObject(into: &out, indentingLevels: levels, depth: depth)
    }

    /// The record's one list of members, sorted by key, handed to `visitor` one by one: `members` collects
    /// them as values, `writeJSON` writes them as they come.
    func visitMembers<Visitor: JSONMemberVisitor>(_ visitor: inout Visitor) {
        visitor.string("catalog", catalogName)
        visitor.string("contactHours", contactHours)
        visitor.object("corequisite", corequisite)
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
        visitor.object("prerequisite", prerequisite)
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
