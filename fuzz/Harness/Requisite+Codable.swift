import CatalogKit
import Foundation

/// `Codable` for requisite trees, which only the harness and the tests read back: the product writes `json`.
extension Requisite: Codable {
    private enum Key: String, CodingKey {
        case all, any, atLeast, of, connective
        case course, minGrade, concurrent
        case standing, program, permission, exam, score, text, source
    }

    /// Writes the members of `json`, so that the shapes are written down once.
    public func encode(to encoder: any Encoder) throws {
        guard case .object(let members) = json else { return }
        var container = encoder.container(keyedBy: Key.self)
        for (name, value) in members.sorted(by: { $0.key < $1.key }) {
            guard let key = Key(rawValue: name) else { continue }
            switch value {
            case .string(let text): try container.encode(text, forKey: key)
            case .int(let number): try container.encode(number, forKey: key)
            case .bool(let flag): try container.encode(flag, forKey: key)
            case .array: try container.encode(children, forKey: key)
            case .null, .double, .object: break  // `json` writes none of these
            }
        }
    }

    /// Reads a node written by `encode(to:)`; the key present ("all", "course", …) decides the kind.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let connective = try container.decodeIfPresent(String.self, forKey: .connective)
        let source = try container.decodeIfPresent(String.self, forKey: .source)
        if let children = try container.decodeIfPresent([Requisite].self, forKey: .all) {
            self = .all(children, connective: connective)
        } else if let children = try container.decodeIfPresent([Requisite].self, forKey: .any) {
            self = .any(children, connective: connective)
        } else if let count = try container.decodeIfPresent(Int.self, forKey: .atLeast) {
            self = .atLeast(count, of: try container.decode([Requisite].self, forKey: .of), connective: connective)
        } else if let codeText = try container.decodeIfPresent(String.self, forKey: .course) {
            guard let code = CourseCode(parsing: codeText) else {
                throw DecodingError.dataCorruptedError(forKey: .course, in: container, debugDescription: "not a course code: \(codeText)")
            }
            self = .course(CourseRequirement(
                code: code,
                minGrade: try container.decodeIfPresent(String.self, forKey: .minGrade),
                concurrent: try container.decodeIfPresent(Bool.self, forKey: .concurrent) ?? false,
                source: source))
        } else if let value = try container.decodeIfPresent(String.self, forKey: .standing) {
            self = .standing(value, source: source)
        } else if let value = try container.decodeIfPresent(String.self, forKey: .program) {
            self = .program(value, source: source)
        } else if let value = try container.decodeIfPresent(String.self, forKey: .permission) {
            self = .permission(value, source: source)
        } else if let name = try container.decodeIfPresent(String.self, forKey: .exam) {
            self = .exam(name, score: try container.decodeIfPresent(String.self, forKey: .score), source: source)
        } else if let text = try container.decodeIfPresent(String.self, forKey: .text) {
            self = .text(text)
        } else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no requisite key"))
        }
    }
}
