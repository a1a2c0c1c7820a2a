import Foundation

/// The fuzz targets' plain `main`: replays saved inputs (crash reproducers, corpus files) through the
/// same harness libFuzzer drives, so a reproducer can be run and debugged without the fuzzer.
public enum Replay {
    /// Checks every file named, and every file under every directory named; 0 when all were sane,
    /// 1 when some invariant broke, 64 for no arguments, 66 when a file cannot be read.
    public static func main(_ arguments: [String], tool: String, check: FuzzMain.Check) -> Int32 {
        guard !arguments.isEmpty else {
            FileHandle.standardError.write(Data("usage: \(tool) FILE|DIRECTORY...  (build with -DFUZZING and -sanitize=fuzzer to fuzz; see docs/FUZZING.md)\n".utf8))
            return 64
        }
        var status: Int32 = 0
        var count = 0
        for path in files(arguments) {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("\(tool): cannot read \(path)\n".utf8))
                status = 66
                continue
            }
            count += 1
            for problem in data.withUnsafeBytes(check) {
                print("\(path): \(problem)")
                if status == 0 { status = 1 }
            }
        }
        FileHandle.standardError.write(Data("\(tool): \(count) input(s) replayed\n".utf8))
        return status
    }

    /// Files first as named, directories expanded to their regular files in name order.
    static func files(_ arguments: [String]) -> [String] {
        arguments.flatMap { path -> [String] in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return [path] }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            return names.filter { !$0.hasPrefix(".") }.sorted().map { (path as NSString).appendingPathComponent($0) }
        }
    }
}
