import Foundation
import Testing
@testable import CatalogKit

/// Snapshots and catalogs are read in slices of records on the cores: the slices must be exactly the records,
/// whatever their text holds, and an error must name the record's place in the whole document.
@Suite struct CourseDocumentTests {
    static func layout(_ text: String) -> [String]? {
        let bytes = Array(text.utf8)
        guard let found = bytes.withUnsafeBufferPointer(CourseDocument.coursesLayout) else { return nil }
        #expect(bytes[found.array].first == UInt8(ascii: "[") && bytes[found.array].last == UInt8(ascii: "]"))
        return found.records.map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    @Test func recordsAreFoundWhateverTheirStringsHold() {
        let tricky = #"{"t": "a \"quoted\" ], {brace}, and \\", "n": [1, {"x": "]"}]}"#
        let text = #"{"note": "\"courses\": [9]", "nested": {"courses": [7]}, "courses" : [ "#
            + tricky + #" ,{"b": 2}],"after": {"courses": []}}"#
        #expect(Self.layout(text) == [tricky, #"{"b": 2}"#])
        #expect(Self.layout(#"{"courses": []}"#) == [])
        #expect(Self.layout("{\n  \"courses\" : [\n    {\"a\" : 1}\n  ]\n}") == [#"{"a" : 1}"#])
        // Not laid out as a course document: the whole document is decoded instead.
        for text in [#"[{"courses": []}]"#, #"{"courses": {}}"#, #"{"courses": [1, 2"#, #"{"a": "unterminated"#] {
            #expect(Self.layout(text) == nil, "\(text)")
        }
    }

    @Test func aSnapshotOfMoreRecordsThanASliceReadsWholeAndInOrder() throws {
        let courses = (0..<(CourseDocument.recordsPerSlice * 2 + 7)).map { index in
            SnapshotTestSupport.course("CIS \(100 + index)", title: "Course \(index), [\"a\"]")
        }
        let snapshot = SnapshotTestSupport.capture(courses, at: 1_764_417_600).snapshot
        #expect(try Snapshot(bytes: snapshot.encoded()) == snapshot)
        // Spelled so that the scan does not find the array, the same document is read whole, to the same snapshot.
        let escaped = String(decoding: snapshot.encoded(), as: UTF8.self).replacingOccurrences(of: #""courses" :"#, with: #""\u0063ourses" :"#)
        #expect(Self.layout(escaped) == nil)
        #expect(try Snapshot(bytes: Array(escaped.utf8)) == snapshot)
        // A record of the wrong type far into the file is named by its place in the whole document.
        let bytes = Array(String(decoding: snapshot.encoded(), as: UTF8.self)
            .replacingOccurrences(of: #""id" : "cis-999""#, with: #""id" : 999"#).utf8)
        let error = #expect(throws: FormatError.self) { try Snapshot(bytes: bytes) }
        #expect(error?.message == "courses[\(courses.count - 1)].id: expected a string, got a number")
    }

    /// What a snapshot says of itself is read without its courses: the same as the whole read gives, and even where
    /// a record would not decode (so none was decoded); a store's newest header is its newest snapshot's.
    @Test func aHeaderIsReadWithoutItsCourses() throws {
        let courses = (0..<(CourseDocument.recordsPerSlice + 3)).map { SnapshotTestSupport.course("CIS \(100 + $0)", title: "Course \($0)") }
        var snapshot = SnapshotTestSupport.capture(courses, at: 1_764_417_600).snapshot
        snapshot.edition = "2025-2026 Catalog"
        let header = try CourseDocument.header(Array(snapshot.encoded()), as: SnapshotHeader.self)
        #expect(header.capturedAt == snapshot.capturedAt && header.edition == "2025-2026 Catalog" && header.pages == snapshot.pages)
        let broken = Array(String(decoding: snapshot.encoded(), as: UTF8.self)
            .replacingOccurrences(of: #""id" : "cis-101""#, with: #""id" : 101"#).utf8)
        #expect(throws: FormatError.self) { try Snapshot(bytes: broken) }
        #expect(try CourseDocument.header(broken, as: SnapshotHeader.self).pages == snapshot.pages)

        let store = SnapshotStore(directory: try SnapshotTestSupport.scratchDirectory())
        #expect(try store.latestHeader() == nil)
        try store.write(SnapshotTestSupport.capture(courses, at: 1_764_000_000).snapshot)
        let newest = try store.write(snapshot)
        let latest = try #require(try store.latestHeader())
        #expect(latest.entry == newest && latest.header.capturedAt == snapshot.capturedAt)
    }
}
