@testable import CatalogKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// How a failed request is put into words, and when a run's failures are an outage rather than bad data.
struct OutageClassificationTests {
    let url = URL(string: "https://www.gvsu.edu:8443/catalog/subject/biology.htm")!

    @Test(arguments: [
        (URLError.Code.cannotFindHost, "cannot resolve host www.gvsu.edu (DNS lookup failed)"),
        (.cannotConnectToHost, "connection refused by www.gvsu.edu:8443"),
        (.networkConnectionLost, "connection reset by www.gvsu.edu:8443"),
        (.timedOut, "timed out after 30 s waiting for www.gvsu.edu:8443"),
        (.secureConnectionFailed, "TLS failure with www.gvsu.edu:8443: handshake or certificate refused"),
    ])
    func eachKindOfConnectionFailureIsNamed(code: URLError.Code, expected: String) {
        #expect(ConnectionFailure.describe(URLError(code), url: url, timeoutSeconds: 30) == expected)
    }

    @Test func libcurlsTLSLineIsShortened() {
        let error = NSError(domain: NSURLErrorDomain, code: -1,
                            userInfo: [NSLocalizedDescriptionKey: "OpenSSL/3.0.19: error:0A00010B:SSL routines::wrong version number"])
        #expect(ConnectionFailure.describe(error, url: url, timeoutSeconds: 30)
            == "TLS failure with www.gvsu.edu:8443: wrong version number (SSL routines)")
    }

    @Test func foundationsGenericSentenceNeverShows() {
        let error = NSError(domain: NSURLErrorDomain, code: -1,
                            userInfo: [NSLocalizedDescriptionKey: "The operation could not be completed. (NSURLErrorDomain error -1.)"])
        let text = ConnectionFailure.describe(error, url: url, timeoutSeconds: 30)
        #expect(!text.contains("operation could not be completed"))
        #expect(text.contains("www.gvsu.edu:8443"))
    }

    func loaded(fetched: Int, _ failures: [CrawlFailure]) -> CrawlReport {
        CrawlReport(pagesExpected: fetched + failures.count, pagesFetched: fetched, failures: failures)
    }

    @Test func everyPageFailingForAPassingReasonIsAnOutageNamedByItsCommonestCause() throws {
        let dns = "robots.txt of https://www.gvsu.edu could not be fetched: cannot resolve host www.gvsu.edu (DNS lookup failed)"
        let cause = try #require(Outage.cause(of: loaded(fetched: 0, [
            CrawlFailure(url: "https://www.gvsu.edu/a.htm", reason: dns, temporary: true),
            CrawlFailure(url: "https://www.gvsu.edu/b.htm", reason: dns, temporary: true),
            CrawlFailure(url: "https://www.gvsu.edu/c.htm", reason: "HTTP 503", temporary: true),
        ]), allowFailedPages: false))
        #expect(cause.hasPrefix("source unavailable for now: \(dns) (1 other page failed otherwise); 3 of 3 pages"))
        #expect(!cause.contains("guards"))
    }

    @Test func reasonsFailingAsOftenAreDecidedByTheFirstURLWhateverTheOrder() throws {
        let failures = [CrawlFailure(url: "https://www.gvsu.edu/b.htm", reason: "HTTP 503", temporary: true),
                        CrawlFailure(url: "https://www.gvsu.edu/a.htm", reason: "HTTP 502", temporary: true)]
        for order in [failures, failures.reversed()] {
            let cause = try #require(Outage.cause(of: loaded(fetched: 0, order), allowFailedPages: false))
            #expect(cause.hasPrefix("source unavailable for now: HTTP 502 (1 other page failed otherwise)"), "\(cause)")
        }
    }

    @Test func aPermanentFailureOrACompleteCrawlIsNoOutage() {
        #expect(Outage.cause(of: loaded(fetched: 5, []), allowFailedPages: false) == nil)
        #expect(Outage.cause(of: loaded(fetched: 0, [CrawlFailure(url: "u", reason: "HTTP 404", temporary: false),
                                                     CrawlFailure(url: "v", reason: "HTTP 503", temporary: true)]),
                             allowFailedPages: false) == nil)
        // Failed pages allowed and some fetched: the run may publish what it has.
        #expect(Outage.cause(of: loaded(fetched: 3, [CrawlFailure(url: "u", reason: "HTTP 503", temporary: true)]),
                             allowFailedPages: true) == nil)
        #expect(Outage.cause(of: loaded(fetched: 0, [CrawlFailure(url: "u", reason: "HTTP 503", temporary: true)]),
                             allowFailedPages: true) != nil)
    }
}
