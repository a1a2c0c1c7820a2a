import Foundation
import Testing
import TestSupport
@testable import CatalogKit

/// `catalog.json`: deterministic, and valid against `schemas/catalog.schema.json` by a real validator.
@Suite struct PublishedCatalogTests {
    static func fixtureCourses() throws -> [Course] {
        let index = try MirrorIndex.load(from: TestPaths.gvsuFixtures)
        let parsed = try index.pages.values.map(\.file).filter { $0.hasPrefix("course/") }.sorted().flatMap { file in
            let url = TestPaths.gvsuFixtures.appendingPathComponent(file)
            return PageParser(system: .fixed(.gvsu)).parse(bytes: Array(try Data(contentsOf: url)), sourceURL: url, input: file).courses
        }
        return Normalizer().normalize(catalog: parsed)
    }

    static func snapshot(courses: [Course]? = nil) throws -> Snapshot {
        Snapshot.capture(catalogID: catalog.id, source: catalog.source.json, pages: PageCounts(expected: 77, fetched: 77, failed: 0),
                         courses: try courses ?? fixtureCourses(), previous: nil,
                         at: Date(timeIntervalSince1970: 1_764_417_600)).snapshot
    }

    static let catalog = CatalogConfig(id: "gvsu-fixture", name: "Recorded GVSU catalog", system: .gvsu,
                                       source: .directory(TestPaths.gvsuFixtures))

    static func validate(_ json: JSONValue) throws -> (status: Int32, output: String) {
        try OptionalTool.jsonschema.require()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(json.serialized().utf8).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [TestPaths.packageRoot.appendingPathComponent("Tests/tools/validate-json-schema.py").path,
                             TestPaths.packageRoot.appendingPathComponent("schemas/catalog.schema.json").path, file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    @Test(.needs(.jsonschema)) func theFixtureCatalogIsValidAgainstTheSchema() throws {
        let json = JSONValue(encoding: PublishedCatalog(catalog: Self.catalog, snapshot: try Self.snapshot()))
        let (status, output) = try Self.validate(json)
        #expect(status == 0, "\(output)")
        #expect(json["courseCount"] == .int(71))
        guard case let .array(records)? = json["courses"], case let .object(first)? = records.first else {
            Issue.record("no courses")
            return
        }
        for key in ["id", "number", "subject", "name", "title", "description", "credits", "rubricsUrl", "level",
                    "transitionPlanUrl", "prerequisite", "prerequisiteString", "createdAt"] {
            #expect(first[key] != nil, "missing \(key)")
        }
        #expect(first["createdAt"] == .string("2025-11-29T12:00:00Z"))
        #expect(first["url"] == .string("https://www.gvsu.edu/catalog/course/bio-105.htm"))
        #expect(first["sources"] == nil)
    }

    @Test(.needs(.jsonschema)) func theValidatorRejectsWhatTheSchemaForbids() throws {
        let courses = try Self.fixtureCourses()
        guard case var .object(top) = JSONValue(encoding: PublishedCatalog(catalog: Self.catalog, snapshot: try Self.snapshot(courses: courses))),
              case var .array(records)? = top["courses"], case var .object(first) = records[0] else {
            Issue.record("unexpected shape")
            return
        }
        first["credits"] = .string("4")
        first["level"] = .string("Sophomore")
        records[0] = .object(first)
        top["courses"] = .array(records)
        let (status, output) = try Self.validate(.object(top))
        #expect(status == 1)
        #expect(output.contains("courses[0].credits"))
        #expect(output.contains("courses[0].level"))
    }

    @Test func theSameInputGivesAByteIdenticalFile() throws {
        let once = JSONValue(encoding: PublishedCatalog(catalog: Self.catalog, snapshot: try Self.snapshot())).serialized()
        let twice = JSONValue(encoding: PublishedCatalog(catalog: Self.catalog, snapshot: try Self.snapshot(courses: try Self.fixtureCourses().reversed()))).serialized()
        #expect(once == twice)
    }
}
