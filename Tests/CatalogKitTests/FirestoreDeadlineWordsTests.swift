import Foundation
import LoopbackServer
import Testing
@testable import CatalogKit

/// Issue 39: a Firestore error says whether it stopped at the deadline or before it, and why.
@Suite(.serialized) struct FirestoreDeadlineWordsTests {
    /// A 503 asking for a wait past the deadline was reported as "gave up … at the deadline" with most of the deadline
    /// left; it says it stopped early and why. The words as plain values: a loopback server under every suite at once
    /// made the time left depend on the machine's load.
    @Test func stoppingBeforeTheDeadlineIsNotCalledReachingIt() {
        let early = FirestoreClient.whyStopped(attempts: 1, left: 27.6, wait: 30.04, deadlineSeconds: 28, cancelled: false)
        #expect(early == "gave up after 1 attempt, 28 s before the deadline of 28 s: the next try was due in 30 s, past it")
        #expect(FirestoreClient.whyStopped(attempts: 3, left: 0.4, wait: 2, deadlineSeconds: 28, cancelled: false)
                == "gave up after 3 attempts, at the deadline of 28 s")
        #expect(FirestoreClient.whyStopped(attempts: 2, left: 20, wait: 1, deadlineSeconds: 28, cancelled: true)
                == "stopped after 2 attempts: the publish was cancelled")
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
