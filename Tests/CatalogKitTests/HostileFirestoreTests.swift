import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LoopbackServer
import Testing
@testable import CatalogKit

/// A hostile or broken Firestore on 127.0.0.1 (issue 31): the publish's deadline bounds every request and every
/// page, a reply counts only when it is Firestore's, is read up to a cap, and reaches the terminal escaped.
@Suite(.serialized) struct HostileFirestoreTests {
    static let root = "/v1/projects/hostile-test/databases/(default)/documents"

    /// A server standing in for Firestore, and a client of it with `deadline` seconds.
    static func firestore(deadline: Int = 60) throws -> (LoopbackHTTPServer, FirestoreClient) {
        let server = try LoopbackHTTPServer()
        server.start()
        let target = FirestoreTarget(project: "hostile-test", database: "(default)", apiBase: server.url("/v1")!, token: "owner")
        return (server, FirestoreClient(target: target, deadlineSeconds: deadline))
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

    @Test func aCommitCountsOnlyFromACommitResponse() async throws {
        let (server, client) = try Self.firestore()
        defer { server.stop() }
        let writes: [JSONValue] = [.object(["delete": .string("\(Self.root)/courses/a")])]
        for (body, counted) in [("71 written", false), (#"{"commitTime": "2026-01-01T00:00:00Z"}"#, false),
                                (#"{"writeResults": [{}, {}], "commitTime": "2026-01-01T00:00:00Z"}"#, false),
                                (#"{"writeResults": [{}], "commitTime": "2026-01-01T00:00:00Z"}"#, true)] {
            server["\(Self.root):commit"] = Resource(body, contentType: "application/json")
            let failure = await Self.failure { try await client.commit(writes) }
            #expect((failure == nil) == counted, "\(body): \(String(describing: failure?.message))")
            #expect(failure == nil || failure?.cause == .unavailable && failure?.message.contains("405") == false)
        }
    }

    /// 256 MiB was the cap, and a 2 GB reply cost 634 MB.
    @Test func aReplyIsReadUpToItsCap() async throws {
        let (server, client) = try Self.firestore()
        defer { server.stop() }
        server.setFault(.endlessBody, for: "\(Self.root)/courses")
        #expect(HostileServerTests.resetPeakMemory())
        let before = HostileServerTests.memory("VmRSS")
        let failure = await Self.failure { _ = try await client.list(collection: "courses") }
        #expect(failure?.message.contains("larger than 64 MiB") == true, "\(String(describing: failure))")
        // The peak is the whole test process's: suites running beside this one add theirs.
        let grown = HostileServerTests.memory("VmHWM") - before
        #expect(grown < 384 << 20, "peak grew by \(grown >> 20) MiB")
    }

    @Test func anErrorBodyReachesTheTerminalEscaped() {
        let response = HTTPURLResponse(url: URL(string: "http://127.0.0.1/v1")!, statusCode: 400, httpVersion: "HTTP/1.1", headerFields: [:])
        for body in ["\u{1B}]0;owned\u{07}\u{202E}text", #"{"error": {"message": "\u001B[2J\u202Etext"}}"#] {
            guard case let .failure(error) = FirestoreClient.judge(RawResponse(response: response, body: Array(body.utf8))) else {
                Issue.record("a 400 succeeded")
                continue
            }
            let unescaped = error.message.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{202E}" }
            #expect(!unescaped, "\(error.message)")
            #expect(error.message.contains("\\u{1B}") && error.message.contains("\\u{202E}text"), "\(error.message)")
        }
    }
}
