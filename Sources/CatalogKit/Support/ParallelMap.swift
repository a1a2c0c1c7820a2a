import Foundation

/// `map` spread over the cores, for work that is pure and independent item by item.
enum ParallelMap {
    /// Up to this many items, threads cost more than they save.
    static let minimumItems = 64

    /// The same values as `items.map(transform)`, in the same order. `minimumItems`: up to this many, on the calling
    /// thread alone; `width`: at most this many items at once (every core when nil).
    static func map<Item: Sendable, Value: Sendable>(_ items: [Item], minimumItems: Int = minimumItems, width: Int? = nil,
                                                     _ transform: @Sendable (Item) -> Value) -> [Value] {
        guard items.count > minimumItems, (width ?? 2) > 1 else { return items.map(transform) }
        // Each value is made straight into its place in the result: gathering them per chunk and copying them
        // into order afterwards was a serial pass over thousands of courses (a retain and a release per field).
        return Array(unsafeUninitializedCapacity: items.count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            let slots = Slots(base: base)
            // Chunk c takes items c, c + chunks, c + 2 * chunks…, so a run of slow items is shared out.
            _ = inChunks(over: items.count, width: width) { chunk, chunks in
                for index in stride(from: chunk, to: items.count, by: chunks) {
                    (slots.base + index).initialize(to: transform(items[index]))
                }
            }
            // `transform` cannot throw, so every slot was initialized once `inChunks` returned.
            initialized = items.count
        }
    }

    /// The result's storage, shared with the workers. Sound to send: each index is written by exactly one
    /// worker, and `concurrentPerform` returns only after all of them are done.
    private struct Slots<Value>: @unchecked Sendable {
        let base: UnsafeMutablePointer<Value>
    }

    /// `0..<count` cut into contiguous ranges, one `body` call each, spread over the cores; the results in
    /// range order. For work whose output is joined in order (one buffer per range instead of one per item).
    static func ranges<Value: Sendable>(over count: Int, _ body: @Sendable (Range<Int>) -> Value) -> [Value] {
        guard count > minimumItems else { return [body(0..<count)] }
        return inChunks(over: count) { chunk, chunks in body((count * chunk / chunks)..<(count * (chunk + 1) / chunks)) }
    }

    /// `body(chunk, chunks)` for each of a few chunks per core (`count` > 0), run on the cores; the results by chunk.
    /// With a `width`, that many chunks: no more run at once.
    private static func inChunks<Value: Sendable>(over count: Int, width: Int? = nil,
                                                  _ body: @Sendable (_ chunk: Int, _ chunks: Int) -> Value) -> [Value] {
        let chunks = min(width ?? ProcessInfo.processInfo.activeProcessorCount * 4, count)
        let results = ChunkResults<Value>(count: chunks)
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in results.set(chunk, body(chunk, chunks)) }
        return results.values
    }
}

/// Per-chunk results written by concurrent workers, each to its own slot.
final class ChunkResults<Value: Sendable>: @unchecked Sendable {
    // Guarded by `lock`; @unchecked is sound because nothing is touched outside it.
    private let lock = NSLock()
    private var slots: [Value?]

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    func set(_ index: Int, _ value: Value) {
        lock.withLock { slots[index] = value }
    }

    /// Every slot's value, in slot order (all are set once `concurrentPerform` returns).
    var values: [Value] { lock.withLock { slots.compactMap { $0 } } }
}
