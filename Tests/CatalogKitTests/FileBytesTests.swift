import CatalogKit
import Foundation
import Testing

struct FileBytesTests {
    /// Files whose stated size is not their length (/proc files say 0; pipes have none) are read to the end.
    @Test func aFileThatStatesSizeZeroIsStillReadToTheEnd() throws {
        let bytes = try FileBytes.read(URL(fileURLWithPath: "/proc/self/status"))
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("Name:"))
        #expect(text.contains("\nPid:"))
    }

    @Test func aLargeFileComesBackByteForByte() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-filebytes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let data = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try data.write(to: file)
        #expect(try FileBytes.read(file) == Array(data))
    }

    @Test func aMissingFileNamesItsReason() throws {
        let error = #expect(throws: FileBytes.ReadError.self) { try FileBytes.read(URL(fileURLWithPath: "/nonexistent/gvingest")) }
        #expect(error?.code == ENOENT)
    }
}
