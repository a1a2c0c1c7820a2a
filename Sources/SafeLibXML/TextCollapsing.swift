/// Whitespace handling shared by every text the wrapper hands out.
public enum TextCollapsing {
    /// Every run of white space (NBSP and the other Unicode spaces too) made one ASCII space, both ends trimmed.
    public static func collapse<S: StringProtocol>(_ text: S) -> String {
        if let result = text.utf8.withContiguousStorageIfAvailable({ collapse(bytes: $0) }) { return result }
        return Array(text.utf8).withUnsafeBufferPointer { collapse(bytes: $0) }
    }

    /// `collapse`, uncopied when collapsed already (the generic one is not specialized across modules).
    public static func collapse(_ text: String) -> String {
        var text = text
        let result: String? = text.withUTF8 { isCollapsed($0) ? nil : collapse(bytes: $0) }
        return result ?? text
    }

    /// Whether collapsing would change nothing.
    static func isCollapsed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var previousWasSpace = true  // a space first is a leading space
        for index in bytes.indices {
            // Visible ASCII is never white space: it is passed over without asking `spaceLength`.
            let space = bytes[index] > 0x20 && bytes[index] < 0x7F ? 0 : spaceLength(bytes, at: index)
            if space > 0, previousWasSpace || space > 1 || bytes[index] != 0x20 { return false }
            previousWasSpace = space > 0
        }
        return !previousWasSpace || bytes.isEmpty
    }

    static func collapse(bytes: UnsafeBufferPointer<UInt8>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var pendingSpace = false
        var index = 0
        while index < bytes.count {
            let space = spaceLength(bytes, at: index)
            if space > 0 {
                pendingSpace = !output.isEmpty
                index += space
                continue
            }
            if pendingSpace {
                output.append(0x20)
                pendingSpace = false
            }
            // This byte, and the visible ASCII after it (never white space), copied as one run.
            var end = index + 1
            while end < bytes.count, bytes[end] > 0x20, bytes[end] < 0x7F { end += 1 }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
            index = end
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The length in bytes of the white-space character at `index`, or 0 when there is none.
    @inlinable  // asked once per byte of every text the parsers read; a call each time cost more than the test
    public static func spaceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let byte = bytes[index]
        if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) { return 1 }
        guard byte >= 0xC2 else { return 0 }
        let remaining = bytes.count - index
        if byte == 0xC2, remaining >= 2 { return bytes[index + 1] == 0xA0 || bytes[index + 1] == 0x85 ? 2 : 0 }
        guard remaining >= 3 else { return 0 }
        let second = bytes[index + 1], third = bytes[index + 2]
        switch byte {
        case 0xE2:
            // U+2000–U+200A, U+2028, U+2029, U+202F, U+205F
            if second == 0x80, (third >= 0x80 && third <= 0x8A) || third == 0xA8 || third == 0xA9 || third == 0xAF { return 3 }
            if second == 0x81, third == 0x9F { return 3 }
            return 0
        case 0xE3:
            return second == 0x80 && third == 0x80 ? 3 : 0 // U+3000
        case 0xE1:
            return second == 0x9A && third == 0x80 ? 3 : 0 // U+1680
        default:
            return 0
        }
    }

    /// White space as a reader sees it: ASCII spaces, NBSP, the Unicode space separators, line and paragraph separators.
    public static func isCollapsibleSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    /// Whether a string holds nothing but white space, answered from the bytes while they are ASCII.
    public static func isBlank(_ text: String) -> Bool {
        for byte in text.utf8 {
            if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) { continue }
            if byte < 0x80 { return false }
            return text.unicodeScalars.allSatisfy(isCollapsibleSpace)
        }
        return true
    }
}
