import FuzzHarness

// libFuzzer target for the prerequisite parser; see FuzzMain and docs/FUZZING.md.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzMain.test(data, size, RequisiteHarness.check)
}

@main struct FuzzRequisitesMain {
    static func main() { FuzzMain.run(tool: "gvingest-fuzz-requisites", check: RequisiteHarness.check, callback: fuzzTestOneInput) }
}
