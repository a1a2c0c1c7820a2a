import SafeLibXML

/// A JSON value with a writer of its own: deterministic (keys sorted), and several times faster than `JSONEncoder`.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Wraps an optional: nil becomes `null`, so every record carries every key.
    public static func from<T>(_ value: T?, _ transform: (T) -> JSONValue) -> JSONValue {
        value.map(transform) ?? .null
    }

    /// The JSON text: pretty (two-space indent, `"key" : value`) or compact, keys sorted either way.
    public func serialized(pretty: Bool = true) -> String {
        String(decoding: serializedBytes(indentingLevels: pretty ? .max : 0), as: UTF8.self)
    }

    /// The JSON text as UTF-8, the outer `levels` of nesting indented and the rest compact (with 2: a record a line).
    public func serializedBytes(indentingLevels levels: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(into: &out, indentingLevels: levels, depth: 0)
        return out
    }

    func write(into out: inout [UInt8], indentingLevels levels: Int, depth: Int) {
        let pretty = depth < levels
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case let .bool(value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case let .int(value): Self.writeInteger(value, into: &out)
        case let .double(value):
            if let whole = value.exactWholeNumber {
                Self.writeInteger(whole, into: &out)
            } else if value.isFinite {
                out.append(contentsOf: String(value).utf8)
            } else {
                out.append(contentsOf: "null".utf8)
            }
        case let .string(value): Self.writeString(value, into: &out)
        case let .array(values):
            Self.writeArray(count: values.count, into: &out, pretty: pretty, depth: depth) { index, out in
                values[index].write(into: &out, indentingLevels: levels, depth: depth + 1)
            }
        case let .object(members):
            // Sorting the pairs, not the keys, spares looking every value up again.
            Self.writeObject(sortedMembers: members.sorted { $0.key < $1.key }, into: &out, indentingLevels: levels, depth: depth)
        }
    }

    /// An object of `members`, already sorted by key, standing at `depth`.
    static func writeObject(sortedMembers members: [(key: String, value: JSONValue)], into out: inout [UInt8],
                            indentingLevels levels: Int, depth: Int) {
        guard !members.isEmpty else { out.append(contentsOf: "{}".utf8); return }
        let pretty = depth < levels
        out.append(UInt8(ascii: "{"))
        for (index, member) in members.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            newline(&out, pretty: pretty, depth: depth + 1)
            writeString(member.key, into: &out)
            append(pretty ? " : " : ":", to: &out)
            member.value.write(into: &out, indentingLevels: levels, depth: depth + 1)
        }
        newline(&out, pretty: pretty, depth: depth)
        out.append(UInt8(ascii: "}"))
    }

    /// An array's brackets, commas and line breaks around `count` elements that `element` writes at `depth + 1`.
    static func writeArray(count: Int, into out: inout [UInt8], pretty: Bool, depth: Int,
                           element: (Int, inout [UInt8]) -> Void) {
        guard count > 0 else { out.append(contentsOf: "[]".utf8); return }
        out.append(UInt8(ascii: "["))
        for index in 0..<count {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            newline(&out, pretty: pretty, depth: depth + 1)
            element(index, &out)
        }
        newline(&out, pretty: pretty, depth: depth)
        out.append(UInt8(ascii: "]"))
    }

    static func newline(_ out: inout [UInt8], pretty: Bool, depth: Int) {
        guard pretty else { return }
        out.append(UInt8(ascii: "\n"))
        indent(&out, depth: depth)
    }

    /// Two spaces per level, copied from a row of them: appending a `repeatElement` went space by space.
    static func indent(_ out: inout [UInt8], depth: Int) {
        var remaining = depth * 2
        while remaining > 0 {
            let run = min(remaining, spaces.utf8CodeUnitCount)
            append(spaces, prefix: run, to: &out)
            remaining -= run
        }
    }

    /// The first `count` bytes of a literal: a shared array would have its reference count bounce between the cores.
    static func append(_ literal: StaticString, prefix count: Int = .max, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: min(count, literal.utf8CodeUnitCount)))
    }

    private static let spaces: StaticString = "                                                                "

    /// Decimal digits straight into the output, without making a String first.
    static func writeInteger(_ value: Int, into out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        // The magnitude as unsigned, so Int.min has one too.
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[19 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            out.append(contentsOf: buffer[(20 - count)...])
        }
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// The string in quotes, with JSON's escapes.
    static func writeString(_ value: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { bytes in
            // Copy the runs that need no escape in one go; most strings are one run.
            var runStart = 0
            while true {
                var position = runStart
                while position < bytes.count, bytes[position] >= 0x20, bytes[position] != UInt8(ascii: "\""),
                      bytes[position] != UInt8(ascii: "\\") {
                    position += 1
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
                guard position < bytes.count else { return }
                let byte = bytes[position]
                runStart = position + 1
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                case 0..<0x20:
                    out.append(contentsOf: "u00".utf8)
                    out.append(hex[Int(byte >> 4)])
                    out.append(hex[Int(byte & 0xF)])
                default: out.append(byte)
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

extension Double {
    /// The value as an `Int` when it is a whole number small enough to be exact (below 10^15), which is how it is
    /// written; nil otherwise. Converting a larger or non-finite value with `Int(_:)` would stop the program.
    public var exactWholeNumber: Int? { isFinite && self == rounded() && Swift.abs(self) < 1e15 ? Int(self) : nil }
}
