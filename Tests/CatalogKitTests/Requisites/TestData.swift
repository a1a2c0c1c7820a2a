import Foundation
import PublishedPages
@testable import CatalogKit

/// The real-world requisite sentences: `prereqs/prereqs.tsv` of Fixtures/realworld.tar.xz, and every prerequisite and
/// corequisite of the UH pages with the course links the catalog's editors placed in it.
enum TestData {
    static var prereqsTSV: URL { PublishedPages.prereqsTSV }

    /// One UH requisite: the course it belongs to, "prerequisite"/"corequisite", the prose, and
    /// the codes the catalog editors linked in it.
    struct UHEntry: Sendable {
        var url: String
        var course: String
        var kind: String
        var text: String
        var linkedCodes: [String]
    }

    /// The `prerequisite_text` column of prereqs.tsv.
    static func prereqSentences() throws -> [String] {
        let content = try String(contentsOf: prereqsTSV, encoding: .utf8)
        return content.split(separator: "\n").dropFirst().compactMap { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            return columns.count >= 3 ? String(columns[2]) : nil
        }
    }

    /// Parses the UH pages of catalogs 41 and 44 once (the parse stage is tested elsewhere) and keeps
    /// every labelled prerequisite and corequisite with its linked codes.
    static func uhEntries() throws -> [UHEntry] {
        try cachedEntries.get()
    }

    private static let cachedEntries: Result<[UHEntry], any Error> = Result {
        var entries: [UHEntry] = []
        for catalog in ["41", "44"] {
            let folder = TestPaths.realworld.appendingPathComponent("acalog-uh/\(catalog)")
            for file in TestPaths.files(in: folder, suffix: ".html") {
                let result = PageParser(system: .fixed(.acalog)).parse(bytes: Array(try Data(contentsOf: file)), sourceURL: file,
                                                                       input: file.lastPathComponent)
                for course in result.courses {
                    for (kind, text, links) in [("prerequisite", course.prerequisiteText, course.prerequisiteLinks),
                                                ("corequisite", course.corequisiteText, course.corequisiteLinks)] {
                        guard let text else { continue }
                        entries.append(UHEntry(url: file.lastPathComponent, course: course.code.description, kind: kind, text: text,
                                               linkedCodes: Array(Set(links.compactMap(\.code))).sorted()))
                    }
                }
            }
        }
        return entries
    }
}

// MARK: Tree shorthand for expectations

func courseLeaf(_ code: String, grade: String? = nil, concurrent: Bool = false) -> Requisite {
    guard let parsed = CourseCode(parsing: code) else { return .text("bad code in test: \(code)") }
    return .course(CourseRequirement(code: parsed, minGrade: grade, concurrent: concurrent))
}

func allOf(_ children: Requisite...) -> Requisite { .all(children) }
func anyOf(_ children: Requisite...) -> Requisite { .any(children) }

extension Requisite {
    /// The same tree without `source` and `connective`: the logical structure alone.
    func withoutProvenance() -> Requisite {
        switch self {
        case .all(let children, _): return .all(children.map { $0.withoutProvenance() })
        case .any(let children, _): return .any(children.map { $0.withoutProvenance() })
        case .atLeast(let count, let children, _): return .atLeast(count, of: children.map { $0.withoutProvenance() })
        case .course(var course):
            course.source = nil
            return .course(course)
        case .standing(let value, _): return .standing(value)
        case .program(let value, _): return .program(value)
        case .permission(let value, _): return .permission(value)
        case .exam(let name, let score, _): return .exam(name, score: score)
        case .text: return self
        }
    }
}

/// The parsed tree without provenance (sources and connectives): the logic alone.
func parsedStructure(_ text: String) -> Requisite? {
    RequisiteParser.parse(text)?.withoutProvenance()
}

/// The tree as the product writes it (as in catalog.json and `gvingest prereq --json`), compact.
func jsonText(_ tree: Requisite?) -> String {
    tree.map { String(decoding: JSONFile.encoded($0, pretty: false), as: UTF8.self) } ?? "null"
}
