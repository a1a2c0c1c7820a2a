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
            ("prerequisite", .from(prerequisite, \.json)),
            ("prerequisiteCourses", strings(prerequisiteCourses)),
            ("prerequisiteFor", strings(prerequisiteFor)),
            ("prerequisiteMarkdown", string(prerequisiteMarkdown)),
            ("prerequisiteString", string(prerequisiteString)),
            ("rubricsUrl", .null),
            ("sourceUrl", string(sourceURL)),
            ("sources", .object(provenance.mapValues(JSONValue.string))),
            ("subject", string(code.subject)),
            ("suffix", string(code.suffix)),
            ("system", .string(system.rawValue)),
            ("title", string(title)),
            ("transitionPlanUrl", .null),
            ("url", string(pageURL ?? sourceURL)),
            ("warnings", strings(warnings)),
        ]
    }
}
