import Foundation
import FuzzHarness
import Testing

/// Every saved fuzz input, replayed through the harness libFuzzer drives (docs/FUZZING.md).
///
/// `Fixtures/fuzz-regressions/<target>/` holds the reproducers of what the fuzzers found (`crash-…`,
/// minimized, with the unminimized original where it tells more) and a few hand-written nasty inputs.
/// An HTML input's first byte picks the parser, Content-Type and URL (see `HTMLHarness`).
@Suite struct FuzzRegressionTests {
    static let folder = TestPaths.fixtures.appendingPathComponent("fuzz-regressions")

    static func inputs(_ target: String) -> [URL] {
        TestPaths.files(in: folder.appendingPathComponent(target), suffix: "").filter { !$0.lastPathComponent.hasPrefix(".") }
    }

    @Test func bothFoldersHoldInputs() {
        #expect(!Self.inputs("html").isEmpty)
        #expect(!Self.inputs("requisites").isEmpty)
    }

    @Test(arguments: inputs("html"))
    func htmlInputIsHandledSanely(_ file: URL) throws {
        let bytes = try [UInt8](Data(contentsOf: file))
        #expect(HTMLHarness.check(bytes) == [], "\(file.lastPathComponent)")
    }

    @Test(arguments: inputs("requisites"))
    func requisiteInputIsHandledSanely(_ file: URL) throws {
        let bytes = try [UInt8](Data(contentsOf: file))
        #expect(RequisiteHarness.check(bytes) == [], "\(file.lastPathComponent)")
    }
}
