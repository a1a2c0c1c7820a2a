import Foundation
import SafeLibXML

/// Values a command is done with that the process keeps until it exits, rather than free piece by piece.
///
/// A command's last big values (every page's parse, the normalized catalog) are thousands of records of dozens
/// of strings, arrays and tables each; freeing them when the command returns was one core's work at the end of
/// `gvingest parse --json` (about 17 ms of its 0.3 s over the UH catalog: docs/BENCHMARKS.md), for memory the
/// system takes back at exit anyway (clang skips the same teardown with `-disable-free`).
///
/// Not under a leak checker, which clang does not skip it under either: LeakSanitizer looks for pointers to each
/// block it finds still allocated at exit, and Swift keeps an enum's case in the spare bits of the pointer to its
/// payload (the requisite trees' indirect cases), which hides that pointer from the checker and turns blocks that
/// are in use into reported leaks. So a build with the checker frees as usual, and what it reports stays real.
enum KeptUntilExit {
    private static let held = Held()

    /// Keeps `value` referenced until the process exits (or, under a leak checker, does nothing).
    static func keep(_ value: some Sendable) {
        guard !Sanitizers.leakChecker else { return }
        held.append(value)
    }

    private final class Held: @unchecked Sendable {
        // Guarded by `lock`; @unchecked is sound because `values` is touched only under it.
        private let lock = NSLock()
        private var values: [any Sendable] = []

        func append(_ value: any Sendable) {
            lock.withLock { values.append(value) }
        }
    }
}
