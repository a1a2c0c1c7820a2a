import Foundation

/// Values a command is done with that the process keeps until it exits, rather than free piece by piece.
///
/// A command's last big values (every page's parse, the normalized catalog) are thousands of records of dozens
/// of strings, arrays and tables each; freeing them when the command returns was one core's work for tens of
/// milliseconds at the end of `gvingest parse --json`, for memory the system takes back at exit anyway (compilers
/// skip the same teardown). Held here they stay reachable, so leak checkers do not count them.
enum KeptUntilExit {
    private static let held = Held()

    /// Keeps `value` referenced until the process exits.
    static func keep(_ value: some Sendable) {
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
