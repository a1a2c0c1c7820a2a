import Foundation
import SafeLibXML

/// A parsed page as parsers see it: the document, where it was read from, and the URL it stands for.
public struct PageContext {
    public let document: HTMLDocument
    /// The page's own URL: for a saved file, the URL it declares for itself; otherwise the one it was read from.
    public let pageURL: URL
    /// Which rule gave `pageURL`, for provenance.
    public let pageURLRule: String
    /// Where the bytes came from (`file://…`, `https://…`) and `pageURL`, as text (Foundation builds it per call).
    public let sourceURLText: String
    public let pageURLText: String

    /// Wraps a document; a saved file that declares its URL gets its links resolved against that URL.
    public init(document: HTMLDocument, sourceURL: URL) {
        self.document = document
        sourceURLText = sourceURL.absoluteString
        if sourceURL.isFileURL, let (declared, rule) = Self.declaredURL(in: document) {
            pageURL = declared
            pageURLRule = rule
            // A declared URL is http(s) and the source a file, so the two never match.
            pageURLText = declared.absoluteString
            document.rebase(to: declared)
        } else {
            pageURL = sourceURL
            pageURLRule = sourceURL.isFileURL ? "the file it was read from" : "the URL it was fetched from"
            pageURLText = sourceURLText
        }
    }

    /// How a saved page says where it came from, most specific first: a walk (cheaper than the XPath shown) and a rule.
    static let declaredURLRules: [(find: @Sendable (HTMLDocument) -> String?, rule: String)] = [
        // /html/head/link[@rel='canonical']/@href
        ({ headValue($0, element: "link", where: "rel", is: "canonical", take: "href") }, "<link rel=canonical>"),
        // /html/head/meta[@property='og:url']/@content
        ({ headValue($0, element: "meta", where: "property", is: "og:url", take: "content") }, "<meta property=og:url>"),
        // The cougargrades archive of UH pages records the page's URL in a hidden metadata span:
        // (//div[@class='edu-uh-publications-metadata']/span[@title='scrape_url'])[1]
        ({ document in
            document.elements(named: ["span"], limit: 1) { span in
                guard span.attribute("title") == "scrape_url", let parent = span.parent else { return false }
                return parent.name == "div" && parent.attribute("class") == "edu-uh-publications-metadata"
            }.first?.text
        }, "archive metadata span[title=scrape_url]"),
    ]

    /// `/html/head/ELEMENT[@KEY='VALUE']/@TAKEN`: the first such attribute of an element directly in the head.
    private static func headValue(_ document: HTMLDocument, element: String, where key: String, is value: String,
                                  take taken: String) -> String? {
        document.headChildren(named: [element]).lazy.filter { $0.attribute(key) == value }.compactMap { $0.attribute(taken) }.first
    }

    static func declaredURL(in document: HTMLDocument) -> (URL, String)? {
        for (find, rule) in declaredURLRules {
            guard let url = find(document).flatMap({ URL(string: TextCollapsing.collapse($0)) }),
                  ["http", "https"].contains(url.scheme?.lowercased()) else { continue }
            return (url, rule)
        }
        return nil
    }

    var pageURLString: String? { pageURLText == sourceURLText ? nil : pageURLText }

    /// A listing's entries: the links `xpath` selects that `keep` takes, one per URL, their text read as a heading.
    func listedCourses(_ xpath: String, keep: (HTMLNode, URL, CourseHeading.Parsed?) -> Bool = { _, _, _ in true })
        throws -> [ListedCourse] {
        var seen: Set<String> = []
        return try document.select(xpath).compactMap { anchor in
            let heading = CourseHeading.parse(anchor.text)
            guard let url = anchor.link(), keep(anchor, url, heading),
                  seen.insert(url.absoluteString).inserted else { return nil }
            let title = heading.flatMap { $0.title.isEmpty ? nil : $0.title }
            return ListedCourse(code: heading?.code.description, title: title, creditsText: heading?.credits,
                                url: url.absoluteString)
        }
    }
}

/// The courses a page holds, and the course elements whose code could not be read (none is dropped in silence).
public struct PageCourses: Sendable {
    public var courses: [ParsedCourse] = []
    /// One line each: which element, where, and the text it held.
    public var unreadable: [String] = []

    /// Notes a course element whose code did not read; `text` is what it held, as `HTMLNode.text` gives it.
    mutating func noteUnreadable(_ element: String, at node: HTMLNode, text: String) {
        unreadable.append("\(element) at \(node.path) holds no course code: \"\(text.count > 80 ? text.prefix(80) + "…" : text)\"")
    }

    /// Adds `course`, or, when there is none (its code did not read), notes `element` as unreadable.
    mutating func add(_ course: ParsedCourse?, orNote element: String, at node: HTMLNode,
                      text: @autoclosure () throws -> String) rethrows {
        if let course { courses.append(course) } else { noteUnreadable(element, at: node, text: try text()) }
    }
}

/// One catalog system's reading of course pages and listing pages.
public protocol CatalogParser: Sendable {
    var system: CatalogSystem { get }
    /// Whether the page carries this system's marks (for `--system auto`).
    func recognizes(_ page: PageContext) -> Bool
    /// Every course on the page: one for a course page, several for an expanded listing, none otherwise.
    func courses(in page: PageContext) throws -> PageCourses
    /// The course links and pager of a listing page, or nil when the page is not a listing.
    func listing(in page: PageContext) throws -> CourseListing?
    /// The number of the page a listing page's URL is, in a pager numbered in its URLs; nil where it has none.
    func pagerPage(of url: String) -> Int?
    /// The URL of page `page` of the pager `template` (a page of it) belongs to; nil where pages have no numbers.
    func pagerURL(_ template: String, page: Int) -> URL?
    /// What every page of one pager has in common: its URL without the page number.
    func pagerKey(_ url: URL) -> String
    /// Where it looks for courses and listings, in words and XPaths, for "no course found" to name what matched nothing.
    var lookedFor: [String] { get }
    /// What the page is, when it is one of this system's pages that hold no course (an A–Z index, a fragment).
    func courseLessPage(_ document: HTMLDocument) -> String?
}

extension CatalogParser {
    public func listing(in page: PageContext) throws -> CourseListing? { nil }
    public func pagerPage(of url: String) -> Int? { nil }
    public func pagerURL(_ template: String, page: Int) -> URL? { nil }
    public func pagerKey(_ url: URL) -> String { url.absoluteString }
    public func courseLessPage(_ document: HTMLDocument) -> String? { nil }

    /// The XPath predicate that the class list holds `name` as a whole word (`courseblockextra` is not `courseblock`).
    static func hasClass(_ name: String) -> String {
        "contains(concat(' ', normalize-space(@class), ' '), ' \(name) ')"
    }
}

/// The parsers gvingest ships, by system.
public enum CatalogParsers {
    /// In the order `--system auto` asks them: the most specific marks first.
    public static let all: [any CatalogParser] = [AcalogParser(), CourseLeafParser(), BannerParser(), GVSUParser()]

    public static func parser(for system: CatalogSystem) -> any CatalogParser {
        all.first { $0.system == system } ?? GVSUParser()
    }
}
