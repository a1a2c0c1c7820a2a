import Foundation

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
    /// Whether `part` occurs in the string, byte for byte (Foundation's `contains` bridges both to NSString).
    public func containsBytes(_ part: String) -> Bool {
        var text = self
        var part = part
        return text.withUTF8 { haystack in part.withUTF8 { ByteSearch.contains(haystack, $0) } }
    }
}
