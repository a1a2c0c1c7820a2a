import Foundation
@testable import CatalogKit
import Testing

/// How closely the tree's courses match the codes the UH catalog editors linked.
///
/// The editors' links are not a function of the text: identical sentences carry different link
/// sets (e.g. "ECON 2301 or consent of instructor." with and without its link), and whole
/// departments never link ("ENGL 1302." appears 418 times, never linked). So exact agreement is
/// bounded far below 100 % for any parser that reports the courses the prose names; the floors
/// below are set just under what this parser reaches, and recall of linked codes is the strict check.
struct AccuracyTests {
    struct Result {
        var entry: TestData.UHEntry
        var courses: Set<String>
    }

    @Test func houstonPrerequisiteLinks() throws {
        let entries = try TestData.uhEntries().filter { $0.kind == "prerequisite" }
        #expect(entries.count == 7_342)
        let results = entries.map { Result(entry: $0, courses: Set(RequisiteParser.parse($0.text)?.courses ?? [])) }

        let exact = results.filter { $0.courses == Set($0.entry.linkedCodes) }.count
        let recalled = results.filter { Set($0.entry.linkedCodes).isSubset(of: $0.courses) }.count
        let linked = results.filter { !$0.entry.linkedCodes.isEmpty }
        let exactWhereLinked = linked.filter { $0.courses == Set($0.entry.linkedCodes) }.count
        let accuracy = Double(exact) / Double(results.count)

        // Group the misses by why they differ.
        var groups: [String: [Result]] = [:]
        for result in results where result.courses != Set(result.entry.linkedCodes) {
            let links = Set(result.entry.linkedCodes)
            let group: String
            if !links.isSubset(of: result.courses) {
                group = "linked code the tree does not require (recommended/also note)"
            } else if links.isEmpty {
                group = "editors linked none of the written codes"
            } else {
                let written = RequisiteParser.canonicalText(result.entry.text)
                let extras = result.courses.subtracting(links)
                group = extras.contains { !written.contains($0) }
                    ? "number with an implied subject (\"ARCH 2350 and 2351\"): editors link written codes only"
                    : "written-out code the editors did not link (absent from catalog or left unlinked)"
            }
            groups[group, default: []].append(result)
        }
        let inconsistent = Dictionary(grouping: entries, by: \.text).values
            .filter { Set($0.map { Set($0.linkedCodes) }).count > 1 }.reduce(0) { $0 + $1.count }

        var report = """
            UH prerequisites: \(results.count)
            exact Set(courses) == Set(linkedCodes): \(exact) (\(percent(accuracy)))
            linkedCodes ⊆ courses (recall): \(recalled) (\(percent(Double(recalled) / Double(results.count))))
            exact where the editors linked ≥ 1 code: \(exactWhereLinked) of \(linked.count) (\(percent(Double(exactWhereLinked) / Double(linked.count))))
            entries whose identical text has other link sets elsewhere: \(inconsistent)
            misses by kind:

            """
        for (group, members) in groups.sorted(by: { $0.value.count > $1.value.count }) {
            report += "  \(members.count)  \(group)\n"
            var seen = Set<String>()
            for member in members where seen.insert(member.entry.text).inserted && seen.count <= 3 {
                report += "      \(member.entry.text.prefix(110))  tree \(member.courses.sorted()) linked \(member.entry.linkedCodes)\n"
            }
        }
        print(report)

        #expect(accuracy >= 0.51, "exact agreement fell to \(percent(accuracy))")
        #expect(Double(recalled) / Double(results.count) >= 0.998)
        #expect(Double(exactWhereLinked) / Double(linked.count) >= 0.93)
    }

    private func percent(_ value: Double) -> String {
        String(format: "%.1f %%", value * 100)
    }
}
