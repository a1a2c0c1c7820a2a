import Foundation
import Synchronization

/// `map` spread over the cores. Values are moved into and out of the parts, never copied: dropping copies of courses
/// would release every field again, a serial pass over the whole catalog.
enum ParallelMap {
    /// Up to this many items, threads cost more than they save.
    static let minimumItems = 64
    /// Many small chunks a core rather than one large one: when another process holds a core for a while, the others
    /// take over its remaining chunks instead of waiting for it at the end.
    static var chunks: Int { ProcessInfo.processInfo.activeProcessorCount * 16 }

    /// `items.map(transform)`: up to `minimumItems` on the calling thread, at most `width` at once (nil: every core).
    static func map<Item: Sendable, Value: Sendable>(_ items: [Item], minimumItems: Int = minimumItems, width: Int? = nil,
                                                     _ transform: @Sendable (Item) -> Value) -> [Value] {
        guard items.count > minimumItems, (width ?? 2) > 1 else { return items.map(transform) }
        let chunks = min(width ?? Self.chunks, items.count)
        // Chunk c takes items c, c + chunks, c + 2 * chunks…, so a run of slow items is shared out. Each part is
        // made last item first, so that the values can be taken off the parts' ends in order.
        var parts = inChunks(chunks) { chunk in stride(from: chunk, to: items.count, by: chunks).reversed().map { transform(items[$0]) } }
        return items.indices.map { parts[$0 % chunks].removeLast() }
    }

    /// `items.map(transform)`, each item handed over to the core that transforms it and let go of there.
    static func map<Item: Sendable, Value: Sendable>(consuming items: consuming [Item],
                                                     _ transform: @Sendable (Item) -> Value) -> [Value] {
        let ranges = cuts(of: items.count)
        // Taken off the end of `items`, so last first, and popped again to be transformed in order.
        var groups = ranges.map { _ in [Item]() }
        for (index, range) in ranges.enumerated().reversed() {
            groups[index].reserveCapacity(range.count)
            for _ in range { groups[index].append(items.removeLast()) }
        }
        var parts = map(handingOver: consume groups) { (group: consuming [Item], _) in
            var values: [Value] = []
            values.reserveCapacity(group.count)
            while let item = group.popLast() { values.append(transform(item)) }
            return values
        }
        return joined(moving: &parts)
    }

    /// The parts' values in order, moved out of them (popped last first, then popped again).
    static func joined<Value>(moving parts: inout [[Value]]) -> [Value] {
        var lastFirst: [Value] = []
        lastFirst.reserveCapacity(parts.reduce(0) { $0 + $1.count })
        for index in parts.indices.reversed() {
            while let value = parts[index].popLast() { lastFirst.append(value) }
        }
        var values: [Value] = []
        values.reserveCapacity(lastFirst.count)
        while let value = lastFirst.popLast() { values.append(value) }
        return values
    }

    /// `0..<count` cut into `chunks` contiguous ranges (one up to `minimumItems`), for output joined in order.
    static func cuts(of count: Int) -> [Range<Int>] {
        guard count > minimumItems else { return [0..<count] }
        let chunks = min(Self.chunks, count)
        return (0..<chunks).map { chunk in (count * chunk / chunks)..<(count * (chunk + 1) / chunks) }
    }

    /// `body(group, index)` for each of `groups` over the cores, each group let go of on its core; results in order.
    static func map<Item: Sendable, Value: Sendable>(handingOver groups: consuming [[Item]],
                                                     _ body: @Sendable (_ group: consuming [Item], _ index: Int) -> Value) -> [Value] {
        let count = groups.count
        guard count > 1 else { return groups.popLast().map { [body($0, 0)] } ?? [] }
        var slots = [[Item]?](repeating: nil, count: count)
        for index in slots.indices.reversed() { slots[index] = groups.popLast() }
        let handed = Mutex(consume slots)
        return inChunks(count) { chunk in body(handed.withLock { $0[chunk].take() ?? [] }, chunk) }
    }

    /// `body(chunk)` for each chunk in `0..<chunks`, run on the cores; the results by chunk.
    private static func inChunks<Value: Sendable>(_ chunks: Int, _ body: @Sendable (Int) -> Value) -> [Value] {
        let results = Mutex([Value?](repeating: nil, count: chunks))
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let value = body(chunk)
            results.withLock { $0[chunk] = value }
        }
        return results.withLock { $0.compactMap { $0 } }
    }
}
