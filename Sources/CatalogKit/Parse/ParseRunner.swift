import Foundation

/// Parses many pages at once, a bounded number at a time, keeping input order.
public enum ParseRunner {
    /// `concurrency`: at most this many pages at once (for saved pages, no more than there are cores either).
    public static func run(_ inputs: [PageInput], parser: PageParser,
                           concurrency: Int = ProcessInfo.processInfo.activeProcessorCount) async -> [PageResult] {
        // Saved pages keep no one waiting: they are read and parsed straight on the cores, not as a task each.
        let paths = inputs.compactMap(\.path)
        if paths.count == inputs.count {
            // Fewer at once than there are cores only when asked; `ParallelMap` never runs more than the cores.
            let width = concurrency < ProcessInfo.processInfo.activeProcessorCount ? max(1, concurrency) : nil
            return ParallelMap.map(Array(zip(inputs, paths)), minimumItems: 1, width: width) { input, path in
                do throws(InputError) {
                    let bytes = try PageReader.readFile(path, of: input)
                    return parser.parse(bytes: bytes, sourceURL: input.url, input: input.name)
                } catch {
                    return PageResult.unreadable(input, reason: error.reason)
                }
            }
        }
        return await withTaskGroup(of: (Int, PageResult).self) { group in
            var results = [PageResult?](repeating: nil, count: inputs.count)
            var next = 0
            func add(_ index: Int) {
                let input = inputs[index]
                group.addTask {
                    do throws(InputError) {
                        let (bytes, contentType) = try await PageReader.read(input)
                        return (index, parser.parse(bytes: bytes, sourceURL: input.url, input: input.name, contentType: contentType))
                    } catch {
                        return (index, PageResult.unreadable(input, reason: error.reason))
                    }
                }
            }
            while next < min(max(1, concurrency), inputs.count) { add(next); next += 1 }
            for await (index, result) in group {
                results[index] = result
                if next < inputs.count { add(next); next += 1 }
            }
            return results.compactMap { $0 }
        }
    }
}

extension PageResult {
    /// A page that could not be read at all.
    static func unreadable(_ input: PageInput, reason: String) -> PageResult {
        PageResult(input: input.name, sourceURL: input.url.absoluteString, failure: reason, unreadable: true)
    }
}
