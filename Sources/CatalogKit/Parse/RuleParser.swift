import Foundation
import SafeLibXML

/// A catalog's layout as data (`catalogs[].rules` in pipeline.json; `gvingest parse --rules FILE`).
public struct ParseRules: Sendable, Equatable {
    /// XPath of each course's element in a page.
    public var course: String
    /// XPath, from the course's element, of its code ("CIS 162", or a heading "CIS 162 - Title (3)").
    public var code: String
    /// XPaths, from the course's element, of single fields; nil: read from the heading or by label.
    public var title: String?
    public var credits: String?
    public var description: String?
    public var prerequisite: String?
    public var corequisite: String?
    /// Label patterns (regular expressions matching a whole label, any case) and the field each means.
    public var labels: [LabelRule]
    /// XPath of a listing page's links to course pages, and of its links to its other pages.
    public var listingCourses: String?
    public var listingPages: String?

    public struct LabelRule: Sendable, Equatable {
        public let pattern: String
        public let field: String
        /// The pattern compiled once, anchored and case-insensitive: a rule is asked about every label of every page.
        let expression: NSRegularExpression?

        init(pattern: String, field: String) {
            self.pattern = pattern
            self.field = field
            expression = try? NSRegularExpression(pattern: "^(?:\(pattern))$", options: [.caseInsensitive])
        }
    }

    /// The fields a label pattern may name, and the label the shared reader knows each by.
    static let labelFields: [String: String] = [
        "credits": "Credits", "prerequisite": "Prerequisite", "corequisite": "Corequisite", "description": "Description",
        "offered": "Offered", "contactHours": "Contact Hours",
    ]

    public init(course: String, code: String) {
        self.course = course
        self.code = code
        labels = []
    }

    func field(forLabel label: String) -> String? {
        let range = NSRange(label.startIndex..., in: label)
        return labels.first { $0.expression?.firstMatch(in: label, range: range) != nil }?.field
    }
}

extension ParseRules: ConfigDecodable {
    /// Reads rules from configuration JSON, reporting every problem (an unknown key, a bad XPath) at its path.
    init(config: ConfigValue) throws {
        let fields: [(key: String, keyPath: WritableKeyPath<ParseRules, String?>)] = [
            ("title", \.title), ("credits", \.credits), ("description", \.description),
            ("prerequisite", \.prerequisite), ("corequisite", \.corequisite),
        ]
        let object = try config.object(allowing: ["course", "code", "labels", "listing"] + fields.map(\.key))
        func xpath(_ value: ConfigValue?) -> String? {
            value?.string { text in
                do {
                    _ = try HTMLDocument(bytes: Array("<html><body></body></html>".utf8)).select(text)
                    return nil
                } catch {
                    return "expected an XPath: \(error)"
                }
            }
        }
        let course = xpath(object.required("course")), code = xpath(object.required("code"))
        self.init(course: course ?? "", code: code ?? "")
        for (key, keyPath) in fields { self[keyPath: keyPath] = xpath(object[key]) }
        if let map = object["labels"]?.object() {
            for pattern in map.keys {
                guard let value = map[pattern, quoted: true] else { continue }
                if (try? NSRegularExpression(pattern: pattern)) == nil { value.fail("expected a regular expression, got \"\(pattern)\"") }
                if let field = value.oneOf(Self.labelFields.keys.sorted()) { labels.append(LabelRule(pattern: pattern, field: field)) }
            }
        }
        if let listing = object["listing"]?.object(allowed: ["courses", "pages"]) {
            listingCourses = xpath(listing.required("courses"))
            listingPages = xpath(listing["pages"])
        }
        guard course != nil, code != nil else { throw ConfigContext.Incomplete() }
    }
}

/// Reads pages by a catalog's `ParseRules`; the records carry the catalog's system.
public struct RuleParser: CatalogParser {
    public let rules: ParseRules
    public let system: CatalogSystem

    public var lookedFor: [String] { ["rules.course \(rules.course)"] + (rules.listingCourses.map { ["rules.listing.courses \($0)"] } ?? []) }

    public func recognizes(_ page: PageContext) -> Bool {
        page.document.contains(rules.course)
    }

    public func courses(in page: PageContext) throws -> PageCourses {
        var found = PageCourses()
        for node in try page.document.select(rules.course) {
            if let course = try course(node, page: page) {
                found.courses.append(course)
            } else {
                let codeText = try node.first(rules.code)?.text
                found.noteUnreadable(codeText == nil ? "a course (rules.course) whose rules.code matched nothing"
                                                     : "the code (rules.code) of a course (rules.course)",
                                     at: node, text: codeText ?? node.text)
            }
        }
        return found
    }

    private func course(_ node: HTMLNode, page: PageContext) throws -> ParsedCourse? {
        guard let codeNode = try node.first(rules.code) else { return nil }
        let heading = CourseHeading.parseSplittingCredits(codeNode.text)
        guard let code = heading?.code ?? CourseCode(parsing: codeNode.text) else { return nil }
        let codeRule = "rules.code \(rules.code) at \(codeNode.path)"
        var course = ParsedCourse(code: code, title: heading?.title ?? "", sourceURL: page.sourceURLText, system: system)
        course.pageURL = page.pageURLString
        course.provenance["code"] = codeRule
        if heading?.title.isEmpty == false { course.provenance["title"] = "\(codeRule), text after the code" }

        // The body after the code, read by label; the rules' own label patterns name fields first.
        let segments = LabelledContent.segments(from: node.inlineEvents(after: codeNode)).map { segment -> ContentSegment in
            guard let label = segment.label, let field = rules.field(forLabel: label),
                  let known = ParseRules.labelFields[field] else { return segment }
            var renamed = segment
            renamed.writtenLabel = segment.writtenLabel ?? label
            renamed.label = known
            renamed.rule = "rules.labels: \"\(label)\" means \(field)"
            return renamed
        }
        course.assemble(segments, scope: "after the code at \(codeNode.path)")
        course.takeCredits(heading?.credits, rule: "\(codeRule), credits at its end")
        course.noteCreditsCap(heading?.creditsCap, rule: "\(codeRule), after the slash that follows its credits")

        // Fields the rules point at directly win over what the body gave.
        let texts = [("title", rules.title, \ParsedCourse.title), ("description", rules.description, \.description)]
        for (key, xpath, keyPath) in texts {
            guard let xpath, let found = try node.first(xpath), !found.text.isEmpty else { continue }
            course[keyPath: keyPath] = found.text
            course.provenance[key] = "rules.\(key) \(xpath) at \(found.path)"
        }
        if let xpath = rules.credits, let found = try node.first(xpath), !found.text.isEmpty {
            let phrase = CourseHeading.trailingCreditPhrase(found.text)
            course.creditsText = phrase?.credits ?? found.text
            course.provenance["credits"] = "rules.credits \(xpath) at \(found.path)"
            course.noteCreditsCap(phrase?.cap, rule: "rules.credits \(xpath) at \(found.path), after the slash that follows the credits")
        }
        // A requisite's text (its label, when it starts with one, left out) and course links.
        let requisites = [
            ("prerequisite", rules.prerequisite, \ParsedCourse.prerequisiteText, \ParsedCourse.prerequisiteLinks),
            ("corequisite", rules.corequisite, \.corequisiteText, \.corequisiteLinks),
        ]
        for (key, xpath, textPath, linksPath) in requisites {
            guard let xpath, let found = try node.first(xpath) else { continue }
            let segments = LabelledContent.segments(from: found.inlineEvents())
            guard let first = segments.first, !first.text.isEmpty else { continue }
            course[keyPath: textPath] = segments.map(\.text).joined(separator: " ")
            course[keyPath: linksPath] = segments.flatMap(ParsedCourse.courseLinks)
            course.provenance[key] = "rules.\(key) \(xpath) at \(found.path)"
        }
        return course
    }

    public func listing(in page: PageContext) throws -> CourseListing? {
        guard let linksXPath = rules.listingCourses else { return nil }
        let courses = try page.listedCourses(linksXPath)
        var pages: [String] = []
        if let pagesXPath = rules.listingPages {
            for anchor in try page.document.select(pagesXPath) {
                if let url = anchor.link()?.absoluteString, !pages.contains(url) { pages.append(url) }
            }
        }
        guard !courses.isEmpty || !pages.isEmpty else { return nil }
        return CourseListing(heading: try page.document.first("(//h1 | //h2)[1]")?.text, subjectCode: nil, courses: courses,
                             pageCount: pages.count + 1, pageLinks: pages)
    }
}
