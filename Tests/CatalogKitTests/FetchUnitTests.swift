import Foundation
import Testing
@testable import CatalogKit

@Suite struct RobotsPolicyTests {
    static let text = """
    # comment
    User-agent: *
    Disallow: /private/
    Allow: /private/open.htm

    User-agent: gvingest
    User-agent: othertool
    Disallow: /catalog/*.pdf$
    Disallow: /search
    Crawl-delay: 2
    """

    @Test func ourGroupWinsOverTheWildcard() {
        let policy = RobotsPolicy(parsing: Self.text, userAgent: FetchSettings().userAgent)
        #expect(!policy.allows("/catalog/rules.pdf"))
        #expect(policy.allows("/catalog/rules.pdf?x=1"))
        #expect(!policy.allows("/search?q=cis"))
        #expect(policy.allows("/private/anything"))
        #expect(policy.crawlDelay == 2)
    }

    @Test func theWildcardGroupAppliesToOthersAndTheLongestRuleWins() {
        let policy = RobotsPolicy(parsing: Self.text, userAgent: "somebot/1.0")
        #expect(!policy.allows("/private/x"))
        #expect(policy.allows("/private/open.htm"))
        #expect(policy.allows("/catalog/course/cis-162.htm"))
    }

    @Test func emptyAndHostileFilesAllowWhatTheySay() {
        #expect(RobotsPolicy(parsing: "", userAgent: "gvingest").allows("/x"))
        #expect(RobotsPolicy(parsing: "User-agent: *\nDisallow:\n", userAgent: "gvingest").allows("/x"))
        let stars = "User-agent: *\nDisallow: /" + String(repeating: "*", count: 40) + "x$\n"
        #expect(RobotsPolicy(parsing: stars, userAgent: "gvingest").allows("/" + String(repeating: "a", count: 60)))
    }
}

@Suite struct FetchHelperTests {
    @Test(arguments: [
        ("HTTP://WWW.GVSU.EDU:80/catalog/./course/../course/cis-162.htm#top", "http://www.gvsu.edu/catalog/course/cis-162.htm"),
        ("https://www.gvsu.edu", "https://www.gvsu.edu/"),
        ("https://x.edu:443/a?b=1&c=2", "https://x.edu/a?b=1&c=2"),
    ])
    func urlsAreNormalized(_ input: String, _ expected: String) throws {
        #expect(URLNormalizer.normalize(try #require(URL(string: input))).absoluteString == expected)
    }

    @Test func retryAfterReadsSecondsAndDates() throws {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(RetryAfter.seconds(from: "120", now: now) == 120)
        #expect(RetryAfter.seconds(from: "Tue, 14 Nov 2023 22:13:40 GMT", now: now) == 20)
        #expect(RetryAfter.seconds(from: "Tue, 14 Nov 2023 22:00:00 GMT", now: now) == 0)
        #expect(RetryAfter.seconds(from: "soon", now: now) == nil)
    }

    @Test func backoffIsJitteredBelowAGrowingCapAndRetryAfterIsAFloor() {
        var settings = FetchSettings()
        settings.backoffBaseMilliseconds = 100
        settings.backoffMaximumMilliseconds = 1000
        settings.retryAfterMaximumSeconds = 5
        let fetcher = HTTPFetcher(settings: settings)
        for attempt in 1...6 {
            let cap = min(1.0, 0.1 * pow(2, Double(attempt - 1)))
            for _ in 0..<50 { #expect((0...cap).contains(fetcher.backoff(attempt: attempt, retryAfter: nil))) }
        }
        #expect(fetcher.backoff(attempt: 1, retryAfter: 3) >= 3)
        #expect(fetcher.backoff(attempt: 1, retryAfter: 3600) <= 5.1)
    }

    @Test func cacheEntriesRoundTripAndATornOneIsAMiss() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = ResponseCache(directory: directory)
        let url = URL(string: "https://x.edu/a")!
        let entry = FetchedPage(url: url, finalURL: url, status: 200, contentType: "text/html", etag: "\"1\"",
                                lastModified: nil, body: Array("<p>body\nwith lines</p>".utf8))
        try cache.store(entry)
        #expect(cache.load(url) == entry)
        #expect(cache.load(URL(string: "https://x.edu/b")!) == nil)
        // A file cut short (as a killed writer without the rename would leave it) is not trusted.
        let file = cache.file(for: "https://x.edu/a")
        let bytes = try Data(contentsOf: file)
        try bytes.prefix(bytes.count - 3).write(to: file)
        #expect(cache.load(url) == nil)
        // No temporary files are left behind.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test func pagerURLsAreMadeFromATemplate() {
        let template = "https://c.edu/content.php?catoid=10&navoid=600&filter%5Bcpage%5D=3#acalog_template_course_filter"
        #expect(AcalogParser().pagerURL(template, page: 6)?.absoluteString
                == "https://c.edu/content.php?catoid=10&navoid=600&filter%5Bcpage%5D=6#acalog_template_course_filter")
        #expect(AcalogParser().pagerURL("https://c.edu/content.php?x=1", page: 2) == nil)
    }
}

/// Crawling a recorded mirror: no network at all.
@Suite struct ReplayTests {
    @Test func theRecordedFixtureCatalogCrawlsOffline() async throws {
        let mirror = try MirrorSource(directory: TestPaths.gvsuFixtures)
        let starts = mirror.index.startURLs.compactMap(URL.init(string:))
        #expect(starts.count == 6)
        let crawler = Crawler(source: mirror, parser: PageParser(system: .fixed(.gvsu)), settings: FetchSettings(), honourRobots: false)
        let report = await crawler.crawl(start: starts)
        #expect(report.pagesExpected == 77)
        #expect(report.pagesFetched == 77)
        #expect(report.failures.isEmpty)
        #expect(report.listingPages == 6)
        #expect(report.coursePages.reduce(0) { $0 + $1.courses.count } == 71)
    }

    @Test func aPageMissingFromTheMirrorIsAFailureWithItsReason() async throws {
        let mirror = try MirrorSource(directory: TestPaths.gvsuFixtures)
        let missing = try #require(URL(string: "https://www.gvsu.edu/catalog/course/cis-999.htm"))
        guard case let .failure(failure) = await mirror.fetch(missing) else {
            Issue.record("expected a failure")
            return
        }
        #expect(failure.status == 404)
        #expect(failure.reason.contains("not in the mirror"))
    }
}
