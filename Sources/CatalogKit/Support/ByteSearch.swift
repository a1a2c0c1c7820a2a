import Foundation

extension String {
    /// Whether `part` occurs in the string, byte for byte in UTF-8: a plain substring search. Foundation's
    /// `contains` on strings bridges both to NSString and searches those, which cost more per page than
    /// recognizing the page's system by its URL ought to.
    func containsBytes(_ part: String) -> Bool {
        var text = self
        var part = part
        return text.withUTF8 { haystack in
            part.withUTF8 { needle in
                guard let first = needle.first else { return true }
                guard needle.count <= haystack.count, let haystackStart = haystack.baseAddress,
                      let needleStart = needle.baseAddress else { return false }
                for start in 0...(haystack.count - needle.count) where haystack[start] == first {
                    if memcmp(haystackStart + start, needleStart, needle.count) == 0 { return true }
                }
                return false
            }
        }
    }
}
