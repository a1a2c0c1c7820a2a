import Foundation
import LoopbackServer
@testable import SafeLibXML
import Testing
@testable import CatalogKit

/// The recorded GVSU catalog served on 127.0.0.1, with its links pointed at the server.
final class CatalogServer: Sendable {
    let server: LoopbackHTTPServer
    /// Server paths of the subject pages (the crawl's start) and of every page.
    let subjectPaths: [String]
    let allPaths: [String]

    init() throws {
        server = try LoopbackHTTPServer()
        server.start()
        let root = TestPaths.gvsuFixtures
        let index = try MirrorIndex.load(from: root)
        var resources: [String: Resource] = [:]
        for (url, entry) in index.pages {
            guard let path = URL(string: url)?.path else { continue }
            var body = try Data(contentsOf: root.appendingPathComponent(entry.file))
            // The pages link to www.gvsu.edu here and there; on the test server they link to it instead.
            if let text = String(data: body, encoding: .utf8) {
                body = Data(text.replacingOccurrences(of: "https://www.gvsu.edu", with: server.baseURLString).utf8)
            } else {
                body = Data(String(decoding: body, as: UTF8.self).isEmpty ? [] : Array(body))
            }
            resources[path] = Resource(body: body, contentType: entry.contentType)
        }
        resources["/robots.txt"] = Resource(body: Data("User-agent: *\nDisallow: /private/\n".utf8), contentType: "text/plain")
        server.setResources(resources)
        subjectPaths = index.startURLs.compactMap { URL(string: $0)?.path }.sorted()
        allPaths = index.pages.keys.compactMap { URL(string: $0)?.path }.filter { $0 != "/catalog/2019-2020/course/mth-345.htm" }.sorted()
    }

    var startURLs: [URL] { subjectPaths.compactMap { server.url($0) } }

    static func settings(cache: URL? = nil) -> FetchSettings {
        var settings = FetchSettings()
        settings.concurrency = 8
        settings.perHostConcurrency = 8
        settings.minimumDelayMilliseconds = 0
        // Generous: under ThreadSanitizer, with every suite running at once, this crawl has taken 160 s; the
        // tests that are about timeouts and deadlines set their own.
        settings.requestTimeoutSeconds = 5
        settings.deadlineSeconds = 600
        settings.maximumAttempts = 4
        settings.backoffBaseMilliseconds = 10
        settings.backoffMaximumMilliseconds = 50
        settings.retryAfterMaximumSeconds = 2
        settings.maximumBodyBytes = 1 << 20
        settings.cacheDirectory = cache
        return settings
    }

    /// The crawl from the subject pages, or from the server paths `start`.
    func crawl(settings: FetchSettings = CatalogServer.settings(), robots: Bool = true, start: [String]? = nil) async -> CrawlReport {
        let urls = start.map { $0.compactMap { server.url($0) } } ?? startURLs
        let fetcher = HTTPFetcher(settings: settings, startURLs: urls)
        let crawler = Crawler(source: fetcher, parser: PageParser(system: .fixed(.gvsu)), settings: settings, honourRobots: robots)
        return await crawler.crawl(start: urls)
    }
}

/// Faults injected per path on a real loopback server; each test checks the outcome and that no other page was lost.
@Suite(.serialized) struct FetchFaultTests {
    static let catalog: CatalogServer? = try? CatalogServer()
    static let total = 77

    func fresh() throws -> CatalogServer {
        let catalog = try #require(Self.catalog)
        catalog.server.clearAllFaults()
        catalog.server.resetStatistics()
        return catalog
    }

    func expectNothingElseLost(_ report: CrawlReport, except failed: Set<String> = [], file: String = #fileID) {
        #expect(report.pagesExpected == Self.total)
        #expect(report.pagesFetched == Self.total - failed.count)
        #expect(Set(report.failures.map { URL(string: $0.url)?.path ?? "" }) == failed)
        #expect(report.coursePages.reduce(0) { $0 + $1.courses.count } == 71 - failed.filter { $0.contains("/course/") }.count)
    }

    @Test func aCleanCrawlFetchesEveryPageOnce() async throws {
        let catalog = try fresh()
        let report = await catalog.crawl()
        expectNothingElseLost(report)
        #expect(report.retries == 0)
        for path in catalog.allPaths { #expect(catalog.server.requestCount(path: path) == 1, "\(path)") }
        #expect(catalog.server.requestCount(path: "/robots.txt") == 1)
        let agents = Set(catalog.server.allRequests.compactMap { $0.headers["user-agent"] })
        #expect(agents == [FetchSettings().userAgent])
        // Every request, not only some: a request without the header would be left out of `agents`.
        #expect(catalog.server.allRequests.allSatisfy { $0.headers["user-agent"] == FetchSettings().userAgent })
    }

    @Test func latencyIsWaitedOut() async throws {
        let catalog = try fresh()
        catalog.server.setFault(.latency(seconds: 0.3), for: "/catalog/course/cis-452.htm")
        expectNothingElseLost(await catalog.crawl())
    }

    @Test(arguments: [500, 503])
    func serverErrorsAreRetriedAndRecover(_ status: Int) async throws {
        let catalog = try fresh()
        catalog.server.setFault(.status(status, times: 2), for: "/catalog/course/cis-163.htm")
        let report = await catalog.crawl()
        expectNothingElseLost(report)
        #expect(catalog.server.requestCount(path: "/catalog/course/cis-163.htm") == 3)
        #expect(report.retries == 2)
    }

    @Test func aServerErrorThatPersistsIsRecordedAfterTheLastAttempt() async throws {
        let catalog = try fresh()
        catalog.server.setFault(.status(503, times: .max), for: "/catalog/course/cis-163.htm")
        let report = await catalog.crawl()
        expectNothingElseLost(report, except: ["/catalog/course/cis-163.htm"])
        #expect(catalog.server.requestCount(path: "/catalog/course/cis-163.htm") == 4)
        #expect(report.failures.first?.reason == "HTTP 503 (gave up after 4 attempts)")
    }

    @Test func tooManyRequestsHonoursRetryAfterInSeconds() async throws {
        let catalog = try fresh()
        catalog.server.setFault(.tooManyRequests(retryAfter: "1", times: 1), for: "/catalog/course/mth-201.htm")
        let report = await catalog.crawl()
        expectNothingElseLost(report)
        let times = catalog.server.requests(path: "/catalog/course/mth-201.htm").map(\.time)
        #expect(times.count == 2)
        if times.count == 2 { #expect(times[1].timeIntervalSince(times[0]) >= 0.95) }
    }

    @Test func tooManyRequestsHonoursRetryAfterAsADate() async throws {
        let catalog = try fresh()
        // An HTTP-date has whole seconds, and the crawl reaches this page some time after the date is made (long, on a
        // loaded machine): an hour ahead is still far beyond the cap of two seconds whenever it gets there, so the
        // wait is the cap, where a date not understood would give the backoff's milliseconds.
        let when = Resource.httpDate(Date().addingTimeInterval(3600))
        catalog.server.setFault(.tooManyRequests(retryAfter: when, times: 1), for: "/catalog/course/mth-202.htm")
        let report = await catalog.crawl()
        expectNothingElseLost(report)
        let times = catalog.server.requests(path: "/catalog/course/mth-202.htm").map(\.time)
        #expect(times.count == 2)
        if times.count == 2 { #expect(times[1].timeIntervalSince(times[0]) >= 1.0) }
    }

    @Test func aConnectionResetIsRetried() async throws {
        let catalog = try fresh()
        catalog.server.setFault(.reset(times: 1), for: "/catalog/course/sta-215.htm")
        let report = await catalog.crawl()
        expectNothingElseLost(report)
        #expect(catalog.server.requestCount(path: "/catalog/course/sta-215.htm") == 2)
    }

    @Test func aTruncatedBodyIsRetried() async throws {
        let catalog = try fresh()
        catalog.server.setFault(.truncated(times: 1), for: "/catalog/course/wrt-150.htm")
        let report = await catalog.crawl()
        expectNothingElseLost(report)
        #expect(catalog.server.requestCount(path: "/catalog/course/wrt-150.htm") == 2)
    }

    @Test func aSlowDripStillArrivesWhole() async throws {
        let catalog = try fresh()
        catalog.server.setFault(.slowDrip(bytesPerChunk: 512, interval: 0.02), for: "/catalog/course/bio-120.htm")
        let report = await catalog.crawl()
        expectNothingElseLost(report)
        let page = report.coursePages.first { $0.sourceURL.hasSuffix("/catalog/course/bio-120.htm") }
        #expect(page?.courses.first?.code.description == "BIO 120")
    }

    @Test func aSlowDripPastTheTimeoutFails() async throws {
        let catalog = try fresh()
        var settings = CatalogServer.settings()
        // Under a sanitizer, with every suite running at once, a healthy page can take seconds (CI once lost cis-499
        // to a single 1 s attempt); three attempts of 3 s each save it, while the drip misses every deadline.
        settings.maximumAttempts = 3
        settings.requestTimeoutSeconds = 3
        catalog.server.setFault(.slowDrip(bytesPerChunk: 16, interval: 1.5), for: "/catalog/course/bio-120.htm")
        let report = await catalog.crawl(settings: settings)
        expectNothingElseLost(report, except: ["/catalog/course/bio-120.htm"])
        #expect(report.failures.first?.reason.contains("timed out") == true)
        #expect(catalog.server.requestCount(path: "/catalog/course/bio-120.htm") == 3)
    }

    @Test func aRedirectLoopIsCutAtTheLimit() async throws {
        let catalog = try fresh()
        catalog.server.setFault(.redirect(to: "/loop-b", status: 302), for: "/catalog/course/chm-115.htm")
        catalog.server.setFault(.redirect(to: "/catalog/course/chm-115.htm", status: 302), for: "/loop-b")
        let report = await catalog.crawl()
        expectNothingElseLost(report, except: ["/catalog/course/chm-115.htm"])
        #expect(report.failures.first?.reason.contains("redirects") == true)
        #expect(catalog.server.requestCount(path: "/catalog/course/chm-115.htm") <= 4)
    }

    @Test func aRedirectToAnotherHostIsRefused() async throws {
        let catalog = try fresh()
        catalog.server.setFault(.redirect(to: "http://127.0.0.2:9/catalog/course/chm-116.htm", status: 301),
                                for: "/catalog/course/chm-116.htm")
        let report = await catalog.crawl()
        expectNothingElseLost(report, except: ["/catalog/course/chm-116.htm"])
        #expect(report.failures.first?.reason.contains("refused: origin http://127.0.0.2:9 is not allowed") == true)
        #expect(catalog.server.requestCount(path: "/catalog/course/chm-116.htm") == 1)
    }

    @Test func anOversizedBodyIsCutOffAndRecorded() async throws {
        let catalog = try fresh()
        catalog.server.setFault(.oversized(bytes: 3 << 20), for: "/catalog/course/mth-110.htm")
        let report = await catalog.crawl()
        expectNothingElseLost(report, except: ["/catalog/course/mth-110.htm"])
        #expect(report.failures.first?.reason == "body larger than 1048576 bytes; cut off")
        #expect(report.bytes < 2 << 20)
    }

    @Test func aWrongOrMissingCharsetIsDecidedByTheHeaderThenThePage() async throws {
        let catalog = try fresh()
        // The Windows-1252 page served with no Content-Type: its <meta> decides.
        catalog.server.setFault(.contentType(nil), for: "/catalog/course/wrt-219.htm")
        // A UTF-8 page served as text/html without a charset: its <meta charset=utf-8> decides.
        catalog.server.setFault(.contentType("text/html"), for: "/catalog/course/wrt-350.htm")
        let report = await catalog.crawl()
        expectNothingElseLost(report)
        let creative = report.coursePages.first { $0.sourceURL.hasSuffix("wrt-219.htm") }?.courses.first
        #expect(creative?.description.contains("“classics”") == true)
        #expect(creative?.description.contains("Aimé Césaire") == true)
        let special = report.coursePages.first { $0.sourceURL.hasSuffix("wrt-350.htm") }
        #expect(special?.charset == CharsetChoice(name: "utf-8", source: .metaTag))
        #expect(special?.courses.first?.title.contains("&") == true)

        // A header that lies wins over the page, as browsers do: the page comes out garbled, not lost.
        catalog.server.setFault(.contentType("text/html; charset=utf-8"), for: "/catalog/course/wrt-219.htm")
        let lied = await catalog.crawl()
        expectNothingElseLost(lied)
        let garbled = lied.coursePages.first { $0.sourceURL.hasSuffix("wrt-219.htm") }
        #expect(garbled?.charset == CharsetChoice(name: "utf-8", source: .httpHeader))
        #expect(garbled?.courses.first?.description.contains("\u{FFFD}") == true)
    }

    @Test func aCompressedBodyIsDecodedNotTakenForATruncatedOne() async throws {
        let catalog = try fresh()
        let path = "/catalog/course/cis-350.htm"
        let original = try #require(catalog.server[path])
        defer { catalog.server.setResource(original, for: path) }
        // gzip from the system, so the bytes are what a real server sends.
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gzip.arguments = ["-c", "-n"]
        let input = Pipe(), output = Pipe()
        gzip.standardInput = input
        gzip.standardOutput = output
        try gzip.run()
        input.fileHandleForWriting.write(original.body)
        try input.fileHandleForWriting.close()
        let compressed = output.fileHandleForReading.readDataToEndOfFile()
        gzip.waitUntilExit()
        #expect(!compressed.isEmpty && compressed.count != original.body.count)
        var resource = Resource(body: compressed, contentType: original.contentType)
        resource.headers["Content-Encoding"] = "gzip"
        catalog.server.setResource(resource, for: path)
        let report = await catalog.crawl()
        expectNothingElseLost(report)
        #expect(report.coursePages.first { $0.sourceURL.hasSuffix(path) }?.courses.first?.code.description == "CIS 350")
        #expect(catalog.server.requestCount(path: path) == 1)
    }

    @Test func etagsTurnARerunIntoConditionalRequests() async throws {
        let catalog = try fresh()
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let path = "/catalog/course/cis-241.htm"
        var resource = try #require(catalog.server[path])
        resource.etag = "\"v1\""
        catalog.server.setResource(resource, for: path)
        let first = await catalog.crawl(settings: CatalogServer.settings(cache: cache))
        expectNothingElseLost(first)
        #expect(first.notModified == 0)
        let second = await catalog.crawl(settings: CatalogServer.settings(cache: cache))
        expectNothingElseLost(second)
        #expect(second.notModified == 1)
        let requests = catalog.server.requests(path: path)
        #expect(requests.count == 2)
        #expect(requests.last?.headers["if-none-match"] == "\"v1\"")
        let course = second.coursePages.first { $0.sourceURL.hasSuffix(path) }?.courses.first
        #expect(course?.code.description == "CIS 241")
    }

    @Test func robotsTxtIsHonoured() async throws {
        let catalog = try fresh()
        let original = try #require(catalog.server["/robots.txt"])
        defer { catalog.server.setResource(original, for: "/robots.txt") }
        catalog.server.setResource(Resource(body: Data("User-agent: gvingest\nDisallow: /catalog/course/sta-\n".utf8),
                                            contentType: "text/plain"), for: "/robots.txt")
        let report = await catalog.crawl()
        let blocked = Set(catalog.allPaths.filter { $0.hasPrefix("/catalog/course/sta-") })
        #expect(!blocked.isEmpty)
        expectNothingElseLost(report, except: blocked)
        #expect(report.failures.allSatisfy { $0.reason.contains("disallowed by robots.txt") })
        for path in blocked { #expect(catalog.server.requestCount(path: path) == 0) }
        let ignoring = await catalog.crawl(robots: false)
        expectNothingElseLost(ignoring)
    }
}
