/// Questions asked of eight bytes at once, a `UInt64` loaded from a buffer ("Bit Twiddling Hacks"): each is
/// exact as a yes or no for the whole word, which is all the scanners need to skip it or look byte by byte.
enum ByteLanes {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Whether any byte is `byte`.
    static func contains(_ byte: UInt8, in word: UInt64) -> Bool {
        let matched = word ^ (ones &* UInt64(byte))
        return (matched &- ones) & ~matched & highs != 0
    }

    /// Whether any byte is below `limit` (at most 0x80).
    static func containsByte(below limit: UInt8, in word: UInt64) -> Bool {
        (word &- ones &* UInt64(limit)) & ~word & highs != 0
    }

    /// Whether any byte is not ASCII.
    static func containsNonASCII(_ word: UInt64) -> Bool {
        word & highs != 0
    }
}
