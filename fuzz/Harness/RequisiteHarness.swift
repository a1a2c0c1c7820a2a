import CatalogKit
import Foundation

/// Prerequisite prose, driven by fuzzer bytes: the parser, its lossless promise, canonical text, the
/// project's JSON writer against `Codable`, and the normalizer's use of all of them.
///
/// Bytes that are not UTF-8 are repaired (U+FFFD) first, as every page's text is by the time it
/// gets here. Returns the broken invariants, empty when the text was handled sanely.
public enum RequisiteHarness {
    /// Subject aliases, so the normalizer's code renaming runs too.
    static let rules = NormalizationRules(subjects: SubjectAliases(["CS": "CIS", "MATH": "MTH", "Computer Science": "CIS"]))

    /// Runs one input; the broken invariants, one line each.
    public static func check(_ data: UnsafeRawBufferPointer) -> [String] {
        let text = String(decoding: data, as: UTF8.self)
        var problems: [String] = []
        let shown = "\"\(text.prefix(200))\""

        let tree = RequisiteParser.parse(text)
        if let tree {
            let missing = tree.missingWords(of: text)
            if !missing.isEmpty { problems.append("tree lost \(missing.prefix(5)) of \(shown)") }
            do {
                let decoded = try JSONDecoder().decode(Requisite.self, from: JSONFile.encoded(tree, pretty: false))
                if decoded != tree { problems.append("tree JSON decodes to another tree for \(shown)") }
            } catch {
                problems.append("tree JSON does not decode: \(error) for \(shown)")
            }
            _ = tree.indentedDescription()
            _ = tree.courses
        } else {
            // Only text without words, or saying "None", may have no tree.
            let words = Requisite.words(of: text)
            if words.contains(where: { $0 != "none" }) { problems.append("no tree for words \(words.prefix(5)) of \(shown)") }
        }
        _ = RequisiteParser.canonicalText(text)

        var parsed = ParsedCourse(code: CourseCode(subject: "CIS", number: "162"), title: "Fuzz", sourceURL: "file:///fuzz", system: .gvsu)
        parsed.prerequisiteText = text
        parsed.corequisiteText = text
        let course = Normalizer(rules: rules).normalize(parsed)
        let record = CourseRecord(course, diagnostics: true)
        switch Result(catching: { () throws(FormatError) in try JSONFile.decode(CourseRecord.self, from: JSONFile.encoded(record)) }) {
        case let .success(read): if read != record { problems.append("course record reads back differently for \(shown)") }
        case let .failure(error): problems.append("course record does not read back (\(error)) for \(shown)")
        }
        return problems
    }

    public static func check(_ bytes: [UInt8]) -> [String] {
        bytes.withUnsafeBytes { check($0) }
    }
}
