import Foundation
import LoopbackServer
import Testing
@testable import CatalogKit

/// Every request gvingest makes names it with the configured user agent and gvingest's version (issue 38):
/// Foundation's own "gvingest (unknown version)" never goes out.
@Suite(.serialized) struct UserAgentTests {
    static let configured = "TestCatalogBot/2.5 (+mailto:ops@example.edu)"

    @Test func theVersionIsAppendedOnceToAConfiguredAgent() {
        var settings = FetchSettings()
        #expect(settings.requestUserAgent.hasPrefix("gvingest/\(GVIngestVersion.current) "))
        settings.userAgent = Self.configured
        #expect(settings.requestUserAgent == "\(Self.configured) gvingest/\(GVIngestVersion.current)")
        settings.userAgent = "Other/1 gvingest/\(GVIngestVersion.current)"
        #expect(settings.requestUserAgent == settings.userAgent)
    }

    @Test func fetchFirestoreAndWebhooksSendTheConfiguredAgentWithTheVersion() async throws {
        let server = try LoopbackHTTPServer()
        server.start()
        defer { server.stop() }
        server["/page.htm"] = "<html><body><p>page</p></body></html>"
        server["/v1/projects/agent-test/databases/(default)/documents/courses?pageSize=1000"] = Resource("{}", contentType: "application/json")
        server["/hook"] = Resource("{}", contentType: "application/json")
        var settings = FetchSettings()
        settings.userAgent = Self.configured
        let expected = settings.requestUserAgent

        let fetched = await HTTPFetcher(settings: settings, startURLs: [try #require(server.url("/"))]).fetch(try #require(server.url("/page.htm")))
        #expect((try? fetched.get()) != nil, "\(fetched)")

        let target = FirestoreTarget(project: "agent-test", database: "(default)", apiBase: try #require(server.url("/v1")), token: "t")
        _ = try await FirestoreClient(target: target, deadlineSeconds: 30, userAgent: expected).list(collection: "courses")

        let store = SnapshotStore(directory: FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-ua-\(UUID().uuidString)"))
        var channel = AnnounceChannel(name: "hook", kind: .webhook)
        channel.urlEnv = "AGENT_TEST_HOOK"
        var announce = AnnounceSettings()
        announce.channels = [channel]
        let catalog = CatalogConfig(id: "agent", name: "Agent", system: .gvsu, source: .directory(URL(fileURLWithPath: "/nonexistent")))
        var announcer = Announcer(settings: announce, catalog: catalog, store: store, now: Date())
        announcer.environment = ["AGENT_TEST_HOOK": try #require(server.url("/hook")).absoluteString]
        announcer.userAgent = expected
        var outbox = Outbox(queued: [])
        outbox.pending["hook"] = [announcer.test]
        let reports = await announcer.deliver(outbox, keep: false)
        #expect(reports.map(\.delivered) == [1], "\(reports)")

        let paths = server.allRequests.map(\.path)
        #expect(paths.contains("/page.htm") && paths.contains("/hook") && paths.contains { $0.contains("/documents/courses") }, "\(paths)")
        for request in server.allRequests {
            #expect(request.headers["user-agent"] == expected, "\(request.method) \(request.path): \(request.headers["user-agent"] ?? "none")")
        }
    }
}
