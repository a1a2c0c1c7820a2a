extension Course {
    /// The course as a record: the app's fields and the richer ones beside them, every key present (`null` if unknown).
    public var record: [String: JSONValue] { Dictionary(uniqueKeysWithValues: members) }

    /// Writes `record` as an object into `out`, from `members` as listed: no dictionary to sort per record.
    public func writeJSON(into out: inout [UInt8], indentingLevels levels: Int, depth: Int) {
        JSONValue.writeObject(sortedMembers: members, into: &out, indentingLevels: levels, depth: depth)
    }

    /// The record's one list of members, sorted by key.
    var members: [(key: String, value: JSONValue)] {
        RecordKey.sorted.compactMap { key in value(key).map { (key.rawValue, $0) } }
    }

    /// The record's value under `key`; nil for the stamps, which are a snapshot's to add.
    func value(_ key: RecordKey) -> JSONValue? {
        func string(_ value: String?) -> JSONValue { .from(value, JSONValue.string) }
        func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }
        switch key {
        case .catalog: return string(catalogName)
        case .contactHours: return string(contactHours)
        case .corequisite: return .from(corequisite, \.json)
        case .corequisiteCourses: return strings(corequisiteCourses)
        case .corequisiteMarkdown: return string(corequisiteMarkdown)
        case .corequisiteString: return string(corequisiteString)
        case .creditRange: return .from(credits) { .object(["min": .double($0.min), "max": .double($0.max)]) }
        case .credits: return .int(appCredits)
        case .creditsText: return string(creditsText)
        case .description: return string(description)
        case .fields:
            let table = Dictionary(fields.map { ($0.label, $0.value) }, uniquingKeysWith: { "\($0)\n\($1)" })
            return .object(table.mapValues(JSONValue.string))
        case .id: return string(id)
        case .level: return string(level?.displayName)
        case .levelSource: return string(levelSource)
        case .missingReferences: return strings(missingReferences)
        case .name: return string(code.description)
        case .notes: return strings(notes)
        case .number: return .int(code.numericValue)
        case .numberText: return string(code.number)
        case .offered: return string(offered)
        case .prerequisite: return .from(prerequisite, \.json)
        case .prerequisiteCourses: return strings(prerequisiteCourses)
        case .prerequisiteFor: return strings(prerequisiteFor)
        case .prerequisiteMarkdown: return string(prerequisiteMarkdown)
        case .prerequisiteString: return string(prerequisiteString)
        case .rubricsUrl, .transitionPlanUrl: return .null
        case .sourceUrl: return string(sourceURL)
        case .sources: return .object(provenance.mapValues(JSONValue.string))
        case .subject: return string(code.subject)
        case .suffix: return string(code.suffix)
        case .system: return .string(system.rawValue)
        case .title: return string(title)
        case .url: return string(pageURL ?? sourceURL)
        case .warnings: return strings(warnings)
        case .createdAt, .updatedAt, .fingerprint: return nil
        }
    }
}
