import CatalogKit
import Foundation
import PublishedPages

// Throughput of the prerequisite parser (not a test): every prerequisite of the UH pages in
// Fixtures/realworld.tar.xz (acalog-uh, catalogs 41 and 44, unpacked into .build on first use), parsed over and over for a few seconds.
//
//   swift run -c release gvingest-prereq-bench [SECONDS]

let seconds = CommandLine.arguments.dropFirst().first.flatMap(Double.init) ?? 3
let uh = PublishedPages.realworld.appendingPathComponent("acalog-uh")
let (inputs, errors) = PageInputs.expand([uh.appendingPathComponent("41").path, uh.appendingPathComponent("44").path])
guard errors.isEmpty, !inputs.isEmpty else {
    FileHandle.standardError.write(Data("gvingest-prereq-bench: cannot read the UH pages under \(uh.path)\n".utf8))
    exit(66)
}
// Collect the texts first: only the requisite parser is timed.
let results = await ParseRunner.run(inputs, parser: PageParser(system: .fixed(.acalog)))
let texts = results.flatMap(\.courses).compactMap(\.prerequisiteText).map(TextCleaner.cleanLine)

var checksum = 0
for text in texts { checksum &+= RequisiteParser.parse(text)?.courses.count ?? 0 }
let clock = ContinuousClock()
let start = clock.now
var parsed = 0
var elapsed = Duration.zero
repeat {
    for text in texts { checksum &+= RequisiteParser.parse(text) == nil ? 0 : 1 }
    parsed += texts.count
    elapsed = clock.now - start
} while elapsed < .seconds(seconds)
let total = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
print("\(texts.count) prerequisite texts from \(inputs.count) UH pages; \(parsed) parses in \(String(format: "%.2f", total)) s")
print("\(Int(Double(parsed) / total)) prerequisite strings per second, one core (checksum \(checksum))")
