import CatalogKit
import Foundation

/// What `gvingest parse` does with one page, driven by fuzzer bytes: charset choice, libxml2, a
/// catalog parser, the normalizer with its prerequisite parser, and both renderings.
///
/// The first byte picks the variant (so libFuzzer's mutations reach every parser and charset path);
/// the rest is the page. Returns the broken invariants, empty when the page was handled sanely:
/// a crash, hang or leak is the fuzzer's to see, a wrong-but-survivable result is reported here.
public enum HTMLHarness {
    /// Bits 0–2 of the first byte: which parser reads the page, as `--system` or a catalog's rules would pick it.
    static let systems: [SystemChoice] = [
        .auto, .fixed(.gvsu), .fixed(.acalog), .fixed(.courseleaf), .fixed(.banner),
        .rules(courseBlockRules, .courseleaf), .rules(acalogRules, .acalog), .auto,
    ]
    /// Bits 3–5: the HTTP Content-Type, so the header's charset, libxml2's own encodings and
    /// iconv names are all reached, not only the `<meta>` prescan.
    static let contentTypes: [String?] = [
        nil, "text/html", "text/html; charset=utf-8", "text/html; charset=\"windows-1252\"",
        "text/html; charset=utf-16le", "text/html; charset=utf-16be", "text/html; charset=shift_jis", "text/html;charset=koi8-r",
    ]
    /// Bits 6–7: where the page came from; the parsers resolve links and recognize systems by URL.
    static let urls: [URL] = [
        URL(fileURLWithPath: "/tmp/fuzz/page.html"),
        URL(string: "https://www.gvsu.edu/catalog/course/cis-162.htm") ?? URL(fileURLWithPath: "/"),
        URL(string: "https://publications.uh.edu/preview_course_nopop.php?catoid=41&coid=1") ?? URL(fileURLWithPath: "/"),
        URL(string: "https://catalog.umd.umich.edu/undergraduate/coursesaz/cis/") ?? URL(fileURLWithPath: "/"),
    ]

    /// A CourseLeaf layout written as rules (the README's example).
    static let courseBlockRules: ParseRules = {
        var rules = ParseRules(course: "//div[@class='courseblock']", code: ".//p[contains(@class, 'courseblocktitle')]")
        rules.description = ".//p[contains(@class, 'courseblockdesc')]"
        rules.listingCourses = "//div[@id='atozindex']//a"
        rules.listingPages = "//a[@rel='next']"
        return rules
    }()

    /// An Acalog course block written as rules.
    static let acalogRules: ParseRules = {
        var rules = ParseRules(course: "//td[@class='coursepadding']/div", code: ".//h3 | .//h1")
        rules.prerequisite = ".//strong[starts-with(., 'Prereq')]/following-sibling::text()[1]"
        rules.listingCourses = "//a[contains(@href, 'preview_course')]"
        return rules
    }()

    /// Runs one input; the broken invariants, one line each.
    public static func check(_ data: UnsafeRawBufferPointer) -> [String] {
        guard let selector = data.first else { return [] }
        let system = systems[Int(selector & 7)]
        let contentType = contentTypes[Int((selector >> 3) & 7)]
        let url = urls[Int(selector >> 6)]
        let page = Array(data.dropFirst())

        let result = PageParser(system: system).parse(bytes: page, sourceURL: url, input: "fuzz", contentType: contentType)
        var problems: [String] = []
        if result.failure == nil, result.system != nil, result.charset == nil {
            problems.append("a parsed page has no charset")
        }
        if !result.courses.isEmpty, result.system == nil {
            problems.append("courses without the system that read them")
        }
        switch Result(catching: { () throws(FormatError) in try JSONFile.decode([CourseRecord].self, from: ParseOutput.jsonBytes([result])) }) {
        case let .success(records):
            if records.count != result.courses.count { problems.append("parse --json output has \(records.count) of \(result.courses.count) courses") }
        case let .failure(error):
            problems.append("parse --json output does not read back as course records: \(error)")
        }
        _ = ParseOutput.human(result)

        // The normalizer parses each requisite's cleaned text; every word of it must reach the tree.
        let normalizer = Normalizer()
        for parsed in result.courses {
            let course = normalizer.normalize(parsed)
            for (text, tree) in [(parsed.prerequisiteText, course.prerequisite), (parsed.corequisiteText, course.corequisite)] {
                guard let text, let tree else { continue }
                let missing = tree.missingWords(of: TextCleaner.cleanLine(text))
                if !missing.isEmpty { problems.append("requisite tree lost \(missing.prefix(5)) of \"\(text.prefix(200))\"") }
            }
        }
        return problems
    }

    public static func check(_ bytes: [UInt8]) -> [String] {
        bytes.withUnsafeBytes { check($0) }
    }
}
