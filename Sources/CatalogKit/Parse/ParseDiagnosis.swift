import Foundation
import SafeLibXML

/// Why a page gave no course or a course lacks a field, for a maintainer.
public enum ParseDiagnosis {
    /// A known course-less page type, or the rules that matched nothing and the nearest candidate.
    public static func noCourse(bytes: [UInt8], url: URL?, system: CatalogSystem?) -> String {
        guard let document = try? HTMLDocument(bytes: bytes, url: url) else { return "the page could not be read as HTML" }
        if let known = CatalogParsers.all.lazy.compactMap({ $0.courseLessPage(document) }).first { return known }
        var sentence = system.map { "matched nothing: " + CatalogParsers.parser(for: $0).lookedFor.joined(separator: "; ") }
            ?? "no parser recognized the page"
        if let candidate = nearestCandidate(in: document) { sentence += "; nearest candidate: \(candidate)" }
        return sentence
    }

    /// The element with the shortest text that starts with a course code: the heading, not the block around it.
    static func nearestCandidate(in document: HTMLDocument) -> String? {
        let names = ["h1", "h2", "h3", "h4", "h5", "h6", "strong", "b", "dt", "th", "td", "a", "p", "span", "div", "li"]
        var best: (name: String, path: String, text: String)?
        for element in document.elements(named: names, limit: 5_000) {
            let text = element.text
            guard text.count <= 160, text.count < best?.text.count ?? .max, CourseCode.leading(in: text) != nil else { continue }
            best = (element.name, element.path, text)
        }
        return best.map { "<\($0.name)> at \($0.path): \"\($0.text)\"" }
    }

    /// Words of the labels that may hold each field, as sites write them.
    static let labelWords: [String: [String]] = [
        "credits": ["credit", "hrs", "hours", "units"], "description": ["description", "desc", "about", "summary"],
        "title": ["title", "name"],
    ]

    /// An unmapped label that may hold `field`, which the course lacks, and how to map it.
    public static func unmappedLabel(for field: String, in course: ParsedCourse) -> String? {
        let words = labelWords[field] ?? [field]
        let mayHold = { (field: LabelledField) in words.contains(where: field.label.lowercased().containsBytes) }
        guard let found = course.fields.first(where: mayHold) else { return nil }
        let pattern = NSRegularExpression.escapedPattern(for: found.label)
        return "label \"\(found.label):\" looks like \(field): map it in rules.labels (e.g. \"\(pattern):?\": \"\(field)\")"
    }
}
