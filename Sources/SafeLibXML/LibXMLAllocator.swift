import CLibXML2
import Foundation
#if canImport(Glibc)
import CMalloc
#endif

/// libxml2's allocations, with a cache of freed small blocks per thread in front of the C allocator.
///
/// libxml2 builds a tree of a few hundred small blocks a page and frees them all at once with the document.
/// glibc keeps seven freed blocks of a size per thread at hand; the rest went back into its heap, and the next
/// page's tree took them out again the slow way (glibc's own tcache, raised from 7 to 200 blocks through
/// `GLIBC_TUNABLES`, cut `parse --json`'s CPU time by a tenth: docs/BENCHMARKS.md). Here a freed block of up to
/// 256 usable bytes waits in its thread's list for its size, up to `perSize` of them, for the next page.
///
/// Every block is still one `malloc` made, so a block allocated before the hooks were installed, or freed by
/// `free` itself, is no different. Under a sanitizer the hooks are not installed: its allocator must see every
/// allocation and every free, or it cannot tell a block used after it was freed.
enum LibXMLAllocator {
    /// List `index` holds blocks with at least `16 * index` usable bytes, for `index` in 1…16.
    private static let lists = 17
    static let perSize = 1_024

    /// Installs the hooks (once; `LibXML.ensureInitialized` calls it before libxml2's first use).
    static func install() {
        #if canImport(Glibc)
        guard !Sanitizers.allocationChecker, key != nil else { return }
        _ = xmlMemSetup({ LibXMLAllocator.release($0) }, { LibXMLAllocator.allocate($0) }, { realloc($0, $1) },
                        { LibXMLAllocator.duplicate($0) })
        #endif
    }

    #if canImport(Glibc)
    /// The thread's lists: a block of `lists` heads (each block's first word points to the next in its list)
    /// and `lists` counts, made on a thread's first allocation and freed, with what it holds, when it ends.
    private static let key: pthread_key_t? = {
        var key = pthread_key_t()
        let made = pthread_key_create(&key) { table in
            guard let table else { return }
            LibXMLAllocator.drain(table)
        }
        return made == 0 ? key : nil
    }()

    private static func table() -> UnsafeMutableRawPointer? {
        guard let key else { return nil }
        if let table = pthread_getspecific(key) { return table }
        guard let table = calloc(2 * lists, MemoryLayout<Int>.stride) else { return nil }
        guard pthread_setspecific(key, table) == 0 else {
            free(table)
            return nil
        }
        return table
    }

    private static func heads(_ table: UnsafeMutableRawPointer) -> UnsafeMutablePointer<UnsafeMutableRawPointer?> {
        table.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
    }

    private static func counts(_ table: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Int> {
        (table + lists * MemoryLayout<Int>.stride).assumingMemoryBound(to: Int.self)
    }

    static func allocate(_ size: Int) -> UnsafeMutableRawPointer? {
        // Sizes are compared before any arithmetic on them: libxml2 may ask for anything.
        guard size >= 1, size <= (lists - 1) << 4, let table = table() else { return malloc(size) }
        let index = (size + 15) >> 4
        let heads = heads(table)
        if let block = heads[index] {
            heads[index] = block.load(as: UnsafeMutableRawPointer?.self)
            counts(table)[index] -= 1
            return block
        }
        // The whole size of the list, so that the block, once freed, comes back to this list or a larger one.
        return malloc(index << 4)
    }

    static func release(_ block: UnsafeMutableRawPointer?) {
        guard let block else { return }
        // Only small blocks wait (usable sizes of 16 to 271 bytes); larger ones go straight back.
        let index = malloc_usable_size(block) >> 4
        guard index >= 1, index < lists, let table = table(), counts(table)[index] < perSize else {
            free(block)
            return
        }
        let heads = heads(table)
        block.storeBytes(of: heads[index], as: UnsafeMutableRawPointer?.self)
        heads[index] = block
        counts(table)[index] += 1
    }

    static func duplicate(_ string: UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar>? {
        guard let string else { return nil }
        let length = strlen(string) + 1
        guard let copy = allocate(length) else { return nil }
        copy.copyMemory(from: string, byteCount: length)
        return copy.assumingMemoryBound(to: CChar.self)
    }

    /// How many freed blocks wait in this thread's list for allocations of `size` bytes.
    static func waiting(forSize size: Int) -> Int {
        guard size >= 1, size <= (lists - 1) << 4, let table = table() else { return 0 }
        return counts(table)[(size + 15) >> 4]
    }

    private static func drain(_ table: UnsafeMutableRawPointer) {
        let heads = heads(table)
        for index in 0..<lists {
            var next = heads[index]
            while let block = next {
                next = block.load(as: UnsafeMutableRawPointer?.self)
                free(block)
            }
        }
        free(table)
    }
    #endif
}
