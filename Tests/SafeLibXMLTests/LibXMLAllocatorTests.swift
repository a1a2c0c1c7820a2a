#if canImport(Glibc)
import CLibXML2
import CMalloc
import Foundation
import Testing
@testable import SafeLibXML

/// The allocation hooks libxml2 uses (when no sanitizer is in the process); called directly here, so they are
/// tested under the sanitizer runs too.
struct LibXMLAllocatorTests {
    @Test func everyBlockHasRoomForWhatWasAskedAndKeepsWhatIsWritten() throws {
        // Twice over: fresh blocks first, then blocks from the thread's lists (every size is freed in between).
        for _ in 0..<2 {
            var blocks: [(UnsafeMutableRawPointer, Int)] = []
            for size in 0...600 {
                let block = try #require(LibXMLAllocator.allocate(size))
                #expect(malloc_usable_size(block) >= size)
                block.initializeMemory(as: UInt8.self, repeating: UInt8(truncatingIfNeeded: size), count: size)
                blocks.append((block, size))
            }
            // No block was handed out twice while in use, and none was written over by another.
            #expect(Set(blocks.map { $0.0 }).count == blocks.count)
            for (block, size) in blocks {
                let bytes = UnsafeRawBufferPointer(start: block, count: size)
                #expect(bytes.allSatisfy { $0 == UInt8(truncatingIfNeeded: size) })
                LibXMLAllocator.release(block)
            }
        }
    }

    @Test func aFreedSmallBlockIsTheNextOneOfItsSizeAndALargeOneIsNotKept() throws {
        let small = try #require(LibXMLAllocator.allocate(120))
        LibXMLAllocator.release(small)
        let again = try #require(LibXMLAllocator.allocate(120))
        #expect(again == small)
        LibXMLAllocator.release(again)
        // A block of a size past the lists is freed at once; the lists' blocks keep their sizes apart.
        let large = try #require(LibXMLAllocator.allocate(4_096))
        let waitingBefore = (1...16).map { LibXMLAllocator.waiting(forSize: $0 * 16) }
        LibXMLAllocator.release(large)
        #expect((1...16).map { LibXMLAllocator.waiting(forSize: $0 * 16) } == waitingBefore)
        let other = try #require(LibXMLAllocator.allocate(16))
        #expect(other != small)
        #expect(malloc_usable_size(other) >= 16)
        LibXMLAllocator.release(other)
    }

    @Test func aListHoldsAtMostItsShare() throws {
        // More blocks of one size freed than a list keeps: the rest are freed, and allocating that many again works.
        let count = LibXMLAllocator.perSize + 100
        let blocks = try (0..<count).map { _ in try #require(LibXMLAllocator.allocate(40)) }
        for block in blocks { LibXMLAllocator.release(block) }
        #expect(LibXMLAllocator.waiting(forSize: 40) == LibXMLAllocator.perSize)
        let again = try (0..<count).map { _ in try #require(LibXMLAllocator.allocate(40)) }
        #expect(Set(again).count == count)
        #expect(LibXMLAllocator.waiting(forSize: 40) == 0)
        for block in again { LibXMLAllocator.release(block) }
    }

    @Test func libxml2AllocatesThroughTheHooksUnlessASanitizerIsInTheProcess() throws {
        _ = try HTMLDocument(bytes: Array("<p>x</p>".utf8), url: URL(fileURLWithPath: "/x.html"), contentType: nil)
        var free: xmlFreeFunc?
        var allocate: xmlMallocFunc?
        var reallocate: xmlReallocFunc?
        var duplicate: xmlStrdupFunc?
        #expect(xmlMemGet(&free, &allocate, &reallocate, &duplicate) == 0)
        let systemMalloc = dlsym(nil, "malloc")
        let hooked = unsafeBitCast(allocate, to: UnsafeMutableRawPointer?.self) != systemMalloc
        #expect(hooked == !Sanitizers.allocationChecker)
    }

    @Test func duplicateCopiesTheWholeString() throws {
        let copy = try #require(LibXMLAllocator.duplicate("Schrödinger"))
        #expect(String(cString: copy) == "Schrödinger")
        LibXMLAllocator.release(copy)
        #expect(LibXMLAllocator.duplicate(nil) == nil)
    }

    @Test func threadsKeepTheirOwnLists() async throws {
        // Blocks allocated on one thread and freed on others, all at once: each stays whole.
        let rounds = 200
        await withTaskGroup(of: Bool.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var intact = true
                    for round in 0..<rounds {
                        let size = 8 + (worker * 31 + round * 7) % 250
                        guard let block = LibXMLAllocator.allocate(size) else { return false }
                        block.initializeMemory(as: UInt8.self, repeating: UInt8(worker), count: size)
                        await Task.yield()
                        intact = intact && UnsafeRawBufferPointer(start: block, count: size).allSatisfy { $0 == UInt8(worker) }
                        LibXMLAllocator.release(block)
                    }
                    return intact
                }
            }
            for await intact in group { #expect(intact) }
        }
    }
}
#endif
