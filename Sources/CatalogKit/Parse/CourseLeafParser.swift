import Foundation
import SafeLibXML

/// CourseLeaf (Leepfrog): a subject page holds each course as a `div.courseblock`, with a heading
/// `p.courseblocktitle` (or `span.detail-*`), the description `p.courseblockdesc`, then `p.courseblockextra` fields.
public struct CourseLeafParser: CatalogParser {
    public let system = CatalogSystem.courseleaf

    public init() {}

    static let blockXPath = "//div[\(hasClass("courseblock"))]"
    /// The heading: the title paragraph, or the child of the block holding the `detail-code` span.
    static let headingXPath = "(.//*[\(hasClass("courseblocktitle"))]"
        + " | .//*[\(hasClass("detail-code"))]/ancestor-or-self::*[parent::div[\(hasClass("courseblock"))]])[1]"
    static let detailCodeXPath = "(.//*[\(hasClass("detail-code"))])[1]"
    static let detailTitleXPath = "(.//*[\(hasClass("detail-title"))])[1]"
    static let detailCreditsXPath = "(.//*[\(hasClass("detail-hours_html")) or \(hasClass("detail-credits"))])[1]"
    /// CourseLeaf's own script, which every page of the system loads.
    static let scriptXPath = "//script[contains(@src, 'courseleaf.js')]"

    public func recognizes(_ page: PageContext) -> Bool {
        page.document.contains(Self.blockXPath)
            || page.document.contains(Self.scriptXPath)
    }

    public var lookedFor: [String] { ["\(Self.blockXPath) (course blocks)"] }

    public func courseLessPage(_ document: HTMLDocument) -> String? {
        guard !document.contains(Self.blockXPath),
              document.contains("//*[@id='atozindex' or @id='cl-menu' or contains(@class, 'az_sitemap')]") else { return nil }
        return "a CourseLeaf A–Z index of subjects, which holds no course; parse the subject pages it links to"
    }

    public func courses(in page: PageContext) throws -> PageCourses {
        var found = PageCourses()
        for block in try page.document.select(Self.blockXPath) {
            try found.add(course(block: block, page: page), orNote: "course block div.courseblock", at: block,
                          text: try block.first(Self.headingXPath)?.text ?? block.text)
        }
        return found
    }

    private func course(block: HTMLNode, page: PageContext) throws -> ParsedCourse? {
        guard let headingNode = try block.first(Self.headingXPath),
              let (heading, rules) = try Self.heading(headingNode, at: "div.courseblock at \(block.path)")
        else { return nil }
        var course = ParsedCourse(code: heading.code, title: heading.title, sourceURL: page.sourceURLText, system: system)
        course.pageURL = page.pageURLString
        course.provenance.merge(rules) { first, _ in first }
        var events: [InlineEvent] = []
        var requisites: [ContentSegment] = []
        var description: [(text: String, path: String)] = []
        // Credits read from a line of the body ("(3-0) Cr. 3.", "Credits 1 to 4."): the value, the line and its place.
        var credits: (value: String, line: String, place: String)?
        // A hidden child is the print copy of what the block shows (UC Davis repeats its labelled list in one).
        let shown = block.children.lazy.filter { $0.attribute("hidden") == nil }
        for child in shown.drop(while: { !$0.isSame(as: headingNode) }).dropFirst() {
            if child.hasClass("courseblockdesc") {
                let read = CourseLeafDescription.read(child.inlineEvents())
                if !read.prose.isEmpty { description.append((read.prose, child.path)) }
                requisites += read.requisites
                if credits == nil, let (value, line) = read.credits {
                    credits = (value, line, "the first line of .courseblockdesc at \(child.path)")
                }
            } else {
                events += child.inlineEvents() + [.blockBoundary]
            }
        }
        var segments = LabelledContent.segments(from: events)
        if credits == nil, let (value, line) = CourseLeafDescription.takingCreditsLine(from: &segments) {
            credits = (value, line, "unlabelled text after the course heading at \(headingNode.path)")
        }
        course.assemble(requisites + segments, scope: "after the course heading at \(headingNode.path)")
        if let first = description.first {
            course.description = (description.map(\.text) + [course.description]).filter { !$0.isEmpty }.joined(separator: "\n\n")
            course.provenance["description"] = "p.courseblockdesc at \(first.path)"
        }
        course.takeCredits(heading.credits, rule: rules["credits"])
        course.noteCreditsCap(heading.creditsCap, rule: "\(rules["credits"] ?? "the heading"), after the slash that follows its credits")
        if let credits {
            course.takeCredits(credits.value, rule: "the credits sentence of the line \"\(credits.line)\", \(credits.place)")
            // The rest of that line (cross-listing, contact hours, terms) is no description, but stays in view.
            course.notes.insert(credits.line, at: 0)
            course.provenance["notes"] = course.provenance["notes"] ?? "the line of credits, \(credits.place)"
        }
        return course
    }

    /// Reads a heading, and the rule that found each part: the `detail-*` spans if the site has them, else its text.
    static func heading(_ node: HTMLNode, at place: String) throws -> (CourseHeading.Parsed, rules: [String: String])? {
        if let codeNode = try node.first(detailCodeXPath), let code = CourseCode(parsing: codeNode.text) {
            var heading = CourseHeading.Parsed(code: code, title: "")
            var rules = ["code": "span.detail-code at \(codeNode.path), in \(place)"]
            if let titleNode = try node.first(detailTitleXPath) {
                // "— Data, Logic, & Computing": the dash parts the title from the code; a leading period stays.
                let text = titleNode.text
                heading.title = String(text.drop { $0 != "." && CourseHeading.separators.contains($0) || $0 == " " })
                rules["title"] = "span.detail-title at \(titleNode.path)"
            }
            if let creditsNode = try node.first(detailCreditsXPath) {
                let phrase = CourseHeading.trailingCreditPhrase(creditsNode.text)
                heading.credits = phrase?.credits ?? creditsNode.text
                heading.creditsCap = phrase?.cap
                rules["credits"] = "span.detail-hours_html at \(creditsNode.path)"
            }
            return (heading, rules)
        }
        // "CIS 112  Computer Literacy/Info Mgmt  3 Credit Hours": the credits end the title. The heading's blocks stay
        // apart: not "World3 Credits" for a title and credits in two `div`s.
        let prose = LabelledContent.prose(from: node.inlineEvents())
        let text = prose.utf8.contains(UInt8(ascii: "\n"))
            ? TextCollapsing.collapse(prose.replacingOccurrences(of: "\n", with: " ")) : prose
        guard let parsed = CourseHeading.parseSplittingCredits(text) else { return nil }
        let rule = "p.courseblocktitle at \(node.path), in \(place)"
        var rules = ["code": rule, "title": "\(rule), text after the code"]
        if parsed.credits != nil { rules["credits"] = "\(rule), the credit hours at its end" }
        return (parsed, rules)
    }
}
