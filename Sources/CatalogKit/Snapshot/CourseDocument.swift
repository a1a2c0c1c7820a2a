import Foundation

/// A JSON object with a `"courses"` array of course records: a snapshot or a published catalog, read in slices on
/// all the cores. Foundation's decoder reads a whole document on one core and holds its map to the end: two
/// 50,000-course snapshots took 3.6–3.9 s and 586 MiB that way (docs/BENCHMARKS.md has the figures sliced).
public enum CourseDocument {
    /// Records decoded together: enough to keep the cores busy, few enough that a slice's map stays small.
    static let recordsPerSlice = 500

    /// The document's other members as `Header` (its courses left empty) and each course record made into a `T` as
    /// its slice is read, in order. Where the bytes are not laid out as expected or a slice does not decode, the
    /// whole document is decoded instead: its courses, or the error with its JSON path ("courses[3].credits: …").
    public static func read<Header: Decodable, T: Sendable>(_ bytes: [UInt8], header: Header.Type,
                                                            _ transform: @escaping @Sendable (CourseRecord) -> T)
        throws(FormatError) -> (header: Header, courses: [T]) {
        guard let layout = bytes.withUnsafeBufferPointer(coursesLayout) else { return try whole(bytes, Header.self, transform) }
        let header = try Self.header(bytes, layout.array, Header.self)
        let slices = stride(from: 0, to: layout.records.count, by: recordsPerSlice).map { start in
            layout.records[start].lowerBound..<layout.records[min(start + recordsPerSlice, layout.records.count) - 1].upperBound
        }
        // Each slice's bytes are copied on the core that reads them, and let go of there.
        let decoded = ParallelMap.map(slices, minimumItems: 1) { slice -> [T]? in
            let json = Data("[".utf8) + bytes[slice] + Data("]".utf8)
            return (try? JSONDecoder().decode([CourseRecord].self, from: json))?.map(transform)
        }
        var courses: [T] = []
        courses.reserveCapacity(layout.records.count)
        for slice in decoded {
            guard let slice else { return try whole(bytes, Header.self, transform) }
            courses += slice
        }
        return (header, courses)
    }

    /// The document's other members as `Header`, its courses not read at all: what a snapshot says of itself (its
    /// pages, its time) costs a scan of its bytes, not the decoding of thousands of records.
    public static func header<Header: Decodable>(_ bytes: [UInt8], as type: Header.Type) throws(FormatError) -> Header {
        guard let layout = bytes.withUnsafeBufferPointer(coursesLayout) else { return try JSONFile.decode(Header.self, from: bytes) }
        return try header(bytes, layout.array, Header.self)
    }

    private static func header<Header: Decodable>(_ bytes: [UInt8], _ courses: Range<Int>, _ type: Header.Type) throws(FormatError) -> Header {
        try JSONFile.decode(Header.self, from: bytes[..<courses.lowerBound] + Array("[]".utf8) + bytes[courses.upperBound...])
    }

    /// The capture time of a snapshot (nil for a published catalog) and its courses, each made into a `T`.
    public static func read<T: Sendable>(_ bytes: [UInt8], _ transform: @escaping @Sendable (CourseRecord) -> T)
        throws(FormatError) -> (capturedAt: String?, courses: [T]) {
        let (header, courses) = try read(bytes, header: CaptureTime.self, transform)
        return (header.capturedAt, courses)
    }

    private struct CaptureTime: Decodable {
        var capturedAt: String?
    }

    private struct Courses: Decodable {
        var courses: [CourseRecord]
    }

    /// The whole document decoded at once, on one core.
    private static func whole<Header: Decodable, T>(_ bytes: [UInt8], _ header: Header.Type,
                                                    _ transform: (CourseRecord) -> T) throws(FormatError) -> (header: Header, courses: [T]) {
        let header = try JSONFile.decode(Header.self, from: bytes)
        return (header, try JSONFile.decode(Courses.self, from: bytes).courses.map(transform))
    }

    /// Where the top-level `"courses"` array stands and where each of its records does: a scan that follows only
    /// strings and nesting, never values. Nil unless the text is an object with that member, spelled plainly.
    static func coursesLayout(_ bytes: UnsafeBufferPointer<UInt8>) -> (array: Range<Int>, records: [Range<Int>])? {
        let key = Array(#""courses""#.utf8)
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
        func skipSpace(_ index: inout Int) { while index < bytes.count, isSpace(bytes[index]) { index += 1 } }
        var index = 0, depth = 0, expectingKey = false
        // Once in the array: where it starts, the nesting inside it, and where the current record began.
        var array: Int?, inner = 0, recordStart: Int?
        var records: [Range<Int>] = []
        func endRecord(at end: Int) {
            var end = end
            while end > 0, isSpace(bytes[end - 1]) { end -= 1 }
            if let start = recordStart { records.append(start..<end) }
            recordStart = nil
        }
        while index < bytes.count {
            let byte = bytes[index]
            if array != nil, inner == 0, recordStart == nil, !isSpace(byte), byte != UInt8(ascii: ","), byte != UInt8(ascii: "]") {
                recordStart = index
            }
            switch byte {
            case UInt8(ascii: "\""):
                let start = index
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") { index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1 }
                guard index < bytes.count else { return nil }
                if array == nil, depth == 1, expectingKey, bytes[start...index].elementsEqual(key) {
                    var next = index + 1
                    skipSpace(&next)
                    guard next < bytes.count, bytes[next] == UInt8(ascii: ":") else { return nil }
                    next += 1
                    skipSpace(&next)
                    guard next < bytes.count, bytes[next] == UInt8(ascii: "[") else { return nil }
                    array = next
                    index = next
                }
                expectingKey = false
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if array != nil { inner += 1 } else { depth += 1 }
                expectingKey = array == nil && depth == 1 && byte == UInt8(ascii: "{")
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if let start = array {
                    if inner == 0 {
                        endRecord(at: index)
                        return (start..<index + 1, records)
                    }
                    inner -= 1
                } else {
                    depth -= 1
                }
            case UInt8(ascii: ","):
                if array != nil {
                    if inner == 0 { endRecord(at: index) }
                } else {
                    expectingKey = depth == 1
                }
            default:
                break
            }
            index += 1
        }
        return nil
    }
}
