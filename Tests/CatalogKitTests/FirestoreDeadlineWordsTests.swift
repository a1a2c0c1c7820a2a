import Foundation
import LoopbackServer
import Testing
@testable import CatalogKit

/// Issue 39: a Firestore error says whether it stopped at the deadline or before it, and why.
@Suite(.serialized) struct FirestoreDeadlineWordsTests {
    /// A 503 asking for a wait past the deadline (Retry-After is taken up to 30 s) was reported as "gave up … at the
    /// deadline" with most of the deadline left; it says it stopped early and why.
    @Test func stoppingBeforeTheDeadlineIsNotCalledReachingIt() async throws {
        let (server, client) = try HostileFirestoreTests.firestore(deadline: 28)
        defer { server.stop() }
        server.setFaults([.reply(status: 503, json: #"{"error": {"status": "UNAVAILABLE", "message": "busy"}}"#, times: .max),
                          .header(name: "Retry-After", value: "30")], for: "\(HostileFirestoreTests.root)/courses")
        let failure = await HostileFirestoreTests.failure { _ = try await client.list(collection: "courses") }
        let message = failure?.message ?? ""
        #expect(failure?.cause == .temporary && !message.contains("at the deadline"), "\(message)")
        #expect(message.contains("before the deadline of 28 s") && message.contains("the next try was due in 30 s"), "\(message)")
        #expect(server.totalRequests == 1)
    }

    /// At the deadline it still says so.
    @Test func reachingTheDeadlineSaysSo() async throws {
        let (server, client) = try HostileFirestoreTests.firestore(deadline: 1)
        defer { server.stop() }
        server.setFault(.headerDrip(interval: 30), for: "\(HostileFirestoreTests.root)/courses")
        let failure = await HostileFirestoreTests.failure { _ = try await client.list(collection: "courses") }
        #expect(failure?.message.contains("deadline") == true && failure?.message.contains("before the deadline") == false,
                "\(String(describing: failure?.message))")
    }
}
