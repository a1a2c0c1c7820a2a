import Foundation
import Testing
@testable import CatalogKit

/// Snapshots: their JSON, timestamps carried from run to run, and the store's files.
@Suite struct SnapshotTests {
    typealias Support = SnapshotTestSupport
    static let day: TimeInterval = 86_400
    static let t1: TimeInterval = 1_725_170_400 // 2024-09-01T06:00:00Z

    @Test func timestampsAreRFC3339InUTCToTheSecond() throws {
        #expect(Timestamp.string(Date(timeIntervalSince1970: Self.t1 + 0.9)) == "2024-09-01T06:00:00Z")
        #expect(Timestamp.date("2024-09-01T06:00:00Z") == Date(timeIntervalSince1970: Self.t1))
        for bad in ["2024-09-01 06:00:00Z", "2024-02-31T06:00:00Z", "2024-09-01T06:00:00+02:00", "2024-9-1T6:00:00Z", ""] {
            #expect(Timestamp.date(bad) == nil, "\(bad)")
        }
        #expect(Timestamp.compact("2024-09-01T06:00:00Z") == "20240901T060000Z")
    }

    @Test func aSnapshotRoundTripsEveryPublishedField() async throws {
        let (inputs, _) = PageInputs.expand([TestPaths.gvsuFixtures.appendingPathComponent("course").path])
        let results = await ParseRunner.run(inputs, parser: PageParser(system: .fixed(.gvsu)))
        let courses = Normalizer().normalize(catalog: results.flatMap(\.courses))
        #expect(courses.count > 60)
        let (snapshot, diff) = Support.capture(courses, at: Self.t1)
        #expect(diff.added.count == courses.count)
        let read = try Snapshot(bytes: snapshot.encoded())
        #expect(read == snapshot)
        for (course, stored) in zip(courses, read.courses) {
            var expected = CourseRecord(course)
            expected.createdAt = "2024-09-01T06:00:00Z"
            expected.updatedAt = "2024-09-01T06:00:00Z"
            // The edition is named as the pages name it.
            expected.firstEdition = "2024-2025 Undergraduate & Graduate Catalog"
            expected.history = [CourseEvent(edition: "2024-2025 Undergraduate & Graduate Catalog", date: "2024-09-01T06:00:00Z", kind: .added)]
            #expect(stored == expected, "\(course.id)")
            #expect(stored.sources == nil && stored.warnings == nil && stored.fingerprint == nil)
        }
        #expect(read.catalogID == "test")
        #expect(read.pages == Support.pages)
        #expect(read.source == .object(["http": .object(["startUrls": .array([.string("https://www.gvsu.edu/catalog/subject/cis.htm")])])]))
    }

    @Test func theFileIsCanonicalWhateverTheOrderOfTheCourses() throws {
        let courses = [Support.course("MTH 201", title: "Calculus I"), Support.course("CIS 162", title: "CS I"),
                       Support.course("BIO 120", title: "Biology")]
        let forward = Support.capture(courses, at: Self.t1).snapshot.encoded()
        let backward = Support.capture(courses.reversed(), at: Self.t1).snapshot.encoded()
        #expect(forward == backward)
        let text = String(decoding: forward, as: UTF8.self)
        #expect(text.hasPrefix("{\n") && text.hasSuffix("}\n"))
        let places = ["bio-120", "cis-162", "mth-201"].compactMap { text.range(of: "\"id\" : \"\($0)\"")?.lowerBound }
        #expect(places.count == 3 && places == places.sorted())
        #expect(text.contains("\"fingerprint\" : \""))
        #expect(text.contains("\"schemaVersion\" : 2"))
        #expect(!text.contains("\"sources\""))
    }

    @Test func createdAtAndUpdatedAtAreCarriedFromSnapshotToSnapshot() throws {
        let first = Support.capture([Support.course("CIS 162", title: "CS I"), Support.course("CIS 163", title: "CS II"),
                                     Support.course("CIS 267", title: "Graphics", description: "Pixels.")], at: Self.t1).snapshot
        let t2 = Self.t1 + Self.day
        let (second, diff) = Support.capture([
            Support.course("CIS 162", title: "CS I", credits: "4"),                  // changed
            Support.course("CIS 163", title: "CS II", description: "A  course. "),   // white space only
            Support.course("CIS 367", title: "Graphics", description: "Pixels."),    // renumbered
            Support.course("CIS 380", title: "Machine Learning"),                    // new
        ], previous: first, at: t2)
        #expect(diff.changed.map(\.id) == ["cis-162"])
        #expect(diff.renumbered.map { "\($0.from.id)>\($0.to.id)" } == ["cis-267>cis-367"])
        #expect(diff.added.map(\.id) == ["cis-380"])
        let stamps = Dictionary(uniqueKeysWithValues: second.courses.map { ($0.id, "\($0.createdAt ?? "-") \($0.updatedAt ?? "-")") })
        #expect(stamps["cis-162"] == "2024-09-01T06:00:00Z 2024-09-02T06:00:00Z")
        #expect(stamps["cis-163"] == "2024-09-01T06:00:00Z 2024-09-01T06:00:00Z")
        #expect(stamps["cis-367"] == "2024-09-01T06:00:00Z 2024-09-02T06:00:00Z")
        #expect(stamps["cis-380"] == "2024-09-02T06:00:00Z 2024-09-02T06:00:00Z")
    }

    @Test func theStoreWritesInSequenceListsAndPrunes() throws {
        let root = try Support.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let store = SnapshotStore(directory: root.appendingPathComponent("gvsu"))
        #expect(try store.list().isEmpty)
        #expect(try store.latest() == nil)
        var previous: Snapshot?
        for run in 0..<4 {
            let courses = (0...run).map { Support.course("CIS \(100 + $0)", title: "Course \($0)") }
            let snapshot = Support.capture(courses, previous: previous, at: Self.t1 + Double(run) * Self.day).snapshot
            let entry = try store.write(snapshot)
            #expect(entry.sequence == run + 1)
            previous = snapshot
        }
        #expect(try store.list().map(\.name) == ["snapshot-000001-20240901T060000Z.json", "snapshot-000002-20240902T060000Z.json",
                                                 "snapshot-000003-20240903T060000Z.json", "snapshot-000004-20240904T060000Z.json"])
        #expect(try store.latest()?.snapshot == previous)
        #expect(try SnapshotStore.load(store.list()[2].file).courses.count == 3)
        let removed = try store.prune(keeping: 2)
        #expect(removed.map(\.lastPathComponent) == ["snapshot-000001-20240901T060000Z.json", "snapshot-000002-20240902T060000Z.json"])
        #expect(try store.list().map(\.sequence) == [3, 4])
    }

    @Test func aTakenNameIsNeverOverwritten() throws {
        let store = SnapshotStore(directory: try Support.scratchDirectory())
        defer { try? FileManager.default.removeItem(at: store.directory) }
        let snapshot = Support.capture([Support.course("CIS 162", title: "CS I")], at: Self.t1).snapshot
        // Another run got there first with the name this write will want.
        let taken = store.directory.appendingPathComponent("snapshot-000001-20240901T060000Z.json")
        try FileManager.default.createDirectory(at: store.directory, withIntermediateDirectories: true)
        try Data("other run".utf8).write(to: taken)
        // The store counts it as snapshot 1 and writes 2 beside it.
        #expect(try store.write(snapshot).sequence == 2)
        #expect(try String(contentsOf: taken, encoding: .utf8) == "other run")
        // Creating under a taken name fails rather than replacing.
        let error = #expect(throws: FileWriteError.self) { try AtomicFile.create(Data("x".utf8), at: taken) }
        #expect(error?.code == EEXIST)
        #expect(error?.path == taken.path)
        #expect(try String(contentsOf: taken, encoding: .utf8) == "other run")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.directory.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test func aCorruptSnapshotIsAnErrorNamingTheFileAndIsLeftAsItIs() throws {
        let store = SnapshotStore(directory: try Support.scratchDirectory())
        defer { try? FileManager.default.removeItem(at: store.directory) }
        let snapshot = Support.capture([Support.course("CIS 162", title: "CS I")], at: Self.t1).snapshot
        let entry = try store.write(snapshot)
        let truncated = Array(snapshot.encoded().dropLast(40))
        try Data(truncated).write(to: entry.file)
        let error = #expect(throws: SnapshotError.self) { try store.latest() }
        let text = error.map { "\($0)" } ?? ""
        #expect(text.contains(entry.file.path) && text.contains("not a valid snapshot") && text.contains("left untouched"), "\(text)")
        #expect(try FileBytes.read(entry.file, limit: FileBytes.Limit.document) == truncated)
    }

    /// A snapshot's JSON with one change made to it.
    static func malformed(_ change: (inout [String: JSONValue], inout [String: JSONValue]) -> Void) throws -> [UInt8] {
        let snapshot = Support.capture([Support.course("CIS 162", title: "CS I")], at: Self.t1).snapshot
        guard case var .object(root) = try JSONFile.decode(JSONValue.self, from: snapshot.encoded()),
              case let .array(courses)? = root["courses"], case var .object(course)? = courses.first else { return [] }
        change(&root, &course)
        if case .array? = root["courses"] { root["courses"] = .array([.object(course)]) }
        return Array(JSONValue.object(root).serialized().utf8)
    }

    @Test func malformedSnapshotsSayWhatIsWrongAndWhere() throws {
        let cases: [(String, (inout [String: JSONValue], inout [String: JSONValue]) -> Void)] = [
            ("schemaVersion 3: this gvingest reads snapshots of versions 1 and 2", { root, _ in root["schemaVersion"] = .int(3); root["pages"] = nil }),
            ("capturedAt: expected a time like 2024-05-01T12:00:00Z, got \"yesterday\"", { root, _ in root["capturedAt"] = .string("yesterday") }),
            ("courses[0].title: missing", { _, course in course["title"] = nil }),
            ("courses[0].credits: expected an integer, got a string", { _, course in course["credits"] = .string("3") }),
            ("courses[0].createdAt: a snapshot's course needs a time like 2024-05-01T12:00:00Z, got none", { _, course in course["createdAt"] = nil }),
            ("courseCount is 2 but 1 courses are listed", { root, _ in root["courseCount"] = .int(2) }),
            ("courses: expected an array, got an object", { root, _ in root["courses"] = .object([:]) }),
        ]
        for (expected, change) in cases {
            let error = #expect(throws: FormatError.self) { try Snapshot(bytes: try Self.malformed(change)) }
            #expect(error?.message == expected)
        }
        #expect(throws: FormatError(message: "not valid JSON: unexpected end of file during JSON parse")) { try Snapshot(bytes: Array("{\"courses\": [".utf8)) }
    }

    @Test func staleTemporaryFilesArePrunedAndFreshOnesKept() throws {
        let store = SnapshotStore(directory: try Support.scratchDirectory())
        defer { try? FileManager.default.removeItem(at: store.directory) }
        try FileManager.default.createDirectory(at: store.directory, withIntermediateDirectories: true)
        let stale = store.directory.appendingPathComponent(".snapshot-000002-x.json.1.2.tmp")
        try Data("partial".utf8).write(to: stale)
        #expect(try store.prune(keeping: 10, temporariesOlderThan: 3600).isEmpty)
        #expect(FileManager.default.fileExists(atPath: stale.path))
        #expect(try store.prune(keeping: 10, temporariesOlderThan: 0).map(\.lastPathComponent) == [stale.lastPathComponent])
    }
}
