import Foundation
import SafeLibXML
import Synchronization

/// Which parser reads a page: one named system, or whichever recognizes the page.
public enum SystemChoice: Sendable, Equatable {
    case auto
    case fixed(CatalogSystem)
    /// A catalog's declarative rules; its records carry the system.
    case rules(ParseRules, CatalogSystem)
}

/// What parsing one page gave: its courses, or its listing, or why neither.
public struct PageResult: Sendable {
    /// The input as the user named it (a path or a URL).
    public var input: String
    public var sourceURL: String
    public var system: CatalogSystem?
    /// Why this system was used ("--system gvsu", "recognized as acalog").
    public var systemRule = ""
    public var charset: CharsetChoice?
    public var pageURL: String?
    public var pageURLRule: String?
    public var courses: [ParsedCourse] = []
    public var listing: CourseListing?
    /// How many problems libxml2 recovered from.
    public var markupIssues = 0
    /// Set when the page could not be parsed at all.
    public var failure: String?
    /// Set when the page could not even be read (a missing file, a failed download).
    public var unreadable = false
    /// Course elements on the page whose code could not be read, one line each (`PageCourses.unreadable`).
    public var unreadableCourses: [String] = []

    public var yieldedRecord: Bool { !courses.isEmpty || !(listing?.courses.isEmpty ?? true) }

    /// Why a page that was read gave no course, for a parse gap.
    public var gapReason: String {
        failure ?? unreadableCourses.first.map { "no course read: \($0)" }
            ?? "no course found on the page (parsed as \(system?.rawValue ?? "nothing"): \(systemRule))"
    }

    public var unreadableCourseWarnings: [String] { unreadableCourses.map { "\(input): \($0)" } }

    /// Fields a course page lacks, one line each, naming the page and the field.
    public var missingFieldWarnings: [String] {
        // Each course read in place: a copy retains every field.
        courses.indices.flatMap { index in
            [("title", courses[index].title.isEmpty), ("credits", courses[index].creditsText == nil),
             ("description", courses[index].description.isEmpty)].filter(\.1).map { field, _ in
                "\(input): \(courses[index].code): no \(field) found"
            }
        }
    }
}

/// The parse stage: bytes of a page in, courses and listing out. Pure: no I/O.
public struct PageParser: Sendable {
    public var system: SystemChoice
    /// The texts the courses of this parser's pages (and its copies') share.
    let sharedTexts = SharedTexts()

    public init(system: SystemChoice = .auto) {
        self.system = system
    }

    public func parse(bytes: [UInt8], sourceURL: URL, input: String, contentType: String? = nil) -> PageResult {
        let document: HTMLDocument
        do {
            document = try HTMLDocument(bytes: bytes, url: sourceURL, contentType: contentType)
        } catch {
            return PageResult(input: input, sourceURL: sourceURL.absoluteString, failure: error.description)
        }
        if document.tooDeep {
            let reason = "elements nest deeper than \(HTMLDocument.maximumDepth) levels, where libxml2 stops reading: "
                + "what follows would be lost, so the page is not read"
            return PageResult(input: input, sourceURL: sourceURL.absoluteString, failure: reason)
        }
        let page = PageContext(document: document, sourceURL: sourceURL)
        var result = PageResult(input: input, sourceURL: page.sourceURLText, charset: document.charset,
                                pageURL: page.pageURLText, pageURLRule: page.pageURLRule,
                                markupIssues: document.issueCount)
        let parser: any CatalogParser
        switch system {
        case let .rules(rules, system):
            parser = RuleParser(rules: rules, system: system)
            result.systemRule = "the catalog's rules"
        case let .fixed(fixed):
            parser = CatalogParsers.parser(for: fixed)
            result.systemRule = "\(fixed.rawValue), as named"
        case .auto:
            guard let recognized = CatalogParsers.all.first(where: { $0.recognizes(page) }) else {
                // Guessing would turn a page of another system into wrong records; say so instead.
                result.systemRule = "no catalog system recognized (Acalog, CourseLeaf, Banner or GVSU marks); name one"
                return result
            }
            parser = recognized
            result.systemRule = "recognized as \(recognized.system.rawValue)"
        }
        result.system = parser.system
        do {
            let found = try parser.courses(in: page)
            result.courses = found.courses
            for index in result.courses.indices { sharedTexts.share(&result.courses[index]) }
            result.unreadableCourses = found.unreadable
            if result.courses.isEmpty { result.listing = try parser.listing(in: page) }
        } catch {
            result.failure = "\(error)"
        }
        return result
    }
}

/// One copy each of the provenance, field labels and catalog name thousands of courses of one layout share.
final class SharedTexts: Sendable {
    private let known = Mutex<Set<String>>([])

    /// Replaces the course's texts with the copies already known, and keeps those not known yet.
    func share(_ course: inout ParsedCourse) {
        known.withLock { known in
            func shared(_ text: String) -> String { known.insert(text).memberAfterInsert }
            var provenance = [String: String](minimumCapacity: course.provenance.count)
            for (key, value) in course.provenance { provenance[shared(key)] = shared(value) }
            course.provenance = provenance
            for index in course.fields.indices { course.fields[index].label = shared(course.fields[index].label) }
            course.catalogName = course.catalogName.map(shared)
        }
    }
}

extension Array where Element == PageResult {
    /// The courses of all pages, in page order, moved out of the results; the results keep no course.
    public mutating func takeCourses() -> [ParsedCourse] {
        var parts = indices.map { page in
            defer { self[page].courses = [] }
            return self[page].courses
        }
        return parts.takeElements()
    }
}
