/// Where JSON text stops being JSON.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var message: String
    public var description: String { "line \(line), column \(column): \(message)" }
}

extension JSONValue {
    /// Nesting deeper than this is refused rather than risking the stack.
    static let maximumDepth = 512

    /// Parses JSON text (RFC 8259). Integers without fraction or exponent become `.int`.
    public static func parse(_ text: some Collection<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        try Array(text).withUnsafeBufferPointer { (bytes) throws(JSONSyntaxError) -> JSONValue in
            var parser = JSONTextParser(bytes: bytes)
            return try parser.document()
        }
    }

    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    /// Parses a JSON object whose member `key` is a long array, handing each element to `each` as it is read (so a
    /// large document never exists as one tree); that member is returned empty. What `each` throws stops the parse.
    public static func parse(_ text: [UInt8], streaming key: String, each: (JSONValue) throws -> Void) throws -> JSONValue {
        try withoutActuallyEscaping(each) { each in try parseStreaming(text, key: key, elements: .whole(each)) }
    }

    /// The same for an array of objects of which only some members matter: each is handed over as the values of
    /// `keys`, by position (nil where absent); the others are checked but never built, most of a record's cost.
    public static func parse(_ text: [UInt8], streaming key: String, selecting keys: [String],
                             each: ([JSONValue?]) throws -> Void) throws -> JSONValue {
        try withoutActuallyEscaping(each) { each in
            try parseStreaming(text, key: key, elements: .selected(keys: keys.map { Array($0.utf8) }, each))
        }
    }

    private static func parseStreaming(_ text: [UInt8], key: String, elements: StreamedElements) throws -> JSONValue {
        try text.withUnsafeBufferPointer { bytes in
            var parser = JSONTextParser(bytes: bytes, streamed: (key, elements))
            do {
                return try parser.document(objectOnly: true)
            } catch {
                // The parser stops with a syntax error when the reader refuses an element; report the refusal.
                throw parser.refusal ?? error
            }
        }
    }

    /// A member of an object, or nil.
    public subscript(key: String) -> JSONValue? {
        if case let .object(members) = self { return members[key] }
        return nil
    }

    /// How a value is described in an error message: `"8"`, `true`, `an array`.
    public var shortDescription: String {
        switch self {
        case .null: return "null"
        case let .bool(value): return value ? "true" : "false"
        case let .int(value): return String(value)
        case let .double(value): return String(value)
        case let .string(value): return "\"\(value)\""
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The value as people read it (a diff, a CSV cell): a string as is, a list joined by "; ", null as `none`.
    public func displayText(none: String) -> String {
        switch self {
        case .null: return none
        case let .string(text): return text
        case let .array(items): return items.map { $0.displayText(none: none) }.joined(separator: "; ")
        default: return serialized(pretty: false)
        }
    }
}

/// How the elements of a streamed array are handed over to their reader.
enum StreamedElements {
    case whole((JSONValue) throws -> Void)
    /// Objects only: the values of the members named `keys` (UTF-8), by position, nil where absent.
    case selected(keys: [[UInt8]], ([JSONValue?]) throws -> Void)
}

struct JSONTextParser {
    /// The text, valid inside `withUnsafeBufferPointer`: unchecked access matters at tens of megabytes.
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// The top-level member whose array elements go to a handler instead of into the tree.
    var streamed: (key: String, elements: StreamedElements)?
    /// The keys of the objects the skipping path is inside, innermost last, so a key twice is refused there too.
    var skippedKeys: [KeyText] = []
    /// What the reader of a streamed element threw, which stopped the parse.
    var refusal: (any Error)?

    func error(_ message: String) -> JSONSyntaxError {
        var line = 1, column = 1
        for byte in bytes[..<min(index, bytes.count)] {
            if byte == 0x0A { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        return JSONSyntaxError(line: line, column: column, message: message)
    }

    /// The whole text as one value (`objectOnly`: an object), with nothing but white space around it.
    mutating func document(objectOnly: Bool = false) throws(JSONSyntaxError) -> JSONValue {
        skipSpace()
        if objectOnly, index == bytes.count || bytes[index] != UInt8(ascii: "{") { throw error("expected an object") }
        let parsed = try value(depth: 0)
        skipSpace()
        guard index == bytes.count else { throw error("unexpected text after the JSON value") }
        return parsed
    }

    mutating func skipSpace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
            index += 1
        }
    }

    mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth < JSONValue.maximumDepth else { throw error("nested more than \(JSONValue.maximumDepth) deep") }
        guard index < bytes.count else { throw error("unexpected end of the text") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw error("unexpected character '\(Character(Unicode.Scalar(bytes[index])))'")
        }
    }

    mutating func literal(_ word: String) throws(JSONSyntaxError) {
        for byte in word.utf8 {
            guard index < bytes.count, bytes[index] == byte else { throw error("expected \(word)") }
            index += 1
        }
    }

    mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        index += 1
        var members: [String: JSONValue] = [:]
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a quoted key") }
            let key = try string()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after the key \"\(key)\"") }
            index += 1
            skipSpace()
            guard members[key] == nil else { throw error("the key \"\(key)\" appears twice") }
            if depth == 0, let streamed, streamed.key == key, index < bytes.count, bytes[index] == UInt8(ascii: "[") {
                members[key] = try array(depth: depth + 1, each: streamed.elements)
            } else {
                members[key] = try value(depth: depth + 1)
            }
            guard try more(UInt8(ascii: "}"), end: "unexpected end of the text inside an object") else { return .object(members) }
        }
    }

    /// An array; with `each`, its elements go to their handler one by one and the array returned is empty.
    mutating func array(depth: Int, each: StreamedElements? = nil) throws(JSONSyntaxError) -> JSONValue {
        index += 1
        var values: [JSONValue] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(values) }
        while true {
            skipSpace()
            switch each {
            case nil:
                values.append(try value(depth: depth + 1))
            case let .whole(reader)?:
                try hand(try value(depth: depth + 1), to: reader)
            case let .selected(keys, reader)?:
                try hand(try selectedMembers(keys, depth: depth + 1), to: reader)
            }
            guard try more(UInt8(ascii: "]"), end: "unexpected end of the text inside an array") else { return .array(values) }
        }
    }

    /// Hands a streamed element to its reader; what the reader throws is kept as the refusal and stops the parse.
    mutating func hand<Element>(_ element: Element, to reader: (Element) throws -> Void) throws(JSONSyntaxError) {
        do {
            try reader(element)
        } catch let reason {
            refusal = reason
            throw error("the reader refused an element")
        }
    }

    /// After a member or an element: true past a ',' (another follows), false past `close` (the last one).
    @inline(__always)
    mutating func more(_ close: UInt8, end: String) throws(JSONSyntaxError) -> Bool {
        skipSpace()
        guard index < bytes.count else { throw error(end) }
        if bytes[index] == UInt8(ascii: ",") { index += 1; return true }
        if bytes[index] == close { index += 1; return false }
        throw error(close == UInt8(ascii: "}") ? "expected ',' or '}' in an object" : "expected ',' or ']' in an array")
    }

    mutating func string() throws(JSONSyntaxError) -> String {
        index += 1
        // Most strings have no escapes: make them straight from the bytes (ASCII needs no validating).
        let start = index
        var ascii = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let end = index
                index += 1
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<end])
                let text = ascii ? String(decoding: slice, as: UTF8.self) : String(validating: slice, as: UTF8.self)
                guard let text else { throw error("invalid UTF-8 in a string") }
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            ascii = ascii && byte < 0x80
            index += 1
        }
        var output = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: output, as: UTF8.self) else { throw error("invalid UTF-8 in a string") }
                return text
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(escape)
                case UInt8(ascii: "b"): output.append(0x08)
                case UInt8(ascii: "f"): output.append(0x0C)
                case UInt8(ascii: "n"): output.append(0x0A)
                case UInt8(ascii: "r"): output.append(0x0D)
                case UInt8(ascii: "t"): output.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("a lone UTF-16 surrogate in a string")
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("a lone UTF-16 surrogate in a string") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw error("an invalid \\u escape") }
                    output.append(contentsOf: Array(String(Character(unicode)).utf8))
                default:
                    throw error("an invalid escape \\\(Character(Unicode.Scalar(escape)))")
                }
            case 0..<0x20:
                throw error("a control character inside a string")
            default:
                output.append(byte)
            }
        }
        throw error("unexpected end of the text inside a string")
    }

    mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("an incomplete \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let digit = Character(Unicode.Scalar(bytes[index])).hexDigitValue
            index += 1
            guard let digit else { throw error("an invalid \\u escape") }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    mutating func number() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        var integral = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits() -> Int {
            let from = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            return index - from
        }
        guard digits() > 0 else { throw error("expected digits in a number") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            integral = false
            index += 1
            guard digits() > 0 else { throw error("expected digits after the decimal point") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            integral = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error("expected digits in the exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if integral, let value = Int(text) { return .int(value) }
        guard let value = Double(text) else { throw error("a number out of range") }
        return .double(value)
    }
}
