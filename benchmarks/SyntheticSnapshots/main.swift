// Test and benchmark support, not a product: writes synthetic snapshots of realistic records.
//
//   SyntheticSnapshots pair OLD NEW [--courses N]   two snapshot files N courses each, the second with
//                                                   about 1 % changed, 0.5 % removed, 0.5 % added and
//                                                   0.2 % renumbered (benchmarks/diff-50k.sh)
//   SyntheticSnapshots write-loop DIR [--courses N] writes snapshot after snapshot into the store DIR,
//                                                   printing "wrote SEQUENCE" after each, until killed
//                                                   (the crash test kills it with SIGKILL mid-write)
//   SyntheticSnapshots commit-loop OUT [--courses N] commits run after run into the outputs OUT (one course more
//                                                   each), printing "committed COURSES", until killed
import CatalogKit
import Foundation

/// A deterministic generator (SplitMix64), so every run writes the same snapshots.
struct Generator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }
}

let words = ["analysis", "design", "theory", "practice", "systems", "methods", "students", "introduction", "advanced", "topics",
             "research", "data", "models", "applications", "principles", "laboratory", "field", "writing", "culture", "history",
             "computation", "ethics", "policy", "communication", "environment", "health", "literature", "structures", "networks"]

/// One course as the normalize stage would give it: a paragraph of description, credits, a prerequisite.
func course(_ index: Int, variant: Int = 0) -> Course {
    var random = Generator(state: UInt64(index) &* 7919)
    let subject = String(UnicodeScalar(UInt8(65 + index / 2600 % 26))) + String(UnicodeScalar(UInt8(65 + index / 100 % 26)))
        + String(UnicodeScalar(UInt8(65 + index / 67_600 % 26)))
    let number = 100 + index % 100 * 5
    var parsed = ParsedCourse(code: CourseCode(subject: subject, number: String(number)),
                              title: (0..<3).map { _ in random.pick(words).capitalized }.joined(separator: " "),
                              sourceURL: "file:///pages/\(subject.lowercased())-\(number).html", system: .gvsu)
    let sentences = (0..<4).map { _ in (0..<12).map { _ in random.pick(words) }.joined(separator: " ").capitalized + "." }
    parsed.description = sentences.joined(separator: " ") + (variant > 0 ? " Revised \(variant)." : "")
    parsed.creditsText = String(3 + variant % 2)
    parsed.prerequisiteText = "\(subject) \(max(100, number - 5)) and junior standing."
    parsed.offered = random.pick(["fall semester", "winter semester", "fall and winter semesters"])
    parsed.catalogName = "2025-2026 Undergraduate & Graduate Catalog"
    parsed.pageURL = "https://www.example.edu/catalog/course/\(subject.lowercased())-\(number).htm"
    return Normalizer().normalize(parsed)
}

func snapshot(_ courses: [Course], at time: TimeInterval) -> Snapshot {
    Snapshot.capture(catalogID: "synthetic", source: .object(["directory": .string("/synthetic")]),
                     pages: PageCounts(expected: courses.count, fetched: courses.count, failed: 0), courses: courses, previous: nil,
                     at: Date(timeIntervalSince1970: time)).snapshot
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("SyntheticSnapshots: \(message)\n".utf8))
    exit(64)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var count = 50_000
if let flag = arguments.firstIndex(of: "--courses") {
    guard flag + 1 < arguments.count, let value = Int(arguments[flag + 1]), value > 0 else { fail("--courses needs a positive number") }
    count = value
    arguments.removeSubrange(flag...(flag + 1))
}

switch arguments.first {
case "pair" where arguments.count == 3:
    let old = (0..<count).map { course($0) }
    var new: [Course] = []
    for index in 0..<count {
        switch index % 1000 {
        case 0..<5: continue                                      // removed
        case 5..<15: new.append(course(index, variant: 1))        // changed
        case 15, 16:                                              // renumbered: same title and description, new number
            var moved = course(index)
            moved.code.number = String(Int(moved.code.number).map { $0 + 1 } ?? 0) + "9"
            new.append(moved)
        default: new.append(course(index))
        }
    }
    new += (count..<(count + count / 200)).map { course($0) }    // added
    do {
        try Data(snapshot(old, at: 1_725_170_400).encoded()).write(to: URL(fileURLWithPath: arguments[1]))
        try Data(snapshot(new, at: 1_725_256_800).encoded()).write(to: URL(fileURLWithPath: arguments[2]))
    } catch {
        fail("\(error)")
    }
case "write-loop" where arguments.count == 2:
    let store = SnapshotStore(directory: URL(fileURLWithPath: arguments[1]))
    let courses = (0..<count).map { course($0) }
    var round = 0
    while true {
        round += 1
        // Each round's snapshot differs (its capture time), so a torn file could not pass for an older one.
        do {
            let entry = try store.write(snapshot(courses, at: 1_725_170_400 + Double(round)))
            // Unbuffered, so the line is out before the next write starts.
            FileHandle.standardOutput.write(Data("wrote \(entry.sequence)\n".utf8))
        } catch {
            fail("\(error)")
        }
    }
case "commit-loop" where arguments.count == 2:
    // Commits run after run into the outputs DIR, each adding one course, so every output and the snapshot
    // change every round; the crash test kills it between the renames of the outputs.
    let out = URL(fileURLWithPath: arguments[1])
    let catalog = CatalogConfig(id: "synthetic", name: "Synthetic", system: .gvsu, source: .directory(URL(fileURLWithPath: "/synthetic")))
    let pipeline = NewsPipeline(store: SnapshotStore(directory: out.appendingPathComponent("snapshots")), outputDirectory: out,
                                keepSnapshots: 1_000_000)
    var round = 0
    while true {
        round += 1
        let courses = (0..<(count + round)).map { course($0) }
        do {
            let report = try pipeline.commit(catalog: catalog, pages: PageCounts(expected: 1, fetched: 1, failed: 0), courses: courses,
                                              now: Date(timeIntervalSince1970: 1_725_170_400 + Double(round)))
            FileHandle.standardOutput.write(Data("committed \(report.snapshot.courses.count)\n".utf8))
        } catch {
            fail("\(error)")
        }
    }
default:
    fail("usage: SyntheticSnapshots pair OLD NEW [--courses N] | write-loop DIR [--courses N] | commit-loop OUT [--courses N]")
}
