import FuzzHarness

// libFuzzer target for the HTML wrapper and the parsers; see FuzzMain and docs/FUZZING.md.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzMain.test(data, size, HTMLHarness.check)
}

@main struct FuzzHTMLMain {
    static func main() { FuzzMain.run(tool: "gvingest-fuzz-html", check: HTMLHarness.check, callback: fuzzTestOneInput) }
}
