import Foundation

/// Questions asked of eight bytes at once, a `UInt64` loaded from a buffer ("Bit Twiddling Hacks"): each is
/// exact as a yes or no for the whole word, which is all the scanners need to skip it or look byte by byte.
/// (Here, beside the libxml2 wrapper's own scanners, so that they and CatalogKit's share one copy.)
public enum ByteLanes {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Whether any byte is `byte`.
    public static func contains(_ byte: UInt8, in word: UInt64) -> Bool {
        let matched = word ^ (ones &* UInt64(byte))
        return (matched &- ones) & ~matched & highs != 0
    }

    /// Whether any byte is below `limit` (at most 0x80).
    public static func containsByte(below limit: UInt8, in word: UInt64) -> Bool {
        (word &- ones &* UInt64(limit)) & ~word & highs != 0
    }

    /// Whether any byte is not ASCII.
    public static func containsNonASCII(_ word: UInt64) -> Bool {
        word & highs != 0
    }
}

/// Plain substring search on bytes.
public enum ByteSearch {
    /// Whether `part` occurs in `bytes`, byte for byte (an empty `part` always does).
    public static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ part: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = part.first else { return true }
        guard part.count <= bytes.count, let base = bytes.baseAddress, let wanted = part.baseAddress else { return false }
        for start in 0...(bytes.count - part.count) where bytes[start] == first {
            if memcmp(base + start, wanted, part.count) == 0 { return true }
        }
        return false
    }
}

extension String {
    /// Whether `part` occurs in the string, byte for byte in UTF-8: a plain substring search. Foundation's
    /// `contains` on strings bridges both to NSString and searches those, which cost more per page than
    /// recognizing the page's system by its URL ought to.
    public func containsBytes(_ part: String) -> Bool {
        var text = self
        var part = part
        return text.withUTF8 { haystack in part.withUTF8 { ByteSearch.contains(haystack, $0) } }
    }
}
