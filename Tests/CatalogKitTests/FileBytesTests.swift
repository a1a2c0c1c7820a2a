@testable import CatalogKit
import Foundation
import Testing

struct FileBytesTests {
    /// Files whose stated size is not their length (/proc files say 0; pipes have none) are read to the end.
    @Test func aFileThatStatesSizeZeroIsStillReadToTheEnd() throws {
        let bytes = try FileBytes.read(URL(fileURLWithPath: "/proc/self/status"), limit: FileBytes.Limit.document)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("Name:"))
        #expect(text.contains("\nPid:"))
        // Past one page, such a file comes a page or less per read: a short read is not its end. The memory map
        // of a test process runs to many pages, and the stack is near its end.
        let map = String(decoding: try FileBytes.read(path: "/proc/self/maps", limit: FileBytes.Limit.document), as: UTF8.self)
        #expect(map.utf8.count > 4_096)
        #expect(map.contains("[stack]"))
        #expect(map.hasSuffix("\n"))
    }

    @Test func aLargeFileComesBackByteForByte() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-filebytes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let data = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try data.write(to: file)
        #expect(try FileBytes.read(file, limit: FileBytes.Limit.document) == Array(data))
    }

    /// A pipe (no size at all) longer than the first read's space comes back whole, over several rounds. The pipe
    /// is opened by its /proc name; the writer holds its end from the start and closes it when done, so the read
    /// cannot wait for ever.
    @Test func aPipeLongerThanOneRoundComesBackWhole() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        defer { close(readEnd) }
        let written = (0..<200_003).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let writer = Thread {
            defer { close(writeEnd) }
            written.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress else { return }
                var offset = 0
                while offset < buffer.count {
                    let count = write(writeEnd, base + offset, min(4_000, buffer.count - offset))
                    guard count > 0 else { return }
                    offset += count
                }
            }
        }
        writer.start()
        #expect(try FileBytes.read(path: "/proc/self/fd/\(readEnd)", limit: FileBytes.Limit.document) == written)
    }

    /// Foundation's file errors give the system's words, not "The operation could not be completed"; gvingest's own
    /// errors give their description.
    @Test func aSystemReasonIsTheSystemsWords() throws {
        let missing = #expect(throws: (any Error).self) { try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("nowhere")) }
        #expect(missing?.systemReason == "No such file or directory")
        let full = #expect(throws: (any Error).self) { try FileHandle(forWritingAtPath: "/dev/full")?.write(contentsOf: Data([1])) }
        #expect(full?.systemReason == "No space left on device")
        let own = FileWriteError(path: "/x", operation: "write", code: EACCES)
        #expect(own.systemReason == "/x: cannot write: Permission denied")
    }

    @Test func aDirectoryProblemSaysWhichItIs() {
        #expect(FileBytes.directoryProblem(TestPaths.fixtures.path) == nil)
        #expect(FileBytes.directoryProblem(TestPaths.fixtures.appendingPathComponent("pipeline.json").path) == "not a directory")
        #expect(FileBytes.directoryProblem(TestPaths.fixtures.appendingPathComponent("nowhere").path) == "no such directory")
    }

    @Test func aMissingFileNamesItsReason() throws {
        let error = #expect(throws: FileBytes.ReadError.self) { try FileBytes.read(URL(fileURLWithPath: "/nonexistent/gvingest"), limit: FileBytes.Limit.document) }
        #expect(error?.code == ENOENT)
    }
}

struct PageInputsTests {
    /// Files are listed by path strings now; what is listed must be what the URL enumerator listed, on a tree with
    /// the awkward cases: hidden files and folders, symbolic links to a page and to a folder, names that are
    /// all dots before the extension, upper-case extensions, spaces and non-ASCII names.
    @Test func theListingIsTheURLEnumeratorsListing() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-listing-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let files = ["a.html", "B.HTM", ".hidden.html", "...html", "....html", "..x.html", ".html", "c.html.", "d .html", "é ü.htm",
                     "sub/e.html", ".dot/f.html", "sub/deeper/g.HtMl", "notes.txt", "x.xhtml", "y.htmlx"]
        for file in files {
            let url = root.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("<p>\(file)</p>".utf8).write(to: url)
        }
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("link.html").path, withDestinationPath: root.appendingPathComponent("a.html").path)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("linked").path, withDestinationPath: root.appendingPathComponent("sub").path)

        let base = root.standardizedFileURL
        let walker = try #require(FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey]))
        var expected: [String] = []
        for case let file as URL in walker where PageInputs.pageExtensions.contains(file.pathExtension.lowercased()) {
            expected.append(root.path + "/" + file.path.dropFirst(base.path.count).drop { $0 == "/" })
        }
        let (inputs, errors) = PageInputs.expand([root.path])
        #expect(errors.isEmpty)
        #expect(inputs.map(\.name) == expected.sorted())
        #expect(inputs.map(\.name).contains(root.path + "/..x.html") && !inputs.map(\.name).contains(root.path + "/...html"))
        #expect(inputs.map(\.name).contains(root.path + "/....html"))
        for input in inputs {
            #expect(input.path == input.url.path)
            #expect(try FileBytes.read(path: try #require(input.path), limit: FileBytes.Limit.document) == FileBytes.read(input.url, limit: FileBytes.Limit.document))
        }
    }

    /// A directory named through a symbolic link is listed as the folder it links to (links below it are listed,
    /// not followed: `theListingIsTheURLEnumeratorsListing`).
    @Test func aLinkedDirectoryArgumentIsFollowed() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-linked-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let pages = root.appendingPathComponent("pages")
        try FileManager.default.createDirectory(at: pages.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data("<p>a</p>".utf8).write(to: pages.appendingPathComponent("a.html"))
        try Data("<p>b</p>".utf8).write(to: pages.appendingPathComponent("sub/b.htm"))
        let link = root.appendingPathComponent("latest")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: pages.path)
        let (inputs, errors) = PageInputs.expand([link.path])
        #expect(errors.isEmpty)
        #expect(inputs.map(\.name) == [link.path + "/a.html", link.path + "/sub/b.htm"])
        #expect(try inputs.map { try FileBytes.read(path: try #require($0.path), limit: FileBytes.Limit.document) } == [Array("<p>a</p>".utf8), Array("<p>b</p>".utf8)])
    }

    /// A directory argument gives every .html/.htm file below it, sorted, named from the argument as written,
    /// each with a file URL (no dot segments) to its file.
    @Test func aDirectoryGivesItsPagesByNameAtAnyDepth() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-inputs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for file in ["b/x.html", "a.HTM", "c.html", "notes.txt", "b/deeper/y.htm", ".html"] {
            let url = root.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("<p>\(file)</p>".utf8).write(to: url)
        }
        let written = root.path + "/b/../"
        let (inputs, errors) = PageInputs.expand([written])
        #expect(errors.isEmpty)
        #expect(inputs.map(\.name) == ["a.HTM", "b/deeper/y.htm", "b/x.html", "c.html"].map { root.path + "/b/.." + "/" + $0 })
        for input in inputs {
            #expect(input.url.isFileURL)
            #expect(!input.url.path.contains("/../"))
            let relative = String(input.name.dropFirst((root.path + "/b/../").count))
            #expect(try FileBytes.read(input.url, limit: FileBytes.Limit.document) == Array("<p>\(relative)</p>".utf8))
        }
    }

    /// A missing input says it is missing; one that looks like a URL of a scheme not read says that too.
    @Test func aMissingInputSaysWhyAndAnotherSchemeIsNamed() {
        let (inputs, errors) = PageInputs.expand(["ftp://example.com/x.html", "no-such-page.html", "file:///no/such/page.html"])
        #expect(inputs.isEmpty)
        #expect(errors.map(\.reason) == ["no such file or directory (ftp://: not read; only http, https and file URLs are)",
                                         "no such file or directory", "no such file or directory"])
        // A path with "://" in it names no scheme: "pages/x" is none.
        #expect(PageInputs.expand(["pages/x://y.html"]).errors.map(\.reason) == ["no such file or directory"])
    }
}
