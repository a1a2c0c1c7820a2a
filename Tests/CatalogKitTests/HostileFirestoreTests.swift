import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LoopbackServer
import Testing
@testable import CatalogKit

/// A hostile or broken Firestore on 127.0.0.1 (issue 31): the publish's deadline bounds every request and every
/// page.
@Suite(.serialized) struct HostileFirestoreTests {
    static let root = "/v1/projects/hostile-test/databases/(default)/documents"

    /// A server standing in for Firestore, and a client of it with `deadline` seconds.
    static func firestore(deadline: Int = 60) throws -> (LoopbackHTTPServer, FirestoreClient) {
        let server = try LoopbackHTTPServer()
        server.start()
        let target = FirestoreTarget(project: "hostile-test", database: "(default)", apiBase: server.url("/v1")!, token: "owner")
        return (server, FirestoreClient(target: target, deadlineSeconds: deadline, connections: 1))
    }

    static func failure(_ work: () async throws -> Void) async -> CatalogError? {
        do { try await work() } catch { return error as? CatalogError }
        return nil
    }

    @Test func aRepeatedOrEndlessPageTokenStops() async throws {
        let (server, client) = try Self.firestore()
        defer { server.stop() }
        let document = #"{"name": "projects/hostile-test/databases/(default)/documents/courses/a", "fields": {}}"#
        // Every page, whatever its token, names the same next one.
        let page = Resource(#"{"documents": [\#(document)], "nextPageToken": "again"}"#, contentType: "application/json")
        server["\(Self.root)/courses?pageSize=1000"] = page
        server["\(Self.root)/courses?pageSize=1000&pageToken=again"] = page
        let repeated = await Self.failure { _ = try await client.list(collection: "courses") }
        #expect(repeated?.message.contains("a page seen before") == true, "\(String(describing: repeated?.message))")
        #expect(server.totalRequests == 2)
        // Pages without documents that always name another: more pages than documents.
        server["\(Self.root)/news?pageSize=1000"] = Resource(#"{"nextPageToken": "\u001B[2Jmore"}"#, contentType: "application/json")
        let endless = await Self.failure { _ = try await client.list(collection: "news") }
        #expect(endless?.message.contains("more pages than documents") == true, "\(String(describing: endless?.message))")
        #expect(endless?.message.contains("\\u{1B}[2Jmore") == true && endless?.message.contains("\u{1B}") == false)
        #expect(endless?.cause == .unavailable)
    }

    /// Each request's own limit (60 s) shrinks to what is left of the publish's deadline.
    @Test func aFirestoreThatNeverAnswersEndsAtThePublishDeadline() async throws {
        let (server, client) = try Self.firestore(deadline: 2)
        defer { server.stop() }
        server.setFault(.headerDrip(interval: 30), for: "\(Self.root)/courses")
        let began = ProcessInfo.processInfo.systemUptime
        let failure = await Self.failure { _ = try await client.list(collection: "courses") }
        let took = ProcessInfo.processInfo.systemUptime - began
        #expect(failure?.cause == .temporary && failure?.message.contains("deadline") == true, "\(String(describing: failure))")
        // 60 s before; generous, as every suite runs at once on two cores.
        #expect(took < 40, "took \(took) s")
    }

}
