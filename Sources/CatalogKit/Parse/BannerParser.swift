import Foundation
import SafeLibXML

/// Ellucian Banner's catalog. Banner 8 (`bwckctlg.p_…`) writes each course as a `td.nttitle` row followed by a
/// `td.ntdefault` row: the description, hour lines ("4.000 Credit hours"), then fields labelled by
/// `span.fieldlabeltext`. Banner 9 answers in fragments, of which only `getCatalogDetails` names its course.
public struct BannerParser: CatalogParser {
    public let system = CatalogSystem.banner

    public init() {}

    static let titleXPath = "//td[\(hasClass("nttitle"))]"
    /// The course's body: the `td.ntdefault` of the row after its title's row.
    static let bodyXPath = "ancestor::tr[1]/following-sibling::tr[1]/td[\(hasClass("ntdefault"))]"
    static let banner9DetailsXPath = "//section[@aria-labelledby='catalog'][.//span[@id='subjectCode']]"
    static let banner9XPath = "//section[@aria-labelledby='catalog' or @aria-labelledby='courseDescription' or @aria-labelledby='preReqs' or @aria-labelledby='coReqs']"

    public func recognizes(_ page: PageContext) -> Bool {
        if page.pageURLText.containsBytes("bwckctlg.p_") { return true }
        return page.document.contains(Self.titleXPath)
            || page.document.contains(Self.banner9XPath)
    }

    public var lookedFor: [String] { ["\(Self.titleXPath) (Banner 8)", "\(Self.banner9DetailsXPath) (Banner 9 course details)"] }

    public func courseLessPage(_ document: HTMLDocument) -> String? {
        guard document.contains(Self.banner9XPath), !document.contains(Self.banner9DetailsXPath) else { return nil }
        let fragment = document.contains("//section[@aria-labelledby='coReqs']")
            && !document.contains("//section[@aria-labelledby='courseDescription' or @aria-labelledby='preReqs']")
            ? "corequisites" : "course description or prerequisites"
        return "a Banner 9 fragment (\(fragment)), which does not name its course; "
            + "its course comes from the getCatalogDetails fragment"
    }

    public func courses(in page: PageContext) throws -> PageCourses {
        var found = PageCourses()
        for title in try page.document.select(Self.titleXPath) {
            try found.add(banner8Course(title: title, page: page), orNote: "the course title td.nttitle", at: title,
                          text: title.text)
        }
        for section in try page.document.select(Self.banner9DetailsXPath) {
            if let course = try banner9Course(section: section, page: page) { found.courses.append(course) }
        }
        return found
    }

    private func banner8Course(title: HTMLNode, page: PageContext) throws -> ParsedCourse? {
        guard let heading = CourseHeading.parse(title.text) else { return nil }
        let rule = "td.nttitle at \(title.path)"
        var course = ParsedCourse(code: heading.code, title: heading.title, sourceURL: page.sourceURLText, system: system)
        course.pageURL = page.pageURLString
        course.provenance["code"] = rule
        course.provenance["title"] = "\(rule), text after the code"
        guard let body = try title.first(Self.bodyXPath) else { return course }
        let scope = "in td.ntdefault at \(body.path)"
        let labels = Set(try body.select(".//span[\(Self.hasClass("fieldlabeltext"))]").map(\.text))
        let events = Self.labelledEvents(Self.withoutLoneSectionLinks(body.inlineEvents()), labels: labels)
        // The description is all the text before the hour lines, whatever it starts with ("ELECTIVE DESCRIPTION:").
        let hoursStart = events.firstIndex { $0.text.map { Self.hourLine(TextCollapsing.collapse($0)) != nil } == true }
            ?? events.endIndex
        let description = TextCollapsing.collapse(events[..<hoursStart].compactMap(\.text).joined())
        course.assemble(LabelledContent.segments(from: Array(events[hoursStart...])), scope: scope)
        // `assemble` gives unlabelled text to the description; here those are the hour and department lines.
        let unlabelled = course.description
        course.description = description
        course.provenance["description"] = description.isEmpty ? nil : "text before the hour lines \(scope)"
        Self.sortUnlabelledLines(unlabelled, into: &course, scope: scope)
        return course
    }

    /// Without the link "All Sections for this Course" (`p_disp_listcrse`) alone on its line, which leads to the
    /// schedule; as the value of a label ("Schedule Types: Lecture") it is kept.
    static func withoutLoneSectionLinks(_ events: [InlineEvent]) -> [InlineEvent] {
        func isBreak(_ event: InlineEvent) -> Bool { event == .lineBreak || event == .blockBoundary }
        func isBlank(_ event: InlineEvent) -> Bool { event.text.map(TextCollapsing.isBlank) ?? false }
        var kept: [InlineEvent] = []
        kept.reserveCapacity(events.count)
        var index = 0
        while index < events.count {
            if case let .startLink(href, _) = events[index], href.containsBytes("p_disp_listcrse"),
               let end = events[index...].firstIndex(of: .endLink),
               kept.last(where: { !isBlank($0) }).map(isBreak) ?? true,
               events[(end + 1)...].first(where: { !isBlank($0) }).map(isBreak) ?? true {
                index = end + 1
                continue
            }
            kept.append(events[index])
            index += 1
        }
        return kept
    }

    /// The events with each `span.fieldlabeltext` in emphasis, so "Prerequisites:<br>…" reads as a label.
    static func labelledEvents(_ events: [InlineEvent], labels: Set<String>) -> [InlineEvent] {
        events.flatMap { event -> [InlineEvent] in
            guard case let .text(text) = event, labels.contains(TextCollapsing.collapse(text)) else { return [event] }
            return [.startEmphasis("span"), event, .endEmphasis]
        }
    }

    /// The kind and hours of an hour line: "1.000 TO 3.000 Lecture hours" is ("Lecture", "1.000 TO 3.000").
    static func hourLine(_ line: String) -> (kind: String, hours: String)? {
        let words = line.split(separator: " ")
        guard words.count >= 3, words.last?.lowercased() == "hours" else { return nil }
        let number = words.dropLast(2).joined(separator: " ")
        guard let (rest, hours, _) = CourseHeading.trailingCreditPhrase(number + " hours"), rest.isEmpty else { return nil }
        return (String(words[words.count - 2]), hours)
    }

    /// Hour lines and "… Department" and "… Division" lines become fields (credit hours the credits); others notes.
    static func sortUnlabelledLines(_ text: String, into course: inout ParsedCourse, scope: String) {
        for line in text.components(separatedBy: "\n") where !line.isEmpty {
            if let (kind, hours) = hourLine(line) {
                if kind.lowercased() == "credit", course.creditsText == nil {
                    course.creditsText = hours
                    course.provenance["credits"] = "line \"N Credit hours\" \(scope)"
                } else {
                    course.addField("\(kind) hours", hours, rule: "line \"N \(kind) hours\" \(scope)")
                }
            } else if let last = line.split(separator: " ").last, ["Department", "Division"].contains(last) {
                course.addField(String(last), String(line.dropLast(last.count)).trimmingCharacters(in: .whitespaces),
                                rule: "line \"… \(last)\" \(scope)")
            } else {
                course.notes.append(line)
                course.provenance["notes"] = "unlabelled line after the hours \(scope)"
            }
        }
    }

    private func banner9Course(section: HTMLNode, page: PageContext) throws -> ParsedCourse? {
        guard let subject = try section.first(".//span[@id='subjectCode']")?.text,
              let number = try section.first(".//span[@id='courseNumber']")?.text,
              let code = CourseCode(parsing: "\(subject) \(number)") else { return nil }
        let titleNode = try section.first(".//span[@id='courseTitle']")
        var course = ParsedCourse(code: code, title: titleNode?.text ?? "", sourceURL: page.sourceURLText, system: system)
        course.pageURL = page.pageURLString
        course.provenance["code"] = "span#subjectCode and span#courseNumber in section[aria-labelledby=catalog] at \(section.path)"
        if let titleNode { course.provenance["title"] = "span#courseTitle at \(titleNode.path)" }
        let creditsXPath = ".//span[normalize-space(.)='Credit Hours:']/following-sibling::span[1]"
        if let credits = try section.first(creditsXPath), !credits.text.isEmpty {
            course.creditsText = credits.text
            course.provenance["credits"] = "span after \"Credit Hours:\" at \(credits.path)"
        }
        let levelsXPath = ".//span[normalize-space(.)='Levels:']/following-sibling::div[1]"
        if let levels = try section.first(levelsXPath), !levels.text.isEmpty {
            course.addField("Levels", levels.text, rule: "div after \"Levels:\" at \(levels.path)")
        }
        return course
    }
}
