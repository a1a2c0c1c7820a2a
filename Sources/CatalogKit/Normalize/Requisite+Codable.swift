import Foundation

/// A requisite tree in the JSON shapes `Requisite` documents (schemas/catalog.schema.json's `requisite`): the key
/// present ("all", "course", …) says the kind; optional keys are left out when nil or false.
extension Requisite: Codable {
    private enum Key: String, CodingKey {
        case all, any, atLeast, of, connective
        case course, minGrade, concurrent
        case standing, program, permission, exam, score, text, source
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case let .all(children, connective), let .any(children, connective):
            try container.encode(children, forKey: { if case .all = self { Key.all } else { Key.any } }())
            try container.encodeIfPresent(connective, forKey: .connective)
        case let .atLeast(count, children, connective):
            try container.encode(count, forKey: .atLeast)
            try container.encode(children, forKey: .of)
            try container.encodeIfPresent(connective, forKey: .connective)
        case let .course(course):
            if course.concurrent { try container.encode(true, forKey: .concurrent) }
            try container.encode(course.code.description, forKey: .course)
            try container.encodeIfPresent(course.minGrade, forKey: .minGrade)
            try container.encodeIfPresent(course.source, forKey: .source)
        case let .standing(value, source), let .program(value, source), let .permission(value, source):
            let key: Key = if case .standing = self { .standing } else if case .program = self { .program } else { .permission }
            try container.encode(value, forKey: key)
            try container.encodeIfPresent(source, forKey: .source)
        case let .exam(name, score, source):
            try container.encode(name, forKey: .exam)
            try container.encodeIfPresent(score, forKey: .score)
            try container.encodeIfPresent(source, forKey: .source)
        case let .text(value):
            try container.encode(value, forKey: .text)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        // A node has one kind key and few others: asking which are there is cheaper than trying each as optional.
        func text(_ key: Key) throws -> String? { container.contains(key) ? try container.decode(String.self, forKey: key) : nil }
        func children(_ key: Key) throws -> [Requisite] { try container.decode([Requisite].self, forKey: key) }
        let source = try text(.source)
        if container.contains(.all) {
            self = .all(try children(.all), connective: try text(.connective))
        } else if container.contains(.any) {
            self = .any(try children(.any), connective: try text(.connective))
        } else if container.contains(.atLeast) {
            self = .atLeast(try container.decode(Int.self, forKey: .atLeast), of: try children(.of), connective: try text(.connective))
        } else if let codeText = try text(.course) {
            guard let code = CourseCode(parsing: codeText) else {
                throw DecodingError.dataCorruptedError(forKey: .course, in: container, debugDescription: "not a course code: \"\(codeText)\"")
            }
            let concurrent = container.contains(.concurrent) ? try container.decode(Bool.self, forKey: .concurrent) : false
            self = .course(CourseRequirement(code: code, minGrade: try text(.minGrade), concurrent: concurrent, source: source))
        } else if let value = try text(.standing) {
            self = .standing(value, source: source)
        } else if let value = try text(.program) {
            self = .program(value, source: source)
        } else if let value = try text(.permission) {
            self = .permission(value, source: source)
        } else if let name = try text(.exam) {
            self = .exam(name, score: try text(.score), source: source)
        } else if let value = try text(.text) {
            self = .text(value)
        } else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "expected a requisite (all, any, atLeast, course, standing, program, permission, exam or text)"))
        }
    }
}
