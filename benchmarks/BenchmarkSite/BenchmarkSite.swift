import Foundation
import LoopbackServer

/// The crawl benchmarks' site: one listing page linking to course pages, each with an ETag.
///
/// Defined once so the in-process crawl (gvingest-fetch-bench), the standalone server that gvingest and
/// Scrapy crawl (gvingest-bench-server), the trivial client (gvingest-server-bench) and, through
/// `--write-site`, Python's http.server all serve byte-identical pages.
public enum BenchmarkSite {
    public static let listingPath = "/catalog/subject/benchmark.htm"
    public static let firstNumber = 100

    public static func coursePath(_ number: Int) -> String { "/catalog/course/ben-\(number).htm" }

    /// The paths of `pages` course pages, in listing order.
    public static func coursePaths(pages: Int) -> [String] {
        (firstNumber..<(firstNumber + pages)).map(coursePath)
    }

    static func page(_ number: Int) -> String {
        """
        <!DOCTYPE html><html><head><meta charset="utf-8"><title>BEN \(number)</title></head><body><div id="content">
        <p>2025-2026 Undergraduate &amp; Graduate Catalog</p><h1>BEN \(number) - Benchmark Course \(number)</h1>
        <p>A course that exists to be fetched. It covers crawling, caching and politeness in some depth, with enough prose
        to make the page a realistic size for a catalog entry. Offered fall semester. Prerequisite: <a href="\(coursePath(max(firstNumber, number - 1)))">BEN \(max(firstNumber, number - 1))</a>.</p>
        <p><strong>Credits:</strong> 3</p></div></body></html>
        """
    }

    /// Every page of the site by path; robots.txt is deliberately absent, so it is a 404.
    public static func resources(pages: Int) -> [String: Resource] {
        var resources: [String: Resource] = [:]
        var listing = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body><h1>Benchmark (BEN)</h1><ul>"
        for number in firstNumber..<(firstNumber + pages) {
            listing += "<li><a href=\"\(coursePath(number))\">BEN \(number) - Benchmark Course \(number)</a></li>"
            resources[coursePath(number)] = Resource(body: Data(page(number).utf8), etag: "\"ben-\(number)-v1\"")
        }
        resources[listingPath] = Resource(body: Data((listing + "</ul></body></html>").utf8), etag: "\"listing-v1\"")
        return resources
    }

    /// Serves the site with every full response taking `latency` seconds to render (a 304 takes none).
    public static func serve(on server: LoopbackHTTPServer, pages: Int, latency: Double) {
        server.setResources(resources(pages: pages))
        server.setFault(.renderLatency(seconds: latency), for: LoopbackHTTPServer.allPaths)
    }
}
