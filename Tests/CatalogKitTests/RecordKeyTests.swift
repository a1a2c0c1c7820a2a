import Foundation
import Testing
@testable import CatalogKit

/// A course record's keys are named once, by `RecordKey`: what `parse --json` writes, a snapshot keeps and
/// `catalog.json` publishes are exactly its keys, and the published catalog's schema describes exactly those.
@Suite struct RecordKeyTests {
    static let all = Set(RecordKey.allCases.map(\.rawValue))
    static let stamps = Set([RecordKey.createdAt, .updatedAt, .fingerprint].map(\.rawValue))
    // Made for each use, not kept in a static: LeakSanitizer cannot follow a static's requisite tree (enum payload
    // pointers carry the case in spare bits) and would report it as leaked.
    static var course: Course {
        SnapshotTestSupport.course("CIS 162", title: "Computer Science I", prerequisite: "MTH 110",
                                   fields: [LabelledField(label: "Fee", value: "Y")])
    }

    @Test func aRecordHasEveryKeyButTheStampsWrittenInKeyOrder() {
        #expect(Set(Self.course.record.keys) == Self.all.subtracting(Self.stamps))
        // The writer lists the members without sorting them: they must come as a sorting writer puts them.
        var written: [UInt8] = []
        Self.course.writeJSON(into: &written, indentingLevels: 1, depth: 0)
        #expect(written == JSONValue.object(Self.course.record).serializedBytes(indentingLevels: 1))
    }

    @Test func aSnapshotKeepsTheRecordWithItsStampsAndCatalogJSONWithoutTheFingerprint() throws {
        let snapshot = SnapshotTestSupport.capture([Self.course], at: 1_764_417_600).snapshot
        guard case let .object(kept) = try #require(snapshot.courses.first).json else { Issue.record("not an object"); return }
        #expect(Set(kept.keys) == Self.all.subtracting(SnapshotCourse.diagnosticKeys.map(\.rawValue)))
        let published = PublishedCatalog.json(catalog: SnapshotTestSupport.catalog, snapshot: snapshot)
        guard case let .array(records)? = published["courses"], case let .object(record)? = records.first else {
            Issue.record("no course in \(published.shortDescription)")
            return
        }
        #expect(Set(record.keys) == Set(kept.keys).subtracting([RecordKey.fingerprint.rawValue]))
    }

    @Test func theSchemaDescribesExactlyThePublishedKeysAndRequiresTheAppsFields() throws {
        let file = TestPaths.packageRoot.appendingPathComponent("schemas/catalog.schema.json")
        let course = try #require(try JSONValue.parse(Array(Data(contentsOf: file)))["$defs"]?["course"])
        guard case let .object(properties)? = course["properties"], case let .array(required)? = course["required"] else {
            Issue.record("no course properties in the schema")
            return
        }
        let published = Self.all.subtracting(SnapshotCourse.diagnosticKeys.map(\.rawValue)).subtracting([RecordKey.fingerprint.rawValue])
        #expect(Set(properties.keys) == published)
        let requiredKeys = Set(required.compactMap(\.stringValue))
        for key in FirestoreDocuments.appStringFields + FirestoreDocuments.appIntegerFields + [.createdAt, .updatedAt] {
            #expect(requiredKeys.contains(key.rawValue), "the app reads \(key.rawValue): the schema must require it")
        }
    }

    @Test func everyComparedFieldHasItsOwnLabelAndIsRead() {
        let keys = ComparableCourse.compared.map(\.key), labels = ComparableCourse.compared.map(\.label)
        #expect(Set(keys).count == keys.count && Set(labels).count == labels.count)
        #expect(Set(keys).isSubset(of: ComparableCourse.recordKeys))
        #expect(Set(ComparableCourse.recordKeys).count == ComparableCourse.recordKeys.count)
        #expect(DiffReport.label("prerequisiteString") == "Prerequisites")
        #expect(DiffReport.label("id") == "id" && DiffReport.label("fields.Fee") == "Fee")
    }
}
