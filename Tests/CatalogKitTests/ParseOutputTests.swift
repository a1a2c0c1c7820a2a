@testable import CatalogKit
import Foundation
import FuzzHarness
import Testing

struct ParseOutputTests {
    /// `parse --json` is the records with their diagnostics, and reads back as them.
    @Test func theJSONOutputReadsBackAsTheRecords() async throws {
        let (inputs, errors) = PageInputs.expand([TestPaths.gvsuFixtures.appendingPathComponent("course").path])
        #expect(errors.isEmpty)
        let results = await ParseRunner.run(inputs, parser: PageParser(system: .fixed(.gvsu)))
        let courses = Normalizer().normalize(catalog: results.flatMap(\.courses))
        #expect(courses.count > 60)
        let read = try JSONFile.decode([CourseRecord].self, from: ParseOutput.jsonBytes(results))
        #expect(read == courses.map { CourseRecord($0, diagnostics: true) })
        #expect(read.allSatisfy { $0.sources?.isEmpty == false && $0.warnings != nil && $0.createdAt == nil })
        #expect(try JSONFile.decode([CourseRecord].self, from: ParseOutput.jsonBytes([])).isEmpty)
    }

    /// The whole JSON output, byte for byte, against Fixtures/parse-json (see its README for regenerating it).
    @Test(arguments: [("acalog", "acalog.json"), ("gvsu/course", "gvsu-course.json")])
    func theJSONOutputIsByteForByteTheRecordedOne(_ directory: String, _ expected: String) async throws {
        let (inputs, errors) = PageInputs.expand([TestPaths.fixtures.appendingPathComponent(directory).path])
        #expect(errors.isEmpty)
        let results = await ParseRunner.run(inputs, parser: PageParser(system: .auto))
        let written = String(decoding: ParseOutput.jsonBytes(results), as: UTF8.self) + "\n"
        let root = TestPaths.packageRoot.absoluteString
        let recorded = try String(contentsOf: TestPaths.fixtures.appendingPathComponent("parse-json/\(expected)"), encoding: .utf8)
        #expect(written.replacingOccurrences(of: root, with: "file:///ROOT/") == recorded)
    }

    /// Items reach the transform moved, not copied, and the values come back the same way: each box arrives and
    /// leaves with no other reference to it, few items or many.
    @Test func parallelMapMovesItemsAndValues() {
        final class Box: Sendable {}
        for count in [3, 1_000] {
            var results = ParallelMap.map((0..<count).map { _ in Box() }) { (box: consuming Box) -> (Bool, Box) in
                (isKnownUniquelyReferenced(&box), box)
            }
            #expect(results.allSatisfy { $0.0 })
            var valuesAlone = true
            for index in results.indices { valuesAlone = valuesAlone && isKnownUniquelyReferenced(&results[index].1) }
            #expect(valuesAlone)
        }
    }

    @Test func parallelMapKeepsTheOrder() {
        let items = Array(0..<1_000)
        #expect(ParallelMap.map(items) { $0 * 3 } == items.map { $0 * 3 })
        #expect(ParallelMap.map(Array(0..<5)) { $0 + 1 } == [1, 2, 3, 4, 5])
        // Spread out however few the items, and however narrow: the same values in the same order.
        #expect(ParallelMap.map(Array(0..<5), minimumItems: 1) { $0 + 1 } == [1, 2, 3, 4, 5])
        for width in [1, 2, 3, 64] {
            #expect(ParallelMap.map(items, minimumItems: 1, width: width) { $0 * 3 } == items.map { $0 * 3 })
        }
        // No more at once than the width (one: none beside another).
        for width in [1, 2] {
            let inFlight = InFlight()
            _ = ParallelMap.map(Array(0..<40), minimumItems: 1, width: width) { item in
                inFlight.enter()
                usleep(300)
                inFlight.leave()
                return item
            }
            #expect(inFlight.most <= width)
        }
        // Every item once, in order, also when the chunks do not divide the count evenly; parts joined in order,
        // moved out: the parts are left empty; so is an array taken last first.
        for count in [0, 5, 65, 1_000, 1_003] {
            #expect(ParallelMap.map(Array(0..<count)) { "\($0)" } == (0..<count).map { "\($0)" })
            var parts = stride(from: 0, to: count, by: 7).map { Array($0..<min($0 + 7, count)) } + [[]]
            #expect(parts.takeElements() == Array(0..<count))
            #expect(parts.allSatisfy { $0.isEmpty })
            var items = Array(0..<count)
            #expect(items.takeReversed() == Array((0..<count).reversed()) && items.isEmpty)
        }
    }
}

/// Counts how many calls are running at once, and the most there were.
private final class InFlight: @unchecked Sendable {
    // Guarded by `lock`; @unchecked is sound because both counts are touched only under it.
    private let lock = NSLock()
    private var current = 0
    private var highest = 0

    func enter() { lock.withLock { current += 1; highest = max(highest, current) } }
    func leave() { lock.withLock { current -= 1 } }
    var most: Int { lock.withLock { highest } }
}
