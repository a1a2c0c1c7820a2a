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

func page(_ number: Int) -> String {
    """
    <!DOCTYPE html><html><head><meta charset="utf-8"><title>BEN \(number)</title></head><body><div id="content">
    <p>2025-2026 Undergraduate &amp; Graduate Catalog</p><h1>BEN \(number) - Benchmark Course \(number)</h1>
    <p>A course that exists to be fetched. It covers crawling, caching and politeness in some depth, with enough prose
    to make the page a realistic size for a catalog entry. Offered fall semester. Prerequisite: <a href="/catalog/course/ben-\(max(100, number - 1)).htm">BEN \(max(100, number - 1))</a>.</p>
    <p><strong>Credits:</strong> 3</p></div></body></html>
    """
}

do {
    let server = try LoopbackHTTPServer()
    server.start()
    defer { server.stop() }
    var resources: [String: Resource] = [:]
    var listing = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body><h1>Benchmark (BEN)</h1><ul>"
    for number in 100..<(100 + pages) {
        listing += "<li><a href=\"/catalog/course/ben-\(number).htm\">BEN \(number) - Benchmark Course \(number)</a></li>"
        resources["/catalog/course/ben-\(number).htm"] = Resource(body: Data(page(number).utf8), etag: "\"ben-\(number)-v1\"")
    }
    resources["/catalog/subject/benchmark.htm"] = Resource(body: Data((listing + "</ul></body></html>").utf8), etag: "\"listing-v1\"")
    server.setResources(resources)
    server.setFault(.renderLatency(seconds: latency), for: LoopbackHTTPServer.allPaths)

    let cache = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-fetch-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: cache) }
    var settings = FetchSettings()
    settings.concurrency = concurrency
    settings.perHostConcurrency = concurrency
    settings.minimumDelayMilliseconds = 0
    settings.cacheDirectory = cache
    guard let start = server.url("/catalog/subject/benchmark.htm") else { throw CocoaError(.fileNoSuchFile) }

    func crawl() async -> (CrawlReport, Double) {
        let fetcher = HTTPFetcher(settings: settings, hosts: ["127.0.0.1"])
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
