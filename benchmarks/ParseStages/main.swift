import CatalogKit
import Foundation
import PublishedPages
import SafeLibXML

// Where parse time goes (not a test): every page of a directory through each stage of `gvingest parse
// --json` in turn, on one core, each stage timed on its own. The stages are run one after another over
// all pages (all reads, then all libxml2 parses, …) so each figure is that stage alone.
//
//   swift run -c release gvingest-parse-stages [DIR]     (default: UH catalog 44 from Fixtures/realworld.tar.xz)

let directory = CommandLine.arguments.dropFirst().first ?? PublishedPages.realworld.appendingPathComponent("acalog-uh/44").path
let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".html") }.sorted()
guard !files.isEmpty else {
    FileHandle.standardError.write(Data("no .html files in \(directory)\n".utf8))
    exit(66)
}
let urls = files.map { URL(fileURLWithPath: directory).appendingPathComponent($0) }

func threadSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
var figures: [(String, Double)] = []
@MainActor func stage<T>(_ name: String, _ body: () -> T) -> T {
    let start = threadSeconds()
    let result = body()
    figures.append((name, threadSeconds() - start))
    return result
}

let pages = stage("read files") { urls.map { (try? FileBytes.read($0, limit: FileBytes.Limit.page)) ?? [] } }
let documents = stage("libxml2 parse (HTMLDocument, charset chosen)") {
    zip(pages, urls).compactMap { try? HTMLDocument(bytes: $0, url: $1, contentType: nil) }
}
let contexts = stage("page URL (canonical link)") { zip(documents, urls).map { PageContext(document: $0, sourceURL: $1) } }
let parser = AcalogParser()
let parsed = stage("fields read (AcalogParser.courses)") { contexts.flatMap { (try? parser.courses(in: $0).courses) ?? [] } }
// Course by course on this thread (`normalize(catalog:)` spreads them over the cores), with the same link
// table it builds, so requisite Markdown links its codes as in the real run.
var links: [String: String] = [:]
for course in parsed where links[course.code.description] == nil { links[course.code.description] = course.pageURL ?? course.sourceURL }
let courses = stage("normalize (incl. requisite trees)") { parsed.map { Normalizer().normalize($0, links: links) } }
// As `parse --json` writes them: the records, with their diagnostics, through Foundation's encoder.
let json = stage("JSON written") { ParseOutput.json(courses: courses) }

let total = figures.reduce(0) { $0 + $1.1 }
print("pages: \(files.count), courses: \(courses.count), JSON bytes: \(json.count)")
func padded(_ name: String) -> String { name + String(repeating: " ", count: max(1, 46 - name.count)) }
for (name, seconds) in figures {
    print(padded(name) + String(format: "%7.3f s  %5.1f %%", seconds, 100 * seconds / total))
}
print(padded("total (one core)") + String(format: "%7.3f s", total))
