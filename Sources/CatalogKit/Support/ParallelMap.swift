import Foundation
import Synchronization

/// `map` spread over the cores. Items and values are moved, never copied: dropping copies of courses would release
/// every field again, a serial pass over the whole catalog.
enum ParallelMap {
    /// Up to this many items, threads cost more than they save.
    static let minimumItems = 64

    /// `items.map(transform)`: up to `minimumItems` on the calling thread, else in contiguous chunks, 16 a core (so
    /// that the others take over a busy core's last ones), or `width` chunks, so at most `width` at once. Each item is
    /// let go of on the core that transformed it. Pass a temporary or `consume`: an array the caller still uses is
    /// copied whole, every element, at the first item taken off it.
    static func map<Item: Sendable, Value: Sendable>(_ items: consuming [Item], minimumItems: Int = minimumItems, width: Int? = nil,
                                                     _ transform: @Sendable (consuming Item) -> Value) -> [Value] {
        let count = items.count
        let chunks = count > minimumItems ? max(1, min(width ?? ProcessInfo.processInfo.activeProcessorCount * 16, count)) : 1
        // Cut off the end of `items`, the last chunk first, each last item first: popped again, they come in order.
        let groups = Mutex((0..<chunks).reversed().map { chunk in (count * chunk / chunks..<items.count).map { _ in items.removeLast() } })
        let parts = Mutex([[Value]](repeating: [], count: chunks))
        @Sendable func run(_ chunk: Int) {
            var group = groups.withLock { groups in defer { groups[chunks - 1 - chunk] = [] }; return groups[chunks - 1 - chunk] }
            var values: [Value] = []
            values.reserveCapacity(group.count)
            while let item = group.popLast() { values.append(transform(consume item)) }
            parts.withLock { $0[chunk] = values }
        }
        if chunks > 1 { DispatchQueue.concurrentPerform(iterations: chunks, execute: run) } else { run(0) }
        return parts.withLock { $0.takeElements() }
    }
}

extension Array {
    /// The parts' elements in order, moved out of them (popped, last first, and popped again); no element is copied.
    mutating func takeElements<Part>() -> [Part] where Element == [Part] {
        var lastFirst: [Part] = []
        lastFirst.reserveCapacity(reduce(0) { $0 + $1.count })
        for index in indices.reversed() { while let element = self[index].popLast() { lastFirst.append(element) } }
        return lastFirst.takeReversed()
    }

    /// The elements last first, moved out (popped); the array is left empty, its storage let go of.
    mutating func takeReversed() -> [Element] {
        var reversed: [Element] = []
        reversed.reserveCapacity(count)
        while let element = popLast() { reversed.append(element) }
        self = []
        return reversed
    }
}
