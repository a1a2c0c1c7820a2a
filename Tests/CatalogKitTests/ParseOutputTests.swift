@testable import CatalogKit
import Foundation
import FuzzHarness
import Testing

struct ParseOutputTests {
    /// The records are written in parallel and stitched together: the bytes must be those of the one-core writer.
    @Test func theParallelJSONIsByteForByteTheSerialOne() async throws {
        let (inputs, errors) = PageInputs.expand([TestPaths.gvsuFixtures.appendingPathComponent("course").path])
        #expect(errors.isEmpty)
        let results = await ParseRunner.run(inputs, parser: PageParser(system: .fixed(.gvsu)))
        let courses = Normalizer().normalize(catalog: results.flatMap(\.courses))
        // More than a group of records, so that the groups of a batch are written on the cores.
        #expect(courses.count > 2 * ParseOutput.group)
        // Records are written from `members` as listed; the serial writer sorts a dictionary's keys.
        let keys = courses[0].members.map(\.key)
        #expect(keys == keys.sorted() && Set(keys).count == keys.count)
        let serial = JSONValue.array(courses.map { .object($0.record) }).serialized()
        #expect(String(decoding: ParseOutput.jsonBytes(results), as: UTF8.self) == serial)
        #expect(ParseOutput.jsonBytes([]) == Array(JSONValue.array([]).serialized().utf8))
        // In batches of any size, the last one short or not: the same bytes, each batch's pieces in order.
        let group = ParseOutput.group
        for batch in [-1, 0, 1, 7, group - 1, group, group + 1, courses.count - 1, courses.count, courses.count + 5] {
            #expect(String(decoding: ParseOutput.jsonParts(courses: courses, batch: batch).joined(), as: UTF8.self) == serial)
        }
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
