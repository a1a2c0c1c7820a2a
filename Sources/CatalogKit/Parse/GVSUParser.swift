import Foundation
import SafeLibXML

/// GVSU's own catalog, read by its text layout: the catalog name, a heading "CIS 452 - Title", description
/// paragraphs whose last sentences give hours, terms and requisites, then "Credits: 4" and other labelled lines.
public struct GVSUParser: CatalogParser {
    public let system = CatalogSystem.gvsu

    public init() {}

    static let headingXPath = "//*[self::h1 or self::h2 or self::h3]"

    public func recognizes(_ page: PageContext) -> Bool {
        if let host = page.pageURL.host?.lowercased(), host == "gvsu.edu" || host.hasSuffix(".gvsu.edu") { return true }
        if let (heading, _) = courseHeading(in: page) { return CourseHeading.catalogName(before: heading) != nil }
        // A subject page: links named "CODE - Title" to /catalog/course/ pages.
        let links = (try? page.document.select(Self.courseLinkXPath)) ?? []
        return links.contains { CourseHeading.parse($0.text).map { !$0.title.isEmpty } ?? false }
    }

    /// Links to course pages: GVSU's course URLs are /catalog/[year/]course/slug.htm.
    static let courseLinkXPath = "//a[contains(@href, '/course/') or starts-with(@href, '../course/')]"

    func courseHeading(in page: PageContext) -> (HTMLNode, CourseHeading.Parsed)? {
        let headings = (try? page.document.select(Self.headingXPath)) ?? []
        return headings.lazy.compactMap { heading in CourseHeading.parse(heading.text).map { (heading, $0) } }.first
    }

    public var lookedFor: [String] {
        ["\(Self.headingXPath) holding a course code (a course page)", "\(Self.courseLinkXPath) (a listing)"]
    }

    public func courses(in page: PageContext) throws -> PageCourses {
        guard let (heading, parsed) = courseHeading(in: page) else { return PageCourses() }
        let where_ = "<\(heading.name)> at \(heading.path)"
        var course = try ParsedCourse.begun(from: heading, parsed: parsed, page: page, system: system, place: where_)
        let container = heading.parent ?? page.document.root
        let events = container?.inlineEvents(after: heading) ?? []
        var segments = LabelledContent.segments(from: events)
        // The trailing sentences live in the last prose paragraph before any labelled line.
        if let index = segments.lastIndex(where: { $0.label == nil && !$0.emphasized }) {
            let (description, sentences) = InlineSentences.split(segments[index])
            segments.replaceSubrange(index...index, with: (description.text.isEmpty ? [] : [description]) + sentences)
        }
        course.assemble(segments, scope: "after the heading \(where_)")
        course.takeCredits(parsed.credits, rule: "parenthesis at the end of the heading \(where_)")
        return PageCourses(courses: [course])
    }

    public func listing(in page: PageContext) throws -> CourseListing? {
        if courseHeading(in: page) != nil { return nil }
        let courses = try page.listedCourses(Self.courseLinkXPath) { _, link, heading in
            heading != nil && link.path.contains("/course/")
        }
        guard !courses.isEmpty else { return nil }
        let subject = try page.document.first("//h1").map { Self.subject($0.text) }
        return CourseListing(heading: subject?.name, subjectCode: subject?.code, courses: courses)
    }

    /// "Computer Information Systems (CIS)" → ("Computer Information Systems", "CIS").
    static func subject(_ heading: String) -> (name: String, code: String?) {
        CourseHeading.trailingParenthetical(heading) { inner in
            (2...5).contains(inner.count) && inner.allSatisfy { $0.isUppercase && $0.isLetter }
        }
    }
}
