/// The skipping path: members of a streamed object nobody asked for are checked as strictly as built ones, not built.
extension JSONTextParser {
    /// An object's members named `keys`, by position; the others are skipped without being built.
    mutating func selectedMembers(_ keys: [[UInt8]], depth: Int) throws(JSONSyntaxError) -> [JSONValue?] {
        guard depth < JSONValue.maximumDepth else { throw error("nested more than \(JSONValue.maximumDepth) deep") }
        // Bit n set: some wanted key is n bytes long (bit 63: 63 or more).
        let lengths = keys.reduce(UInt64(0)) { $0 | (1 << UInt64(min($1.count, 63))) }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { throw error("expected an object") }
        index += 1
        var values = [JSONValue?](repeating: nil, count: keys.count)
        let base = skippedKeys.count
        var seen: UInt64 = 0
        defer { skippedKeys.removeSubrange(base...) }
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return values }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a quoted key") }
            let key = try keyText()
            let slot = Self.slot(of: key, in: keys, lengths: lengths, text: bytes)
            if slot == nil { try noteSkippedKey(key, since: base, seen: &seen) }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
            index += 1
            skipSpace()
            if let slot {
                guard values[slot] == nil else { throw error("the key \"\(String(decoding: keys[slot], as: UTF8.self))\" appears twice") }
                values[slot] = try value(depth: depth + 1)
            } else {
                try skipValue(depth: depth + 1)
            }
            guard try more(UInt8(ascii: "}"), end: "unexpected end of the text inside an object") else { return values }
        }
    }

    /// Reads a key (or a string being skipped) without making a String of it when it has no escapes.
    mutating func keyText() throws(JSONSyntaxError) -> KeyText {
        let start = index + 1
        var end = start
        var allBits: UInt8 = 0
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            allBits |= byte
            end += 1
        }
        // A run with a byte past ASCII is checked whole by the standard library: a quote, a backslash or a control
        // character cannot be part of a UTF-8 sequence, so the run ends where the string's text does.
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\""),
              allBits < 0x80 || (try? UTF8Span(validating: UnsafeBufferPointer(rebasing: bytes[start..<end]).span)) != nil else {
            // An escape, a control character or a byte that is not UTF-8: read and checked as any string is.
            return .decoded(Array(try string().utf8))
        }
        index = end + 1
        return .span(start..<end)
    }

    /// A key's position in `keys`, comparing bytes.
    static func slot(of key: KeyText, in keys: [[UInt8]], lengths: UInt64, text: UnsafeBufferPointer<UInt8>) -> Int? {
        switch key {
        case let .decoded(name): return keys.firstIndex(of: name)
        case let .span(span):
            // Most keys of a record are not wanted and differ in length from every wanted one.
            guard lengths & (1 << UInt64(min(span.count, 63))) != 0 else { return nil }
            return keys.firstIndex { key in
                guard key.count == span.count else { return false }
                for offset in 0..<span.count where key[offset] != text[span.lowerBound + offset] { return false }
                return true
            }
        }
    }

    /// Refuses a key its object (keys `skippedKeys[base...]`) already had; only a key whose `sketch` bit is already
    /// set in `seen` is compared with the others.
    mutating func noteSkippedKey(_ key: KeyText, since base: Int, seen: inout UInt64) throws(JSONSyntaxError) {
        let text = bytes
        let bit = UInt64(1) << UInt64(key.sketch(text: text) & 63)
        if seen & bit != 0, skippedKeys[base...].contains(where: { $0.equals(key, text: text) }) {
            throw error("the key \"\(key.string(text: text))\" appears twice")
        }
        seen |= bit
        skippedKeys.append(key)
    }

    /// Checks a value's syntax and moves past it without building it.
    mutating func skipValue(depth: Int) throws(JSONSyntaxError) {
        guard depth < JSONValue.maximumDepth else { throw error("nested more than \(JSONValue.maximumDepth) deep") }
        guard index < bytes.count else { throw error("unexpected end of the text") }
        let close: UInt8
        switch bytes[index] {
        case UInt8(ascii: "{"): close = UInt8(ascii: "}")
        case UInt8(ascii: "["): close = UInt8(ascii: "]")
        case UInt8(ascii: "\""):
            _ = try keyText()
            return
        default:
            _ = try value(depth: depth)
            return
        }
        let isObject = close == UInt8(ascii: "}")
        let base = skippedKeys.count
        var seen: UInt64 = 0
        defer { skippedKeys.removeSubrange(base...) }
        index += 1
        skipSpace()
        if index < bytes.count, bytes[index] == close { index += 1; return }
        while true {
            skipSpace()
            if isObject {
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a quoted key") }
                try noteSkippedKey(try keyText(), since: base, seen: &seen)
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
                index += 1
                skipSpace()
            }
            try skipValue(depth: depth + 1)
            guard try more(close, end: "unexpected end of the text") else { return }
        }
    }
}

/// A key as read by the skipping path: its span of the text, or its bytes once unescaped (and checked).
enum KeyText {
    case span(Range<Int>)
    case decoded([UInt8])

    func string(text: UnsafeBufferPointer<UInt8>) -> String {
        switch self {
        case let .span(span): return String(decoding: text[span], as: UTF8.self)
        case let .decoded(name): return String(decoding: name, as: UTF8.self)
        }
    }

    /// A number equal keys share: from the length and the first and last bytes.
    func sketch(text: UnsafeBufferPointer<UInt8>) -> Int {
        switch self {
        case let .span(span): return span.isEmpty ? 0 : span.count &* 7 &+ Int(text[span.lowerBound]) &+ Int(text[span.upperBound - 1]) &* 3
        case let .decoded(name): return name.isEmpty ? 0 : name.count &* 7 &+ Int(name[0]) &+ Int(name[name.count - 1]) &* 3
        }
    }

    func equals(_ other: KeyText, text: UnsafeBufferPointer<UInt8>) -> Bool {
        switch (self, other) {
        case let (.span(a), .span(b)): return a.count == b.count && text[a].elementsEqual(text[b])
        case let (.span(a), .decoded(b)), let (.decoded(b), .span(a)): return a.count == b.count && text[a].elementsEqual(b)
        case let (.decoded(a), .decoded(b)): return a == b
        }
    }
}
