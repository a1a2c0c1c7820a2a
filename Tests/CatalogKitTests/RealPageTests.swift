import Foundation
import Testing
@testable import CatalogKit
import SafeLibXML

/// Pages nobody here wrote: University of Houston and LSU (Acalog), UM-Dearborn (CourseLeaf), Banner.
@Suite struct RealPageTests {
    static let uh = TestPaths.realworld.appendingPathComponent("acalog-uh")

    /// The manifest's `course_title` ("COSC 2436 -  Programming and Data Structures") by page file name.
    static func manifest(_ catalog: String) throws -> [String: String] {
        let text = try String(contentsOf: uh.appendingPathComponent("\(catalog).csv"), encoding: .utf8)
        var titles: [String: String] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            // catoid,catalog_title,classification,page_number,coid,course_title
            let columns = csvFields(String(line))
            guard columns.count == 6 else { continue }
            titles["\(columns[0])-\(columns[4]).html"] = columns[5]
        }
        return titles
    }

    /// One CSV line's fields: commas inside double quotes, and "" for a quote.
    static func csvFields(_ line: String) -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        var characters = line.makeIterator()
        while let character = characters.next() {
            if quoted {
                if character == "\"" {
                    quoted = false
                } else {
                    field.append(character)
                }
            } else if character == "\"" {
                if field.last == "\"" || !field.isEmpty { field.append("\"") }
                quoted = true
            } else if character == "," {
                fields.append(field)
                field = ""
            } else {
                field.append(character)
            }
        }
        fields.append(field)
        return fields
    }

    static func parseAll(_ directory: URL, system: SystemChoice = .auto) async -> [PageResult] {
        let (inputs, _) = PageInputs.expand([directory.path])
        return await ParseRunner.run(inputs, parser: PageParser(system: system))
    }

    /// 40 is the graduate edition: four-digit numbers with letters inside ("FINA 7A20") and codes two pages share.
    @Test(arguments: [("40", 0.995), ("41", 0.99), ("44", 0.99)])
    func uhPagesMatchTheirManifest(_ catalog: String, _ required: Double) async throws {
        let expected = try Self.manifest(catalog)
        #expect(expected.count > 3800)
        let results = await Self.parseAll(Self.uh.appendingPathComponent(catalog))
        #expect(results.count == expected.count)
        var misses: [String] = []
        for result in results {
            let file = URL(fileURLWithPath: result.input).lastPathComponent
            let heading = expected[file].map { TextCollapsing.collapse($0) } ?? "(not in manifest)"
            guard result.courses.count == 1, let course = result.courses.first else {
                misses.append("\(file): \(result.courses.count) courses, expected \(heading)")
                continue
            }
            let parsed = "\(course.code) - \(course.title)"
            if parsed != heading { misses.append("\(file): parsed \"\(parsed)\", manifest \"\(heading)\"") }
            #expect(result.system == .acalog)
        }
        let rate = Double(results.count - misses.count) / Double(max(1, results.count))
        // Every page gives its course; the misses are listed so a regression shows what broke.
        #expect(results.allSatisfy { $0.courses.count == 1 })
        #expect(rate >= required, "\(misses.count) misses:\n\(misses.joined(separator: "\n"))")
        print("UH catalog \(catalog): \(results.count - misses.count)/\(results.count) match; misses: \(misses)")
    }

    @Test func uhFieldsAreReadByLabel() throws {
        let page = Self.uh.appendingPathComponent("41/41-193244.html")
        let result = PageParser().parse(bytes: Array(try Data(contentsOf: page)), sourceURL: page, input: "41-193244")
        let course = try #require(result.courses.first)
        #expect(course.code.description == "ACCT 2301")
        #expect(course.title == "Principles of Financial Accounting")
        #expect(course.creditsText == "3.0")
        #expect(course.prerequisiteText == "None.")
        #expect(course.description == "Fundamentals of financial accounting.")
        #expect(course.field("Lecture Contact Hours") == "3")
        #expect(course.field("Lab Contact Hours") == "0")
        #expect(course.field("Formerly") == "ACCT 2331")
        #expect(course.field("Note") == "ACCT 2301 meets Business Administration and Management Field of Study requirement.")
        #expect(course.field("TCCNS Equivalent") == "ACCT 2301")
        #expect(course.catalogName == "2021-2022 Undergraduate Catalog")
        // Links resolve against the URL the archive recorded, not the file.
        #expect(result.pageURL == "http://publications.uh.edu/preview_course_nopop.php?catoid=41&coid=193244")
    }

    @Test func uhCorequisiteLinksKeepTheirCodeAndURL() throws {
        // ASLI 3430: "Corequisite: ASLI 3460 ." with the code linked.
        let page = Self.uh.appendingPathComponent("44/44-209888.html")
        let bytes = Array(try Data(contentsOf: page))
        let result = PageParser().parse(bytes: bytes, sourceURL: page, input: "44-209888")
        let course = try #require(result.courses.first)
        #expect(course.code.description == "ASLI 3430")
        #expect(try #require(course.corequisiteText).hasPrefix("ASLI 3460"))
        #expect(course.corequisiteLinks.map(\.code) == ["ASLI 3460"])
        #expect(course.corequisiteLinks.first?.url == "http://publications.uh.edu/preview_course_nopop.php?catoid=44&coid=209891")
        // Every page with a labelled corequisite yields it, with its course links.
        let withCorequisite = TestPaths.files(in: Self.uh.appendingPathComponent("44"), suffix: ".html").prefix(4000).filter {
            (try? String(contentsOf: $0, encoding: .utf8))?.contains("Corequisite:") ?? false
        }
        #expect(!withCorequisite.isEmpty)
        for file in withCorequisite.prefix(40) {
            let parsed = PageParser().parse(bytes: Array(try Data(contentsOf: file)), sourceURL: file, input: file.lastPathComponent)
            let course = try #require(parsed.courses.first)
            #expect(course.corequisiteText?.isEmpty == false, "\(file.lastPathComponent)")
            #expect(course.provenance["corequisite"]?.contains("Corequisite:") == true)
        }
    }

    @Test func uhPrerequisiteLinksKeepTheirCodeAndURL() throws {
        let files = TestPaths.files(in: Self.uh.appendingPathComponent("44"), suffix: ".html").filter {
            ((try? String(contentsOf: $0, encoding: .utf8)) ?? "").range(of: #"Prerequisite:\s*</strong>\s*<a "#, options: .regularExpression) != nil
        }
        #expect(files.count > 50)
        for file in files.prefix(100) {
            let result = PageParser().parse(bytes: Array(try Data(contentsOf: file)), sourceURL: file, input: file.lastPathComponent)
            let course = try #require(result.courses.first)
            #expect(!course.prerequisiteLinks.isEmpty, "\(file.lastPathComponent)")
            for link in course.prerequisiteLinks {
                #expect(link.code.map { course.prerequisiteText?.contains($0) ?? false } == true, "\(file.lastPathComponent): \(link)")
                #expect(link.url?.contains("preview_course_nopop.php?catoid=44") == true)
            }
        }
    }

    @Test func uhCurlyQuotesSurviveWithoutACharsetDeclaration() async throws {
        let results = await Self.parseAll(Self.uh.appendingPathComponent("44"))
        let titles = results.flatMap(\.courses).map(\.title)
        #expect(titles.contains("Qur’an as Literature"))
        #expect(titles.contains("Women’s Health Issues"))
        #expect(!titles.contains { $0.contains("â€") })
    }

    @Test func lsuCoursePagesYieldCodesAndTitles() throws {
        let lsu = TestPaths.realworld.appendingPathComponent("acalog-lsu")
        let chem = lsu.appendingPathComponent("lsu-course-chem1101-trimmed.html")
        let chemResult = PageParser().parse(bytes: Array(try Data(contentsOf: chem)), sourceURL: chem, input: "chem")
        #expect(chemResult.system == .acalog)
        let course = try #require(chemResult.courses.first)
        #expect(course.code.description == "CHEM 1101")
        #expect(course.title == "Principles of Chemistry I")
        // The unlabelled prerequisite: an <em> holding course links.
        #expect(course.prerequisiteText?.hasPrefix("Credit or registration in MATH 1021") == true)
        #expect(course.prerequisiteLinks.map(\.code) == ["MATH 1021", "MATH 1022", "MATH 1023", "MATH 1431", "MATH 1510",
                                                         "MATH 1530", "MATH 1550", "MATH 1551"])
        #expect(course.description.hasPrefix("The first part of a three-semester sequence"))
        #expect(course.notes == ["This is an Integrative Learning Core (ILC) course that awards general education credit."])

        let thtr = lsu.appendingPathComponent("lsu-course-thtr7900-empty-prereq-trimmed.html")
        let thtrResult = PageParser().parse(bytes: Array(try Data(contentsOf: thtr)), sourceURL: thtr, input: "thtr")
        let theatre = try #require(thtrResult.courses.first)
        #expect(theatre.code.description == "THTR 7900")
        #expect(theatre.title == "Research and Writing for Theatre Studies")
        #expect(theatre.creditsText == "3")
        #expect(theatre.prerequisiteText == nil)
        #expect(theatre.provenance["prerequisite"]?.contains("(empty)") == true)
        #expect(theatre.description == "Research and writing skills for students of theatre history, dramatic literature, theory, and criticism.")
    }

    @Test func lsuListingPageYieldsCourseLinks() throws {
        let page = TestPaths.realworld.appendingPathComponent("acalog-lsu/lsu-ee-course-list-page2-trimmed.html")
        let result = PageParser().parse(bytes: Array(try Data(contentsOf: page)), sourceURL: page, input: "list")
        #expect(result.courses.isEmpty)
        let listing = try #require(result.listing)
        #expect(listing.courses.count == 41)
        #expect(listing.courses.first?.code == "EE 7400")
        #expect(listing.courses.first?.title == "Advanced Topics in Power")
        #expect(listing.courses.first?.creditsText == "3")
        #expect(listing.courses.last?.creditsText == "1-12 per sem.")
        #expect(listing.courses.allSatisfy { $0.url.contains("preview_course_nopop.php?catoid=35&coid=") })
    }

    static let umdearborn = TestPaths.realworld.appendingPathComponent("courseleaf-umdearborn")

    @Test func courseLeafSubjectPageYieldsEveryCourseBlock() throws {
        let page = Self.umdearborn.appendingPathComponent("umdearborn-cis-courses.html")
        let result = PageParser().parse(bytes: Array(try Data(contentsOf: page)), sourceURL: page, input: "cis")
        #expect(result.system == .courseleaf)
        #expect(result.systemRule == "recognized as courseleaf")
        let courses = result.courses
        #expect(courses.count == 71)
        #expect(Set(courses.map(\.code)).count == 71)
        for course in courses {
            #expect(course.code.subject == "CIS", "\(course.code)")
            #expect(!course.title.isEmpty && !course.title.contains("Credit"), "\(course.code): \(course.title)")
            #expect(course.creditsText.flatMap(CreditRange.init(parsing:)) != nil, "\(course.code): \(course.creditsText ?? "nil")")
        }
        let first = try #require(courses.first)
        #expect(first.code.description == "CIS 112")
        #expect(first.title == "Computer Literacy/Info Mgmt")
        #expect(first.creditsText == "3")
        #expect(first.description.hasPrefix("This is a microcomputer literacy course"))
        let credits = Dictionary(courses.map { ($0.code.description, $0.creditsText ?? "") }) { first, _ in first }
        #expect(credits["CIS 390"] == "1 to 3")
        #expect(credits["CIS 450"] == "3 or 4")
        #expect(credits["CIS 299"] == "1")
        // The description paragraph is prose as a whole, even when it starts with "TOPIC TITLE:".
        let topic = try #require(courses.first { $0.code.description == "CIS 290A" })
        #expect(topic.description.hasPrefix("TOPIC TITLE: Advanced Visual C++"))
        #expect(topic.fields.isEmpty)

        let cs1 = try #require(courses.first { $0.code.description == "CIS 150" })
        #expect(cs1.prerequisiteText == "MATH 115* or MATH 113* or MPLS with a score of 116")
        #expect(cs1.prerequisiteLinks.map(\.code) == ["MATH 115", "MATH 113"])
        #expect(cs1.prerequisiteLinks.first?.url?.hasSuffix("/search/?P=MATH%20115") == true)
        #expect(cs1.corequisiteLinks.map(\.code) == ["CIS 150L"])
        #expect(courses.filter { $0.prerequisiteText != nil }.count == 62)

        // Normalized, the linked codes are the prerequisite's courses, as for the other systems.
        let normalized = Normalizer(rules: .standard).normalize(catalog: courses)
        let normalizedCS1 = try #require(normalized.first { $0.code.description == "CIS 150" })
        #expect(normalizedCS1.prerequisiteCourses == ["MATH 113", "MATH 115"])
        #expect(normalizedCS1.prerequisiteMarkdown?.contains("[MATH 115](") == true)
        #expect(normalized.first { $0.code.description == "CIS 1501" }?.prerequisiteFor.isEmpty == false)
    }

    @Test func courseLeafIndexGivesNoCourse() throws {
        let page = Self.umdearborn.appendingPathComponent("umdearborn-undergrad-coursesaz-index.html")
        let result = PageParser().parse(bytes: Array(try Data(contentsOf: page)), sourceURL: page, input: "index")
        #expect(result.system == .courseleaf)
        #expect(result.courses.isEmpty)
        #expect(!result.yieldedRecord)
        for system in CatalogSystem.allCases {
            let fixed = PageParser(system: .fixed(system)).parse(bytes: Array(try Data(contentsOf: page)), sourceURL: page, input: "index")
            #expect(fixed.courses.isEmpty, "as \(system)")
        }
    }

    static let banner = TestPaths.realworld.appendingPathComponent("banner")

    static func parse(_ url: URL, system: SystemChoice = .auto) throws -> PageResult {
        PageParser(system: system).parse(bytes: Array(try Data(contentsOf: url)), sourceURL: url, input: url.lastPathComponent)
    }

    @Test func banner8CourseDetailYieldsCodeTitleCreditsAndPrerequisites() throws {
        let result = try Self.parse(Self.banner.appendingPathComponent("neu-bwckctlg-course-detail-math2331.html"))
        #expect(result.system == .banner)
        let course = try #require(result.courses.first)
        #expect(result.courses.count == 1)
        #expect(course.code.description == "MATH 2331")
        #expect(course.title == "Linear Algebra")
        #expect(course.creditsText == "4.000")
        #expect(course.description.hasPrefix("Uses the Gauss-Jordan elimination algorithm"))
        #expect(course.description.hasSuffix("Prereq. MATH 1242, MATH 1252, MATH 1342, or CS 2800."))
        #expect(course.prerequisiteText?.hasPrefix("Undergraduate level MATH 1342 Minimum Grade of D- or") == true)
        #expect(course.prerequisiteLinks.map(\.code) == ["MATH 1342", "CS 2800", "MATH 1242", "MATH 1252"])
        #expect(course.field("Levels") == "Undergraduate")
        #expect(course.field("Lecture hours") == "4.000")
        #expect(course.field("Department") == "Mathematics")
        #expect(course.field("Restrictions")?.contains("Must be enrolled in one of the following Levels") == true)
        let normalized = Normalizer(rules: .standard).normalize(course)
        #expect(normalized.credits == CreditRange(min: 4, max: 4))
        #expect(Set(normalized.prerequisiteCourses) == ["MATH 1342", "CS 2800", "MATH 1242", "MATH 1252"])
    }

    @Test func banner8CatalogEntryKeepsItsLabelledDescription() throws {
        let result = try Self.parse(Self.banner.appendingPathComponent("upstate-bwckctlg-catalog-entries-mdcn2064.html"))
        let course = try #require(result.courses.first)
        #expect(result.courses.count == 1)
        #expect(course.code.description == "MDCN 2064")
        #expect(course.title == "Medicine for the Disenfranchised")
        #expect(course.creditsText == "0.000")
        #expect(course.description.hasPrefix("ELECTIVE DESCRIPTION: Physical exams are provided"))
        #expect(course.field("Levels") == "Professional")
        #expect(course.field("Division") == "Graduate Division")
        #expect(course.field("Department") == "Medicine")
        #expect(course.prerequisiteText == nil)
    }

    @Test func banner9DetailsNameTheirCourseAndTheOtherFragmentsGiveNone() throws {
        let details = try Self.parse(Self.banner.appendingPathComponent("aus-banner9-getCatalogDetails-cmp305.html"))
        #expect(details.system == .banner)
        let course = try #require(details.courses.first)
        #expect(course.code.description == "CMP 305")
        #expect(course.title == "Data Structures and Algorithms")
        #expect(course.creditsText == "3")
        #expect(course.field("Levels") == "Undergraduate UG")
        // The description and the prerequisite table do not say which course they belong to.
        for fragment in ["aus-banner9-getCourseDescription-cmp305.html", "aus-banner9-getCatalogPrerequisites-cmp305.html"] {
            let result = try Self.parse(Self.banner.appendingPathComponent(fragment))
            #expect(result.system == .banner, "\(fragment)")
            #expect(result.courses.isEmpty, "\(fragment)")
            #expect(!result.yieldedRecord, "\(fragment)")
        }
    }

    /// `--system auto` names each system's pages, and neither new parser reads another system's pages as courses
    /// (GVSU's, named with --system, reads any "CODE - Title" heading: that is its fallback).
    @Test(arguments: [("acalog-lsu", CatalogSystem.acalog), ("courseleaf-umdearborn", .courseleaf), ("banner", .banner)])
    func autoRecognizesEachSystem(_ folder: String, _ system: CatalogSystem) async throws {
        let results = await Self.parseAll(TestPaths.realworld.appendingPathComponent(folder))
        #expect(!results.isEmpty)
        for result in results {
            #expect(result.failure == nil)
            #expect(result.system == system, "\(result.input)")
        }
        for other in [CatalogSystem.courseleaf, .banner] where other != system {
            for result in await Self.parseAll(TestPaths.realworld.appendingPathComponent(folder), system: .fixed(other)) {
                #expect(result.courses.isEmpty, "\(result.input) as \(other)")
            }
        }
        let gvsu = try Self.parse(TestPaths.gvsuFixtures.appendingPathComponent("course/cis-162.html"))
        #expect(gvsu.system == .gvsu)
    }
}

extension ParsedCourse {
    /// The first value of a labelled field, by label (case-insensitive).
    func field(_ label: String) -> String? {
        fields.first { $0.label.caseInsensitiveCompare(label) == .orderedSame }?.value
    }
}
