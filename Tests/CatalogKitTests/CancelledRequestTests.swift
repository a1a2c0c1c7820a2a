import Foundation
import LoopbackServer
import Synchronization
import Testing
@testable import CatalogKit

/// A crawl's deadline cancels requests at any moment: before their task is made, while it starts, while it
/// runs. Each must end, or the run that waits for it never does.
@Suite(.serialized) struct CancelledRequestTests {
    @Test func aRequestCancelledAtAnyMomentStillEnds() async throws {
        let server = try LoopbackHTTPServer()
        server.start()
        defer { server.stop() }
        server.setResources(["/page.htm": Resource(body: Data("<p>page</p>".utf8), contentType: "text/html")])
        server.setFault(.latency(seconds: 0.05), for: "/page.htm")
        let url = try #require(server.url("/page.htm"))
        var settings = CatalogServer.settings()
        settings.maximumAttempts = 1
        let fetcher = HTTPFetcher(settings: settings, startURLs: [url])
        let requests = 400
        let ended = EndedCount()
        for index in 0..<requests {
            let request = Task {
                _ = await fetcher.fetch(url)
                ended.count.withLock { $0 += 1 }
            }
            // Spread over the request's whole life: some before it reaches URLSession, some while it waits
            // for the server.
            if index % 4 != 0 { try await Task.sleep(nanoseconds: UInt64(index % 50) * 20_000) }
            request.cancel()
        }
        let began = ProcessInfo.processInfo.systemUptime
        while ended.count.withLock({ $0 }) < requests, ProcessInfo.processInfo.systemUptime - began < 60 {
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        #expect(ended.count.withLock { $0 } == requests, "requests that never ended: \(requests - ended.count.withLock { $0 })")
    }
}

private final class EndedCount: Sendable {
    let count = Mutex(0)
}
