import BenchmarkSite
import CatalogKit
import Foundation
import LoopbackServer

// Crawl benchmark (not a test): 1,000 course pages behind one listing on a loopback server that takes
// 50 ms to render each page, fetched at concurrency 16; then the same crawl again with the cache,
// where every page is a conditional request the server answers 304 without rendering.
//
//   swift run -c release gvingest-fetch-bench [PAGES] [LATENCY_MS] [CONCURRENCY]

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let pages = arguments.count > 0 ? arguments[0] : 1000
let latency = Double(arguments.count > 1 ? arguments[1] : 50) / 1000
let concurrency = arguments.count > 2 ? arguments[2] : 16

do {
    let server = try LoopbackHTTPServer()
    server.start()
    defer { server.stop() }
    BenchmarkSite.serve(on: server, pages: pages, latency: latency)

    let cache = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-fetch-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: cache) }
    var settings = FetchSettings()
    settings.concurrency = concurrency
    settings.perHostConcurrency = concurrency
    settings.minimumDelayMilliseconds = 0
    settings.cacheDirectory = cache
    guard let start = server.url(BenchmarkSite.listingPath) else { throw CocoaError(.fileNoSuchFile) }

    func crawl() async -> (CrawlReport, Double) {
        let fetcher = HTTPFetcher(settings: settings, startURLs: [server.baseURL])
        let crawler = Crawler(source: fetcher, parser: PageParser(system: .fixed(.gvsu)), settings: settings, honourRobots: true)
        let began = ProcessInfo.processInfo.systemUptime
        let report = await crawler.crawl(start: [start])
        return (report, ProcessInfo.processInfo.systemUptime - began)
    }

    let bound = Double(pages) * latency / Double(concurrency)
    let (first, firstTime) = await crawl()
    let (second, secondTime) = await crawl()
    print("pages: \(pages) course pages + 1 listing, render latency \(Int(latency * 1000)) ms, concurrency \(concurrency)")
    print(String(format: "bound %d x %.3f / %d          %.3f s", pages, latency, concurrency, bound))
    print(String(format: "first crawl             %.3f s  (%.2f x bound)  %d fetched, %d failed, %d bytes, %d courses",
                 firstTime, firstTime / bound, first.pagesFetched, first.pagesFailed, first.bytes,
                 first.coursePages.reduce(0) { $0 + $1.courses.count }))
    print(String(format: "re-run with the cache   %.3f s  (%.1f %% of the first)  %d not modified, %d body bytes",
                 secondTime, secondTime / firstTime * 100, second.notModified, second.bytes))
    print("server: \(server.totalRequests) requests over \(server.connectionsAccepted) connections, max \(server.maxInFlightRequests) in flight")
    if first.pagesFailed > 0 || second.pagesFailed > 0 { exit(1) }
} catch {
    FileHandle.standardError.write(Data("gvingest-fetch-bench: \(error)\n".utf8))
    exit(1)
}
