/// Takes an object's members one by one, in key order: a record lists its members once, in a
/// `visitMembers(_:)` of its own, and each visitor does one thing with them (collect them as `JSONValue`s,
/// or write them).
protocol JSONMemberVisitor {
    /// A string, `null` when nil.
    mutating func string(_ key: String, _ value: String?)
    /// A string, left out when nil.
    mutating func string(_ key: String, ifPresent value: String?)
    mutating func int(_ key: String, _ value: Int)
    mutating func bool(_ key: String, _ value: Bool)
    /// A record of its own, `null` when nil.
    mutating func object<Record: JSONRecord>(_ key: String, _ value: Record?)
    mutating func objects<Record: JSONRecord>(_ key: String, _ values: [Record])
    mutating func strings(_ key: String, _ values: [String])
    /// An object of strings; its keys are sorted on the way out, as for any object.
    mutating func stringTable(_ key: String, _ table: [String: String])
    /// Any other value, as a `JSONValue` made by `make` when the visitor comes to it.
    mutating func value(_ key: String, _ make: () -> JSONValue)
}

/// Something written as a JSON object whose members are listed once, in key order, in `visitMembers(_:)`.
protocol JSONRecord {
    func visitMembers<Visitor: JSONMemberVisitor>(_ visitor: inout Visitor)
}

extension JSONRecord {
    /// The record's members as values, in key order.
    var members: [(key: String, value: JSONValue)] {
        var collector = JSONMemberCollector()
        visitMembers(&collector)
        return collector.members
    }

    /// The record as a `JSONValue` object.
    var jsonObject: JSONValue { .object(Dictionary(uniqueKeysWithValues: members)) }

    /// Writes the record (the same bytes as `jsonObject.write`) straight into `out`: no `JSONValue` per member
    /// and no dictionary of members; `parse --json` writes thousands of records.
    func writeObject(into out: inout [UInt8], indentingLevels levels: Int, depth: Int) {
        JSONObjectWriter.write(into: &out, indentingLevels: levels, depth: depth) { visitMembers(&$0) }
    }
}

/// Collects the members as values, in the order visited.
struct JSONMemberCollector: JSONMemberVisitor {
    var members: [(key: String, value: JSONValue)] = []

    mutating func string(_ key: String, _ value: String?) { members.append((key, .from(value, JSONValue.string))) }
    mutating func string(_ key: String, ifPresent value: String?) {
        if let value { members.append((key, .string(value))) }
    }
    mutating func int(_ key: String, _ value: Int) { members.append((key, .int(value))) }
    mutating func bool(_ key: String, _ value: Bool) { members.append((key, .bool(value))) }
    mutating func object<Record: JSONRecord>(_ key: String, _ value: Record?) {
        members.append((key, value.map(\.jsonObject) ?? .null))
    }
    mutating func objects<Record: JSONRecord>(_ key: String, _ values: [Record]) {
        members.append((key, .array(values.map(\.jsonObject))))
    }
    mutating func strings(_ key: String, _ values: [String]) { members.append((key, .array(values.map(JSONValue.string)))) }
    mutating func stringTable(_ key: String, _ table: [String: String]) {
        members.append((key, .object(table.mapValues(JSONValue.string))))
    }
    mutating func value(_ key: String, _ make: () -> JSONValue) { members.append((key, make())) }
}

/// Writes the members straight into `out` as one object, the bytes `JSONValue.writeObject` writes for the
/// same members: callers visit them sorted by key.
struct JSONObjectWriter: JSONMemberVisitor {
    var out: [UInt8] = []
    private let levels: Int
    private let depth: Int
    private let pretty: Bool
    private var count = 0

    /// `levels` and `depth` as for `JSONValue.write`: the object stands at `depth`.
    private init(indentingLevels levels: Int, depth: Int) {
        self.levels = levels
        self.depth = depth
        self.pretty = depth < levels
    }

    /// One object written into `out`: `members` hands the writer its members in key order. The buffer is lent
    /// to the writer and taken back (swaps, no copies).
    static func write(into out: inout [UInt8], indentingLevels levels: Int, depth: Int, members: (inout JSONObjectWriter) -> Void) {
        var writer = JSONObjectWriter(indentingLevels: levels, depth: depth)
        swap(&writer.out, &out)
        members(&writer)
        writer.finish()
        swap(&writer.out, &out)
    }

    /// `{` or `,`, the line break and indentation when pretty, the key in quotes and its colon: the bytes
    /// around the key are copied from literals, a few appends a member instead of one per piece.
    private mutating func key(_ key: String) {
        let opening = count == 0
        count += 1
        if pretty, 2 * (depth + 1) + 2 <= Self.prettyOpening.utf8CodeUnitCount {
            JSONValue.append(opening ? Self.prettyOpening : Self.prettySeparator, prefix: 2 * (depth + 1) + 2, to: &out)
        } else {
            out.append(UInt8(ascii: opening ? "{" : ","))
            if pretty { JSONValue.newline(&out, pretty: true, depth: depth + 1) }
        }
        out.append(UInt8(ascii: "\""))
        JSONValue.writeEscaped(key, into: &out)
        JSONValue.append(pretty ? "\" : " : "\":", to: &out)
    }

    /// `{` or `,` and a line break, then spaces: a prefix of them is the start of a member at any depth below 16.
    private static let prettyOpening: StaticString = "{\n                                "
    private static let prettySeparator: StaticString = ",\n                                "

    mutating func string(_ key: String, _ value: String?) {
        self.key(key)
        if let value { JSONValue.writeString(value, into: &out) } else { out.append(contentsOf: "null".utf8) }
    }

    mutating func string(_ key: String, ifPresent value: String?) {
        if let value { string(key, value) }
    }

    mutating func int(_ key: String, _ value: Int) {
        self.key(key)
        JSONValue.writeInteger(value, into: &out)
    }

    mutating func bool(_ key: String, _ value: Bool) {
        self.key(key)
        out.append(contentsOf: (value ? "true" : "false").utf8)
    }

    mutating func object<Record: JSONRecord>(_ key: String, _ value: Record?) {
        self.key(key)
        guard let value else { out.append(contentsOf: "null".utf8); return }
        value.writeObject(into: &out, indentingLevels: levels, depth: depth + 1)
    }

    mutating func objects<Record: JSONRecord>(_ key: String, _ values: [Record]) {
        self.key(key)
        JSONValue.writeArray(count: values.count, into: &out, pretty: depth + 1 < levels, depth: depth + 1) { index, out in
            values[index].writeObject(into: &out, indentingLevels: levels, depth: depth + 2)
        }
    }

    mutating func strings(_ key: String, _ values: [String]) {
        self.key(key)
        JSONValue.writeArray(count: values.count, into: &out, pretty: depth + 1 < levels, depth: depth + 1) { index, out in
            JSONValue.writeString(values[index], into: &out)
        }
    }

    mutating func stringTable(_ key: String, _ table: [String: String]) {
        self.key(key)
        JSONObjectWriter.write(into: &out, indentingLevels: levels, depth: depth + 1) { nested in
            for (member, value) in table.sorted(by: { $0.key < $1.key }) { nested.string(member, value) }
        }
    }

    mutating func value(_ key: String, _ make: () -> JSONValue) {
        self.key(key)
        make().write(into: &out, indentingLevels: levels, depth: depth + 1)
    }

    /// Closes the object (`{}` when nothing was visited).
    private mutating func finish() {
        guard count > 0 else { out.append(contentsOf: "{}".utf8); return }
        JSONValue.newline(&out, pretty: pretty, depth: depth)
        out.append(UInt8(ascii: "}"))
    }
}
