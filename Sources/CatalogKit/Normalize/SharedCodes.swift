/// Courses that share one code: one course listed on two pages, or two courses a catalog gives one code (UH's
/// graduate catalog has both). Decided from the courses alone, so the order the pages came in does not matter.
enum SharedCodes {
    /// Which courses to keep, the id qualifiers of kept courses sharing a code, and each kept course's warnings.
    struct Resolution: Equatable {
        var kept: [Int] = []
        var qualifiers: [Int: String] = [:]
        var warnings: [Int: [String]] = [:]
    }

    /// Groups `courses` by id. In a group, copies with the same title and description (compared by
    /// `sameness`) are one course: the copy read from the first source URL stays. Distinct courses left in
    /// a group are all kept, each with a qualifier from its title (and, when titles agree, its description).
    static func resolve(_ courses: [Course]) -> Resolution {
        let ids = ParallelMap.map(Array(courses.indices)) { Course.id(code: courses[$0].code, qualifier: courses[$0].idQualifier) }
        let byID = Dictionary(grouping: courses.indices) { ids[$0] }
        var resolution = Resolution()
        resolution.kept.reserveCapacity(byID.count)
        for (_, members) in byID {
            guard members.count > 1 else {
                resolution.kept.append(members[0])
                continue
            }
            // Copies of one course: the first by source URL stands for the rest.
            let variants = Dictionary(grouping: members) { sameness(courses[$0]) }
            var representatives: [Int] = []
            for (_, copies) in variants {
                let ordered = copies.sorted { courses[$0].parsed.sourceURL < courses[$1].parsed.sourceURL }
                representatives.append(ordered[0])
                for copy in ordered.dropFirst() {
                    resolution.warnings[ordered[0], default: []].append(
                        "listed again at \(courses[copy].parsed.sourceURL) with the same title and description; the copies are one course")
                }
            }
            resolution.kept += representatives
            guard representatives.count > 1 else { continue }
            let titleCounts = Dictionary(representatives.map { (titleSlug(courses[$0].title), 1) }, uniquingKeysWith: +)
            for index in representatives {
                let slug = titleSlug(courses[index].title)
                resolution.qualifiers[index] = titleCounts[slug, default: 0] > 1 || slug.isEmpty
                    ? (slug.isEmpty ? "" : slug + "-") + String(FNV1a.hex(FNV1a.hash(sameness(courses[index]).utf8)).prefix(8))
                    : slug
            }
            let ordered = representatives.sorted { resolution.qualifiers[$0, default: ""] < resolution.qualifiers[$1, default: ""] }
            for index in ordered {
                let others = ordered.filter { $0 != index }.map { other in
                    "\"\(courses[other].title)\" at \(courses[other].parsed.sourceURL) (id \(courses[other].id)-\(resolution.qualifiers[other] ?? ""))"
                }
                resolution.warnings[index, default: []].append(
                    "\(courses[index].code) is also the code of a different course: \(others.joined(separator: "; ")); "
                        + "both are kept, this one as \(courses[index].id)-\(resolution.qualifiers[index] ?? "")")
            }
        }
        return resolution
    }

    /// What makes two copies one course: title and description, lower-cased, "&" as "and", only letters and digits.
    static func sameness(_ course: Course) -> String {
        comparable(course.title) + "\n" + comparable(course.description)
    }

    static func comparable(_ text: String) -> String {
        words(text.lowercased().replacingOccurrences(of: "&", with: " and ")).joined(separator: " ")
    }

    /// The qualifier a title gives an id: its first lower-case ASCII words by hyphens ("behavior-and-management").
    static func titleSlug(_ title: String) -> String {
        var slug = ""
        for word in words(comparable(title)).prefix(6) where slug.utf8.count + word.utf8.count < 48 {
            slug += (slug.isEmpty ? "" : "-") + word
        }
        return slug
    }

    /// Maximal runs of ASCII letters and digits (the text is lower-cased already).
    private static func words(_ text: String) -> [String] {
        text.split { !(("a"..."z").contains($0) || ("0"..."9").contains($0)) }.map(String.init)
    }
}
