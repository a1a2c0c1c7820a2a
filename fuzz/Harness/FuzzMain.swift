#if FUZZING
import CLibFuzzer
#endif
import Foundation

/// What the fuzz targets share: libFuzzer's callback body and `main` for both kinds of build.
///
/// Built with `-sanitize=fuzzer -DFUZZING`, `main` hands the command line to libFuzzer's driver; built
/// plainly (as `swift build` does), it replays the files it is given through the same harness.
/// `main` stays a Swift `@main` in both: SwiftPM links an executable's entry point under the module's
/// own name, so libFuzzer's C `main` cannot stand in for it.
public enum FuzzMain {
    /// A harness: one input in, the broken invariants out (empty when the input was handled sanely).
    public typealias Check = (UnsafeRawBufferPointer) -> [String]

    /// One libFuzzer input; a broken invariant traps, so libFuzzer saves the input as a crash.
    public static func test(_ data: UnsafePointer<UInt8>?, _ size: Int, _ check: Check) -> CInt {
        let problems = check(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size))
        if !problems.isEmpty { fatalError(problems.joined(separator: "\n")) }
        return 0
    }

    /// The target's `main`: libFuzzer's driver calling `callback`, or a replay of the named files through `check`.
    public static func run(tool: String, check: Check,
                           callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
        #if FUZZING
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
        #else
        exit(Replay.main(Array(CommandLine.arguments.dropFirst()), tool: tool, check: check))
        #endif
    }
}
