@testable import CatalogKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The publisher's pure parts with plain values: the REST value form, the documents, the plan, the configuration,
/// the credentials and how answers are judged. Against the real emulator: EndToEndTests.FirestorePublishTests.
struct FirestorePublishUnitTests {
    @Test func aTimestampIsARealInstantInUTC() {
        for text in ["2026-12-01T12:11:55Z", "2026-12-01T12:11:55.250Z", "2024-02-29T00:00:00Z"] {
            #expect(FirestoreValue.timestamp(rfc3339: text) != nil, "\(text)")
        }
        for text in ["2025-13-45T99:99:99Z", "not a time at all, Z", "2023-02-29T00:00:00Z", "2026-12-01T12:11:55+01:00", "2026-12-01T12:11:55.x5Z",
                     "2026-12-01T12:11:55.Z", "2026-12-01T12:11:55.1234567890Z", "0000-01-01T00:00:00Z"] {
            #expect(FirestoreValue.timestamp(rfc3339: text) == nil, "\(text)")
        }
    }

    @Test func valuesSurviveTheRESTFormAndTimestampsCompareByInstant() throws {
        let value = FirestoreValue.map(["n": .integer(-3), "d": .double(1.5), "s": .string("x"), "b": .bool(true), "z": .null,
                                        "a": .array([]), "m": .map([:]), "t": .timestamp("2026-12-01T12:11:55Z"),
                                        "nested": .array([.map(["k": .array([.integer(1)])])])])
        #expect(FirestoreValue(rest: value.rest) == value)
        #expect(FirestoreValue(rest: try JSONFile.decode(JSONValue.self, from: Array(#"{"timestampValue": "2026-12-01T12:11:55.000000Z"}"#.utf8))) == .timestamp("2026-12-01T12:11:55Z"))
        #expect(FirestoreValue(rest: try JSONFile.decode(JSONValue.self, from: Array(#"{"timestampValue": "2026-12-01T12:11:55.250000Z"}"#.utf8)))
                == FirestoreValue.timestamp(rfc3339: "2026-12-01T12:11:55.25Z"))
        #expect(FirestoreValue(rest: try JSONFile.decode(JSONValue.self, from: Array(#"{"integerValue": "12"}"#.utf8))) == .integer(12))
        #expect(FirestoreValue(rest: try JSONFile.decode(JSONValue.self, from: Array(#"{"integerValue": "12"}"#.utf8))) != .double(12))
        #expect(FirestoreValue(rest: try JSONFile.decode(JSONValue.self, from: Array(#"{"geoPointValue": {"latitude": 1}}"#.utf8))) == nil)
        #expect(FirestoreValue.timestamp(rfc3339: "2026-12-01T12:11:55+01:00") == nil)
    }

    /// A published course record with no description, level or prerequisite.
    static var course: CourseRecord {
        var record = CourseRecord(SnapshotTestSupport.course("CIS 162", title: "Computer Science I", description: "", credits: "4"))
        record.level = nil
        record.createdAt = "2026-01-02T03:04:05Z"
        record.updatedAt = "2026-02-02T03:04:05Z"
        record.prerequisiteString = "MTH 110."
        record.prerequisiteCourses = ["MTH 110"]
        record.fields = ["Fee": "Y"]
        record.firstEdition = "2025-2026"
        record.history = [CourseEvent(edition: "2025-2026", date: "2025-08-01T00:00:00Z", kind: .added)]
        return record
    }

    /// The app's string fields: it drops a course document whose field is missing, null or of another type.
    static let appStringFields = ["subject", "name", "title", "description", "rubricsUrl", "level", "transitionPlanUrl", "prerequisiteString"]

    @Test func aCourseDocumentHasEveryAppFieldWithTheAppsType() throws {
        let document = try FirestoreDocuments.course(Self.course, path: "catalog.json: courses[0]")
        #expect(document.id == "cis-162")
        for key in Self.appStringFields {
            guard case .string? = document.fields[key] else { Issue.record("\(key) is not a string"); continue }
        }
        #expect(document.fields["description"] == .string("") && document.fields["rubricsUrl"] == .string(""))
        #expect(document.fields["level"] == .string(""))
        #expect(document.fields["number"] == .integer(162) && document.fields["credits"] == .integer(4))
        #expect(document.fields["createdAt"] == .timestamp("2026-01-02T03:04:05Z"))
        #expect(document.fields["creditRange"] == .map(["min": .integer(4), "max": .integer(4)]))
        #expect(document.fields["prerequisiteCourses"] == .array([.string("MTH 110")]))
        #expect(document.fields["fields"] == nil && document.fields["sourceUrl"] == nil)
        // Every field of the document is one of the record's, under the record's name.
        guard case let .object(members) = JSONValue(encoding: Self.course) else { Issue.record("not an object"); return }
        #expect(Set(document.fields.keys).isSubset(of: Set(members.keys)))

        var unstamped = Self.course
        unstamped.updatedAt = nil
        let error = #expect(throws: CatalogError.self) { try FirestoreDocuments.course(unstamped, path: "catalog.json: courses[7]") }
        #expect(error?.message == "catalog.json: courses[7].updatedAt: expected an RFC 3339 UTC timestamp, got nothing")
        #expect(error?.cause == .invalidData)
    }

    /// catalog.json is read by decoding its records: a member of another type is refused by its JSON path (65).
    @Test func aMemberOfAnotherTypeIsRefusedByItsPath() throws {
        let directory = try SnapshotTestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        guard case var .object(record) = JSONValue(encoding: Self.course) else { Issue.record("not an object"); return }
        record["credits"] = .object(["min": .int(1), "max": .int(3)])
        try Data(JSONValue.object(["catalog": .object(["id": .string("c")]), "courses": .array([.object(record)])]).serialized().utf8)
            .write(to: directory.appendingPathComponent("catalog.json"))
        let error = #expect(throws: CatalogError.self) { try FirestoreDocuments.outputs(in: directory, checkReport: false) }
        #expect(error?.message.hasPrefix("\(directory.path)/catalog.json: courses[0].credits: expected an integer") == true, "\(error?.message ?? "")")
        #expect(error?.cause == .invalidData)
    }

    @Test func aNewsDocumentCarriesTheAppsNewsFields() throws {
        let item = NewsItem(id: "gvsu:added:cis-380:20260101T000000Z", title: "New course: CIS 380", description: "Learning.", content: "**x**",
                            featured: true, createdAt: "2026-01-01T00:00:00Z", kind: .added, courseId: "cis-380", link: nil)
        let document = try FirestoreDocuments.news(item, path: "news.json: news[0]")
        #expect(document.id == item.id)
        #expect(document.fields["featured"] == .bool(true) && document.fields["thumbnail"] == .null && document.fields["link"] == .null)
        #expect(document.fields["createdAt"] == .timestamp("2026-01-01T00:00:00Z") && document.fields["kind"] == .string("added"))
        var slashed = item
        slashed.id = "a/b"
        let refused = #expect(throws: CatalogError.self) { try FirestoreDocuments.news(slashed, path: "news.json: news[0]") }
        #expect(refused?.cause == .invalidData)
    }

    /// An output that is missing (or a folder) cannot be read: 66, naming the file and the system's reason.
    @Test func anOutputThatCannotBeReadIs66() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-outputs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("news.json"), withIntermediateDirectories: true)
        for (expected, reason) in [("catalog.json", "No such file or directory"), ("news.json", "Is a directory")] {
            do {
                _ = try FirestoreDocuments.outputs(in: directory, checkReport: false)
                Issue.record("expected \(expected) to be unreadable")
            } catch {
                #expect(error.cause == .missingInput)
                #expect("\(error)".contains("\(directory.appendingPathComponent(expected).path): cannot read (\(reason))"))
            }
            try Data(#"{"catalog": {"id": "c"}, "courses": []}"#.utf8).write(to: directory.appendingPathComponent("catalog.json"))
        }
    }

    /// Two documents with one id would be one in Firestore, the second overwriting the first: refused (65).
    @Test func anIdTwiceIsRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-twice-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let course = JSONValue(encoding: Self.course).serialized(pretty: false)
        let other = course.replacingOccurrences(of: "cis-162", with: "cis-163")
        let item = #"{"id": "n1", "title": "t", "description": "d", "content": "c", "featured": false, "createdAt": "2026-01-01T00:00:00Z", "courseId": "cis-162", "kind": "added"}"#
        for (courses, news, expected) in [([course, other, course], [item], #"catalog.json: courses[2].id: "cis-162" again, as courses[0]"#),
                                          ([course], [item, item], #"news.json: news[1].id: "n1" again, as news[0]"#)] {
            try Data(#"{"catalog": {"id": "c"}, "courses": [\#(courses.joined(separator: ","))]}"#.utf8).write(to: directory.appendingPathComponent("catalog.json"))
            try Data(#"{"schemaVersion": 1, "news": [\#(news.joined(separator: ","))]}"#.utf8).write(to: directory.appendingPathComponent("news.json"))
            do {
                _ = try FirestoreDocuments.outputs(in: directory, checkReport: false)
                Issue.record("an id twice was taken: \(expected)")
            } catch {
                #expect(error.cause == .invalidData)
                #expect("\(error)".contains(expected), "\(error)")
            }
        }
    }

    @Test func thePlanWritesOnlyWhatDiffersAndDeletesOnlyWhenAsked() {
        let a = FirestoreDocument(id: "a", fields: ["title": .string("A"), "url": .string("https://x/41/a")])
        let b = FirestoreDocument(id: "b", fields: ["title": .string("B"), "url": .string("https://x/41/b")])
        let held: [String: [String: FirestoreValue]?] = [
            "a": ["title": .string("A"), "url": .string("https://x/40/a")],
            "b": ["title": .string("old B"), "url": .string("https://x/41/b")],
            "gone": ["title": .string("G")], "unreadable": nil,
        ]
        let plan = FirestoreCollectionPlan.make(desired: [a, b], existing: held, deleteMissing: true, ignoring: ["url"])
        #expect(plan.writes == [b] && plan.unchanged == 1 && plan.deletes == ["gone", "unreadable"])
        let strict = FirestoreCollectionPlan.make(desired: [a, b], existing: held, deleteMissing: false)
        #expect(strict.writes == [a, b] && strict.deletes.isEmpty)
        // A document that lacks an ignored field is still rewritten.
        let missing = FirestoreCollectionPlan.make(desired: [a], existing: ["a": ["title": .string("A")]], deleteMissing: true, ignoring: ["url"])
        #expect(missing.writes == [a])
    }

    @Test func thePublishSectionIsValidatedWithJSONPaths() throws {
        let base = URL(fileURLWithPath: "/tmp/gvingest-config/pipeline.json")
        func config(_ publish: String) throws(PipelineConfig.Invalid) -> PipelineConfig {
            try PipelineConfig.parse(Data("""
            {"schemaVersion": 1, "catalogs": [{"id": "gvsu", "name": "GVSU", "system": "gvsu", "source": {"directory": "pages"}}],
             "publish": \(publish)}
            """.utf8), file: base)
        }
        let good = try config(#"{"firestore": {"project": "gvcourse-app", "tokenCommand": ["gcloud", "auth", "print-access-token"], "deadlineSeconds": 60}}"#)
        #expect(good.firestore?.project == "gvcourse-app" && good.firestore?.database == "(default)")
        #expect(good.firestore?.coursesCollection == "courses" && good.firestore?.tokenCommand == ["gcloud", "auth", "print-access-token"])
        do {
            _ = try config(#"{"firestore": {"project": "Bad Project", "database": "x", "newsCollection": "courses", "tokenCommand": [], "deadline": 3}}"#)
            Issue.record("an invalid publish section was accepted")
        } catch {
            let paths = Set(error.issues.map(\.path))
            #expect(paths == ["publish.firestore.project", "publish.firestore.database", "publish.firestore.newsCollection",
                              "publish.firestore.tokenCommand", "publish.firestore.deadline"])
        }
        do {
            _ = try config(#"{"firestore": {}, "s3": {}}"#)
            Issue.record("a publish section without a project was accepted")
        } catch {
            #expect(Set(error.issues.map(\.path)) == ["publish.firestore.project", "publish.s3"])
        }
    }

    @Test func credentialsComeFromTheEmulatorTheEnvironmentOrTheCommand() throws {
        let emulator = try FirestoreCredentials.target(project: "demo-x", database: "(default)",
                                                       environment: ["FIRESTORE_EMULATOR_HOST": "127.0.0.1:8080", "GOOGLE_OAUTH_ACCESS_TOKEN": "t"], tokenCommand: nil)
        #expect(emulator.apiBase.absoluteString == "http://127.0.0.1:8080/v1" && emulator.token == "owner")
        #expect(emulator.documentName(collection: "courses", id: "cis-162") == "projects/demo-x/databases/(default)/documents/courses/cis-162")
        let token = try FirestoreCredentials.target(project: "demo-x", database: "(default)", environment: ["GOOGLE_OAUTH_ACCESS_TOKEN": " ya29.t \n"], tokenCommand: nil)
        #expect(token.apiBase == FirestoreCredentials.productionAPI && token.token == "ya29.t")
        let command = try FirestoreCredentials.target(project: "demo-x", database: "(default)", environment: [:], tokenCommand: ["/bin/sh", "-c", "echo ya29.cmd"])
        #expect(command.token == "ya29.cmd")
        for tokenCommand in [nil, ["/bin/sh", "-c", "exit 3"]] {
            do {
                _ = try FirestoreCredentials.target(project: "demo-x", database: "(default)", environment: [:], tokenCommand: tokenCommand)
                Issue.record("credentials out of nothing")
            } catch {
                #expect(error.cause == .noCredentials)
            }
        }
        // A host the emulator cannot be at fails at once (69), not request after request until the deadline (75).
        for host in ["http://127.0.0.1:9", ":", "127.0.0.1:99999", "127.0.0.1:abc"] {
            do {
                _ = try FirestoreCredentials.target(project: "p", database: "(default)", environment: ["FIRESTORE_EMULATOR_HOST": host], tokenCommand: nil)
                Issue.record("\(host) taken for an emulator")
            } catch {
                #expect(error.cause == .unavailable && error.message == #"FIRESTORE_EMULATOR_HOST: expected HOST:PORT, got "\#(host)""#)
            }
        }
    }

    @Test func answersAreJudgedRetryableOrNot() throws {
        func judge(_ status: Int, _ body: String) -> CatalogError.Cause? {
            let response = HTTPURLResponse(url: URL(string: "http://127.0.0.1/v1")!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: [:])
            switch FirestoreClient.judge(RawResponse(response: response, body: Array(body.utf8), error: nil, overLimit: false, refusedRedirect: nil, timedOut: false)) {
            case .success: return nil
            case let .failure(error): return error.cause
            }
        }
        #expect(judge(200, "{}") == nil)
        #expect(judge(429, "") == .temporary && judge(503, "") == .temporary)
        #expect(judge(409, #"{"error": {"code": 409, "status": "ABORTED", "message": "contention"}}"#) == .temporary)
        #expect(judge(400, #"{"error": {"code": 400, "status": "UNAVAILABLE"}}"#) == .temporary)
        #expect(judge(403, #"{"error": {"code": 403, "status": "PERMISSION_DENIED"}}"#) == .noCredentials)
        #expect(judge(400, #"{"error": {"code": 400, "status": "INVALID_ARGUMENT"}}"#) == .unavailable)
        let dropped = FirestoreClient.judge(RawResponse(response: nil, body: [], error: URLError(.networkConnectionLost), overLimit: false, refusedRedirect: nil, timedOut: false))
        guard case let .failure(error) = dropped else { Issue.record("a dropped connection succeeded"); return }
        #expect(error.cause == .temporary)
    }
}
