import Foundation
import SafeLibXML

/// Acalog (Modern Campus Catalog): course pages `preview_course_nopop.php` (`h1#course_preview_title` in
/// `td.block_content`), expanded listings of `td.coursepadding` blocks with an `h3`, and listing pages
/// `content.php?catoid=…&navoid=…` with a pager (`filter[cpage]=N`).
public struct AcalogParser: CatalogParser {
    public let system = CatalogSystem.acalog

    public init() {}

    // An id lookup is a hash lookup; `//h1[@id=…]` walks the whole page. (libxml2 keeps the first of a repeated id.)
    static let fullPageHeadingXPath = "id('course_preview_title')[self::h1]"
    /// Every course heading of a full page (an id may be repeated on a broken page).
    static let allFullPageHeadingsXPath = "//h1[@id='course_preview_title']"
    // Inline blocks and their headings (`(.//h3 | .//h2 | .//h4)[1]`) are found by a walk, far cheaper than XPath.
    static let inlineHeadingNames = ["h3", "h2", "h4"]
    static let courseLinkXPath = "//a[contains(@href, 'preview_course_nopop.php') or contains(@href, 'preview_course.php')]"
    static let pagerLinkXPath = "//a[contains(@href, 'filter[cpage]=') or contains(@href, 'filter%5Bcpage%5D=')]"

    public var lookedFor: [String] {
        ["\(Self.fullPageHeadingXPath) (a course page)",
         "td.coursepadding with an \(Self.inlineHeadingNames.joined(separator: "/")) heading (inline blocks)",
         "\(Self.courseLinkXPath) (a listing)"]
    }

    public func recognizes(_ page: PageContext) -> Bool {
        let url = page.pageURLText
        if url.containsBytes("preview_course_nopop.php") || url.containsBytes("content.php?catoid=") { return true }
        let document = page.document
        return document.contains(Self.fullPageHeadingXPath)
            || !Self.inlineBlocks(in: document).isEmpty
            || document.contains(Self.courseLinkXPath)
    }

    public func courses(in page: PageContext) throws -> PageCourses {
        var found = PageCourses()
        for heading in try page.document.select(Self.fullPageHeadingXPath) {
            try found.add(course(heading: heading, page: page, rule: "h1#course_preview_title"),
                          orNote: "the course heading h1#course_preview_title", at: heading, text: heading.text)
        }
        for block in Self.inlineBlocks(in: page.document) {
            guard let heading = block.descendants(named: Self.inlineHeadingNames, limit: 1).first else {
                found.noteUnreadable("a course block td.coursepadding with no heading", at: block, text: block.text)
                continue
            }
            try found.add(course(heading: heading, page: page, rule: "td.coursepadding//\(heading.name)"),
                          orNote: "the heading of course block td.coursepadding", at: heading, text: heading.text)
        }
        return found
    }

    static func inlineBlocks(in document: HTMLDocument) -> [HTMLNode] {
        document.elements(named: ["td"]) { $0.hasClass("coursepadding") }
    }

    private func course(heading: HTMLNode, page: PageContext, rule: String) throws -> ParsedCourse? {
        guard let parsed = CourseHeading.parse(heading.text) else { return nil }
        let where_ = "\(rule) at \(heading.path)"
        var course = try ParsedCourse.begun(from: heading, parsed: parsed, page: page, system: system, place: where_)
        let container = heading.parent ?? page.document.root
        let scope = "after \(where_)"
        // A rule under the heading parts its header ("Offered by …", no description) from the body, unless it is
        // far down, has only links below it (a footer's), follows a line too long for a header, or has less
        // unlabelled text below it than above (a fee or a note below the description).
        var segments: [ContentSegment]?
        if let separator = heading.nextSibling(named: "hr", within: Self.headerElementLimit) {
            let below = Self.courseBody(container?.inlineEvents(after: separator) ?? [])
            let header = LabelledContent.segments(from: heading.inlineEventsOfSiblings(before: separator))
            let headerLines = header.filter { $0.label == nil }
            if Self.holdsText(below), !headerLines.contains(where: { $0.text.utf8.count > Self.longestHeaderLine }) {
                let belowSegments = LabelledContent.segments(from: below)
                let unlabelledBytes = { (segments: [ContentSegment]) in
                    segments.reduce(0) { $0 + ($1.label == nil ? $1.text.utf8.count : 0) }
                }
                if headerLines.isEmpty || unlabelledBytes(belowSegments) > unlabelledBytes(headerLines) {
                    course.assemble(header, scope: scope,
                                    unlabelledAsNotes: "unlabelled text between the heading and its <hr>")
                    segments = belowSegments
                }
            }
        }
        let body = segments ?? LabelledContent.segments(from: Self.courseBody(container?.inlineEvents(after: heading) ?? []))
        course.assemble(body, scope: scope)
        course.takeCredits(parsed.credits, rule: "parenthesis at the end of the heading \(where_)")
        return course
    }

    /// Whether the events hold text outside links (a footer under a rule holds only links).
    static func holdsText(_ events: [InlineEvent]) -> Bool {
        var inLink = false
        return events.contains { event in
            switch event {
            case .startLink: inLink = true
            case .endLink: inLink = false
            case let .text(text): return !inLink && text.utf8.contains { $0 > 0x20 }
            default: break
            }
            return false
        }
    }

    /// How many elements may stand between a heading and the rule that closes its header (UH's hold seven).
    static let headerElementLimit = 12
    /// The longest unlabelled line a header holds ("Offered by Computer Science"); a longer one is prose.
    static let longestHeaderLine = 80

    /// The course's own content, without the page tools that follow it ("Back to Top", "Print-Friendly Page").
    static func courseBody(_ events: [InlineEvent]) -> [InlineEvent] {
        let end = events.firstIndex { event in
            guard case let .startLink(href, _) = event else { return false }
            return href == "#top" || href.hasSuffix("&print") || href.hasSuffix("?print")
        }
        return end.map { Array(events[..<$0]) } ?? events
    }

    public func listing(in page: PageContext) throws -> CourseListing? {
        // The blocks of a course's own text, found once: asking it of every link would be quadratic.
        let courseBlocks = try page.document.select(Self.allFullPageHeadingsXPath).flatMap { heading in
            Self.ancestors(of: heading).filter { $0.name == "td" && $0.hasClass("block_content") }
        }
        // Links inside a course's own text are its requisites, not listing entries.
        let courses = try page.listedCourses(Self.courseLinkXPath) { anchor, _, heading in
            heading != nil && !Self.ancestors(of: anchor).contains { ancestor in
                ancestor.name == "td" && (ancestor.hasClass("coursepadding") || courseBlocks.contains { $0.isSame(as: ancestor) })
            }
        }
        var pages: [Int: String] = [:]
        for anchor in try page.document.select(Self.pagerLinkXPath) {
            guard let href = anchor.attribute("href"), let number = pagerPage(of: href),
                  let url = anchor.link() else { continue }
            pages[number] = pages[number] ?? url.absoluteString
        }
        guard !courses.isEmpty || !pages.isEmpty else { return nil }
        let pageCount = max(1, pages.keys.max() ?? 1)
        let heading = try page.document.first("(//h1 | //h2)[1]")?.text
        return CourseListing(heading: heading, subjectCode: nil, courses: courses, pageCount: pageCount,
                             pageLinks: pages.keys.sorted().compactMap { pages[$0] })
    }

    static func ancestors(of node: HTMLNode) -> [HTMLNode] {
        Array(sequence(first: node) { $0.parent }.dropFirst())
    }

    public func pagerPage(of url: String) -> Int? {
        Self.pagerDigits(in: url).flatMap { Int(url[$0]) }
    }

    public func pagerURL(_ template: String, page: Int) -> URL? {
        guard let digits = Self.pagerDigits(in: template) else { return nil }
        return URL(string: template.replacingCharacters(in: digits, with: String(page)))
    }

    /// Pages of one pager share everything but their `filter[cpage]`.
    public func pagerKey(_ url: URL) -> String {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url.absoluteString }
        parts.queryItems = parts.queryItems?.filter { $0.name != "filter[cpage]" }
        return parts.url?.absoluteString ?? url.absoluteString
    }

    /// Where the N of `filter[cpage]=N` stands in a link (brackets raw or percent-encoded).
    private static func pagerDigits(in href: String) -> Range<String.Index>? {
        for key in ["filter[cpage]=", "filter%5Bcpage%5D=", "filter%5bcpage%5d="] {
            guard let range = href.range(of: key) else { continue }
            let digits = href[range.upperBound...].prefix(while: \.isASCIIDigit)
            return range.upperBound..<digits.endIndex
        }
        return nil
    }
}
