import Foundation
import LoopbackServer
import Testing
import TestSupport

/// `gvingest publish` and `gvingest run` with `publish.firestore`, against the real Firestore emulator (started here
/// on a free port, shared by the suite, killed with its whole process group when the test process ends). Each test
/// publishes into a project of its own, so none sees another's documents.
@Suite(.serialized, .needs(.firestoreEmulator)) struct FirestorePublishTests {
    static let emulator = Result<FirestoreEmulator, any Error>(catching: { try FirestoreEmulator() })
    static let uh = Binary.realworld.appendingPathComponent("acalog-uh")
    static let gvsuPages = Binary.fixtures.appendingPathComponent("gvsu/course")

    /// The suite's emulator; the first call waits, on a thread of its own, for java to start.
    func emulator() async throws -> FirestoreEmulator {
        try OptionalTool.firestoreEmulator.require()
        return try await Binary.offThePool { try Self.emulator.get() }
    }

    /// A scratch directory, removed when the test ends.
    final class Scratch {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-firestore-\(UUID().uuidString)")
        var out: URL { root.appendingPathComponent("out") }
        deinit { try? FileManager.default.removeItem(at: root) }
    }

    static func run(_ source: URL, system: String, into scratch: Scratch, catalog: String) async throws {
        let outcome = try await Binary.run(["run", "--source", source.path, "--system", system, "--catalog", catalog, "--out", scratch.out.path, "--quiet"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
    }

    struct Counts: Equatable {
        var written: Int, deleted: Int, unchanged: Int
    }

    /// `gvingest publish --json` against `host`: the status, the counts per collection and stderr.
    static func publish(_ scratch: Scratch, project: String, host: String, extra: [String] = []) async throws
        -> (status: Int32, courses: Counts?, news: Counts?, stderr: String) {
        let outcome = try await Binary.run(["publish", "--firestore", project, "--out", scratch.out.path, "--json"] + extra,
                                     environment: ["FIRESTORE_EMULATOR_HOST": host])
        let json = (try? JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8))) as? [String: [String: Int]]
        func counts(_ key: String) -> Counts? {
            json?[key].flatMap { c in c["written"].flatMap { w in c["deleted"].flatMap { d in c["unchanged"].map { Counts(written: w, deleted: d, unchanged: $0) } } } }
        }
        return (outcome.status, counts("courses"), counts("news"), outcome.stderr)
    }

    static func catalogCourses(_ scratch: Scratch) throws -> [[String: Any]] {
        let catalog = try JSONSerialization.jsonObject(with: Data(contentsOf: scratch.out.appendingPathComponent("catalog.json"))) as? [String: Any]
        return try #require(catalog?["courses"] as? [[String: Any]])
    }

    /// The app's `CourseStore.parseCourseDocument` guard, on the REST form: nil when the app keeps the course,
    /// else the first field that makes it drop it.
    static func appRejects(course fields: [String: Any]) -> String? {
        for key in ["number", "credits"] where !isInteger(fields[key]) { return key }
        for key in ["subject", "name", "title", "description", "rubricsUrl", "level", "transitionPlanUrl", "prerequisiteString"]
        where (fields[key] as? [String: Any])?["stringValue"] as? String == nil { return key }
        return isTimestamp(fields["createdAt"]) ? nil : "createdAt"
    }

    static func appRejects(news fields: [String: Any]) -> String? {
        for key in ["title", "description", "content"] where (fields[key] as? [String: Any])?["stringValue"] as? String == nil { return key }
        if (fields["featured"] as? [String: Any])?["booleanValue"] as? Bool == nil { return "featured" }
        let thumbnail = fields["thumbnail"] as? [String: Any]
        if thumbnail?["stringValue"] as? String == nil && thumbnail?.keys.first != "nullValue" { return "thumbnail" }
        return isTimestamp(fields["createdAt"]) ? nil : "createdAt"
    }

    static func isInteger(_ value: Any?) -> Bool {
        ((value as? [String: Any])?["integerValue"] as? String).flatMap(Int.init) != nil
    }

    static func isTimestamp(_ value: Any?) -> Bool {
        ((value as? [String: Any])?["timestampValue"] as? String).map { $0.hasSuffix("Z") } ?? false
    }

    /// Firestore holds exactly the catalog's courses, each one the app keeps, with the catalog's integers.
    static func expectCatalogHeld(_ emulator: FirestoreEmulator, project: String, _ scratch: Scratch) throws {
        let held = try emulator.documents(project: project, collection: "courses")
        let courses = try catalogCourses(scratch)
        #expect(Set(held.keys) == Set(courses.compactMap { $0["id"] as? String }))
        #expect(held.values.compactMap { appRejects(course: $0.fields) }.isEmpty)
        for course in courses.prefix(50) {
            let fields = try #require(held[course["id"] as? String ?? ""]?.fields)
            #expect((fields["number"] as? [String: Any])?["integerValue"] as? String == "\(course["number"] ?? "")")
            #expect((fields["credits"] as? [String: Any])?["integerValue"] as? String == "\(course["credits"] ?? "")")
            #expect((fields["rubricsUrl"] as? [String: Any])?["stringValue"] as? String == (course["rubricsUrl"] as? String ?? ""))
        }
    }

    @Test func uhCatalog41Then44PublishesExactlyTheDiff() async throws {
        let emulator = try await emulator(), project = "demo-uh-editions", scratch = Scratch()
        try await Self.run(Self.uh.appendingPathComponent("41"), system: "acalog", into: scratch, catalog: "uh")
        let total41 = try Self.catalogCourses(scratch).count
        let first = try await Self.publish(scratch, project: project, host: emulator.hostPort)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.courses == Counts(written: total41, deleted: 0, unchanged: 0))
        #expect(first.news == Counts(written: 0, deleted: 0, unchanged: 0))
        try Self.expectCatalogHeld(emulator, project: project, scratch)
        let again = try await Self.publish(scratch, project: project, host: emulator.hostPort)
        #expect(again.courses == Counts(written: 0, deleted: 0, unchanged: total41))
        let before = try emulator.documents(project: project, collection: "courses")

        try await Self.run(Self.uh.appendingPathComponent("44"), system: "acalog", into: scratch, catalog: "uh")
        let diff = try await Binary.run(["diff", "--snapshots", scratch.out.appendingPathComponent("snapshots/uh").path, "--json"])
        let changes = try #require(try JSONSerialization.jsonObject(with: Data(diff.stdout.utf8)) as? [String: [[String: Any]]])
        func ids(_ key: String, _ field: String = "id") -> Set<String> { Set((changes[key] ?? []).compactMap { $0[field] as? String }) }
        let expectedWritten = ids("added").union(ids("changed")).union(ids("renumbered"))
        let expectedDeleted = ids("removed").union(ids("renumbered", "fromId"))
        #expect(!ids("added").isEmpty && !ids("changed").isEmpty && !ids("renumbered").isEmpty && !ids("removed").isEmpty)

        // A dry run says what the publish would do and writes nothing.
        let dryRun = try await Self.publish(scratch, project: project, host: emulator.hostPort, extra: ["--dry-run"])
        #expect(dryRun.status == 0 && dryRun.courses?.written == expectedWritten.count && dryRun.courses?.deleted == expectedDeleted.count)
        #expect(try emulator.documents(project: project, collection: "courses").mapValues(\.updateTime) == before.mapValues(\.updateTime))

        let second = try await Self.publish(scratch, project: project, host: emulator.hostPort)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.courses?.written == expectedWritten.count)
        #expect(second.courses?.deleted == expectedDeleted.count)
        let after = try emulator.documents(project: project, collection: "courses")
        let rewritten = Set(after.filter { before[$0.key]?.updateTime != $0.value.updateTime }.keys)
        #expect(rewritten == expectedWritten)
        #expect(Set(before.keys).subtracting(after.keys) == expectedDeleted)
        try Self.expectCatalogHeld(emulator, project: project, scratch)

        let newsFile = try JSONSerialization.jsonObject(with: Data(contentsOf: scratch.out.appendingPathComponent("news.json"))) as? [String: Any]
        let newsIDs = Set(try #require(newsFile?["news"] as? [[String: Any]]).compactMap { $0["id"] as? String })
        #expect(second.news == Counts(written: newsIDs.count, deleted: 0, unchanged: 0))
        let news = try emulator.documents(project: project, collection: "news")
        #expect(Set(news.keys) == newsIDs && newsIDs.count == ids("added").count)
        #expect(news.values.compactMap { Self.appRejects(news: $0.fields) }.isEmpty)

        let third = try await Self.publish(scratch, project: project, host: emulator.hostPort)
        #expect(third.courses?.written == 0 && third.courses?.deleted == 0 && third.news?.written == 0)
    }

    @Test func throttlingAndUnavailabilityAreRetriedThroughAProxy() async throws {
        let emulator = try await emulator(), project = "demo-faults", scratch = Scratch()
        try await Self.run(Self.gvsuPages, system: "gvsu", into: scratch, catalog: "gvsu")
        let proxy = try LoopbackHTTPServer()
        proxy.forward(toPort: emulator.port)
        proxy.start()
        defer { proxy.stop() }
        let commit = "/v1/projects/\(project)/databases/(default)/documents:commit"
        let listing = "/v1/projects/\(project)/databases/(default)/documents/courses"
        proxy.setFaults([.status(503, times: 2), .tooManyRequests(retryAfter: "0", times: 2)], for: commit)
        proxy.setFault(.status(503, times: 1), for: listing)
        let published = try await Self.publish(scratch, project: project, host: "127.0.0.1:\(proxy.port)")
        #expect(published.status == 0, "\(published.stderr)")
        #expect(proxy.requestCount(path: commit) == 5)
        #expect(published.courses?.written == (try Self.catalogCourses(scratch).count))
        try Self.expectCatalogHeld(emulator, project: project, scratch)

        // Still unavailable at the deadline: a temporary failure, saying what Firestore answered.
        proxy.setFault(.status(503, times: .max), for: listing)
        let refused = try await Self.publish(scratch, project: project, host: "127.0.0.1:\(proxy.port)", extra: ["--deadline", "2"])
        #expect(refused.status == 75)
        #expect(refused.stderr.contains("HTTP 503") && refused.stderr.contains("deadline"))
    }

    /// Starts `gvingest publish` without waiting for it.
    static func launchPublish(_ scratch: Scratch, project: String, host: String, extra: [String]) throws -> Process {
        let process = Process()
        process.executableURL = Binary.url
        process.arguments = ["publish", "--firestore", project, "--out", scratch.out.path] + extra
        process.environment = ProcessInfo.processInfo.environment.merging(["FIRESTORE_EMULATOR_HOST": host]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits until the first commit has landed (at most 60 s).
    /// A proxy in front of the emulator that holds each of `project`'s commits back by `latency` seconds, started;
    /// the caller stops it.
    static func slowCommitProxy(_ emulator: FirestoreEmulator, project: String, latency: Double) throws -> LoopbackHTTPServer {
        let proxy = try LoopbackHTTPServer()
        proxy.forward(toPort: emulator.port)
        proxy.setFault(.latency(seconds: latency), for: "/v1/projects/\(project)/databases/(default)/documents:commit")
        proxy.start()
        return proxy
    }

    static func waitForFirstCommit(_ emulator: FirestoreEmulator, project: String) async throws {
        let deadline = Date().addingTimeInterval(60)
        while try !emulator.hasDocuments(project: project, collection: "courses") {
            try #require(Date() < deadline, "no commit reached the emulator")
            try await Task.sleep(nanoseconds: 20_000_000)
        }
    }

    @Test func aPublishKilledMidwayConvergesOnTheNextOne() async throws {
        let emulator = try await emulator(), project = "demo-killed-publish", scratch = Scratch()
        try await Self.run(Self.uh.appendingPathComponent("41"), system: "acalog", into: scratch, catalog: "uh")
        let total = try Self.catalogCourses(scratch).count
        // One commit at a time, each held back by the proxy, so the kill lands between two of them.
        let proxy = try Self.slowCommitProxy(emulator, project: project, latency: 0.5)
        defer { proxy.stop() }
        let publish = try Self.launchPublish(scratch, project: project, host: "127.0.0.1:\(proxy.port)", extra: ["--parallel", "1"])
        try await Self.waitForFirstCommit(emulator, project: project)
        kill(publish.processIdentifier, SIGKILL)
        try await Binary.offThePool { publish.waitUntilExit() }
        #expect(publish.terminationReason == .uncaughtSignal)
        let held = try emulator.documents(project: project, collection: "courses").count
        #expect(held > 0 && held < total)

        let next = try await Self.publish(scratch, project: project, host: emulator.hostPort)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.courses == Counts(written: total - held, deleted: 0, unchanged: held))
        try Self.expectCatalogHeld(emulator, project: project, scratch)
        await #expect(try Self.publish(scratch, project: project, host: emulator.hostPort).courses?.written == 0)
    }

    @Test func anEmulatorRestartedMidwayThenASecondPublishConverges() async throws {
        let emulator = try await emulator(), project = "demo-restarted", scratch = Scratch()
        // A marker: documents in another project, which the restart must lose too.
        let marker = Scratch()
        try await Self.run(Self.gvsuPages, system: "gvsu", into: marker, catalog: "gvsu")
        await #expect(try Self.publish(marker, project: "demo-restart-marker", host: emulator.hostPort).status == 0)
        try await Self.run(Self.uh.appendingPathComponent("41"), system: "acalog", into: scratch, catalog: "uh")
        let total = try Self.catalogCourses(scratch).count
        // Commits held back by a proxy, so the kill lands before the last of them; while the emulator is down the
        // proxy answers 502, as a load balancer would.
        let proxy = try Self.slowCommitProxy(emulator, project: project, latency: 0.3)
        defer { proxy.stop() }
        let publish = try Self.launchPublish(scratch, project: project, host: "127.0.0.1:\(proxy.port)", extra: ["--parallel", "1", "--deadline", "180"])
        try await Self.waitForFirstCommit(emulator, project: project)
        // The emulator keeps its data in memory: what was committed before the kill is gone after the restart.
        try await Binary.offThePool {
            emulator.stop()
            try emulator.start()
            publish.waitUntilExit()
        }
        #expect(publish.terminationStatus == 0)
        #expect(try !emulator.hasDocuments(project: "demo-restart-marker", collection: "courses"))
        // The commits that landed before the kill are lost, unless their answer was lost too and they were sent again.
        let held = try emulator.documents(project: project, collection: "courses").count
        #expect(held > 0 && held <= total)

        let second = try await Self.publish(scratch, project: project, host: emulator.hostPort)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.courses == Counts(written: total - held, deleted: 0, unchanged: held))
        try Self.expectCatalogHeld(emulator, project: project, scratch)
    }
}
