import Foundation

/// A body a hostile server streams for as long as the client reads.
enum HostileStream {
    /// Filler without end.
    case endless
    /// A gzip stream that inflates to at least this many bytes.
    case gzipBomb(inflatedBytes: Int)

    /// What one send carries.
    var chunk: [UInt8] {
        switch self {
        case .endless: return Array(fillerBlock[0..<65_536])
        case .gzipBomb: return GzipBomb.cycle
        }
    }

    /// Whether more is due after `sent` bytes of chunks.
    func wants(moreAfter sent: Int) -> Bool {
        switch self {
        case .endless: return true
        case let .gzipBomb(inflatedBytes): return sent / GzipBomb.unit.count * GzipBomb.inflatedPerUnit < inflatedBytes
        }
    }
}

/// A deflate stream (RFC 1951) in a gzip wrapper (RFC 1952) of one fixed-Huffman block that never ends: a space,
/// then back-references of length 258 at distance 1, each 13 bits on the wire. Eight of them make 13 bytes that
/// repeat exactly, so the stream is a 12-byte head and that unit, over and over.
enum GzipBomb {
    /// The gzip header, then the block's header bits (not final, fixed Huffman) and the literal space.
    static let head: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x52, 0x18]
    /// Eight copies of (length 258, distance 1).
    static let unit: [UInt8] = [0x05, 0xA3, 0x60, 0x14, 0x8C, 0x82, 0x51, 0x30, 0x0A, 0x46, 0xC1, 0x28, 0x18]
    static let inflatedPerUnit = 8 * 258
    /// 5,000 units (65,000 bytes on the wire, 10,320,000 inflated) for one send.
    static let cycle: [UInt8] = Array((0..<5_000).map { _ in unit }.joined())
}
