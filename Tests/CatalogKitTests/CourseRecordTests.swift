import Foundation
import Testing
@testable import CatalogKit

/// A course's fields are listed once, by `CourseRecord`: what `parse --json` writes, a snapshot keeps and
/// `catalog.json` publishes are its keys, and the published catalog's schema describes exactly those.
@Suite struct CourseRecordTests {
    // Made for each use, not kept in a static: LeakSanitizer cannot follow a static's requisite tree (enum payload
    // pointers carry the case in spare bits) and would report it as leaked.
    static var course: Course {
        SnapshotTestSupport.course("CIS 162", title: "Computer Science I", prerequisite: "MTH 110 or (MTH 122 and a grade of C)",
                                   fields: [LabelledField(label: "Fee", value: "Y")])
    }
    static let stamps: Set = ["createdAt", "updatedAt", "fingerprint", "firstEdition", "history"]
    static let diagnostics: Set = ["sources", "warnings"]

    static func keys(_ value: some Encodable) -> Set<String> {
        guard case let .object(members) = JSONValue(encoding: value) else { return [] }
        return Set(members.keys)
    }

    /// Every published key is written, null when unknown; the stamps and diagnostics only where they are set.
    @Test func aRecordWritesEveryPublishedKeyAndTheRestWhereSet() throws {
        var record = CourseRecord(Self.course)
        record.offered = nil
        guard case let .object(members) = JSONValue(encoding: record) else { Issue.record("not an object"); return }
        #expect(members["offered"] == .null && members["rubricsUrl"] == .null && members["suffix"] == .null)
        #expect(Self.stamps.union(Self.diagnostics).isDisjoint(with: members.keys))
        let diagnosed = Self.keys(CourseRecord(Self.course, diagnostics: true))
        #expect(diagnosed == Set(members.keys).union(Self.diagnostics))
    }

    @Test func aRecordReadsBackAsItWasWrittenRequisiteTreesIncluded() throws {
        var record = CourseRecord(Self.course, diagnostics: true)
        record.createdAt = "2025-01-01T00:00:00Z"
        #expect(record.prerequisite != nil)
        #expect(try JSONFile.decode(CourseRecord.self, from: JSONFile.encoded(record)) == record)
        // A missing key of an optional field reads as nil, as null does.
        guard case var .object(members) = JSONValue(encoding: record) else { return }
        members["offered"] = nil
        let read = try JSONFile.decode(CourseRecord.self, from: JSONFile.encoded(JSONValue.object(members)))
        #expect(read.offered == nil && read.title == record.title)
    }

    @Test func aSnapshotKeepsTheRecordWithItsStampsAndCatalogJSONWithoutTheFingerprint() throws {
        let snapshot = SnapshotTestSupport.capture([Self.course], at: 1_764_417_600).snapshot
        guard case let .array(courses)? = try JSONFile.decode(JSONValue.self, from: snapshot.encoded())["courses"],
              case let .object(kept)? = courses.first else { Issue.record("no course"); return }
        #expect(Set(kept.keys) == Self.keys(CourseRecord(Self.course)).union(Self.stamps))
        let published = JSONValue(encoding: PublishedCatalog(catalog: SnapshotTestSupport.catalog, snapshot: snapshot))
        guard case let .array(records)? = published["courses"], case let .object(record)? = records.first else {
            Issue.record("no course in \(published.shortDescription)")
            return
        }
        #expect(Set(record.keys) == Set(kept.keys).subtracting(["fingerprint"]))
    }

    /// The app drops a course document unless these fields have its types: the schema must require them.
    static let appFields = ["number", "credits", "subject", "name", "title", "description", "rubricsUrl", "level", "transitionPlanUrl",
                            "prerequisiteString", "createdAt"]

    @Test func theSchemaDescribesExactlyThePublishedKeysAndRequiresTheAppsFields() throws {
        let file = TestPaths.packageRoot.appendingPathComponent("schemas/catalog.schema.json")
        let schema = try JSONFile.decode(JSONValue.self, from: Data(contentsOf: file))
        guard case let .object(properties)? = schema["$defs"]?["course"]?["properties"],
              case let .array(required)? = schema["$defs"]?["course"]?["required"] else {
            Issue.record("no course properties in the schema")
            return
        }
        let published = Self.keys(CourseRecord(Self.course)).union(["createdAt", "updatedAt", "firstEdition", "history"])
        #expect(Set(properties.keys) == published)
        let requiredKeys = Set(required.compactMap(\.stringValue))
        for key in Self.appFields { #expect(requiredKeys.contains(key), "the app reads \(key): the schema must require it") }
    }

    @Test func everyComparedFieldIsARecordKeyWithItsOwnLabel() {
        let keys = CourseRecord.compared.map(\.key), labels = CourseRecord.compared.map(\.label)
        #expect(Set(keys).count == keys.count && Set(labels).count == labels.count)
        #expect(Set(keys).isSubset(of: Self.keys(CourseRecord(Self.course))))
        #expect(DiffReport.label("prerequisiteString") == "Prerequisites")
        #expect(DiffReport.label("id") == "id" && DiffReport.label("fields.Fee") == "Fee")
    }
}
