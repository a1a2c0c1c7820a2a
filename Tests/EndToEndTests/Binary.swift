import Foundation

/// Runs the built `gvingest` binary as a user would, capturing its output and exit status.
enum Binary {
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = packageRoot.appendingPathComponent("Fixtures")
    static let shared = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")

    /// Where `swift test` built this suite's products: beside the test bundle, or a few folders above it.
    static let productsDirectory: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            if FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("gvingest").path) { return directory }
            directory.deleteLastPathComponent()
        }
        return packageRoot.appendingPathComponent(".build/debug")
    }()

    /// The binary beside the test bundle (swift test builds it, this target depends on it), or `GVINGEST_BIN`.
    static let url: URL = {
        if let override = ProcessInfo.processInfo.environment["GVINGEST_BIN"] { return URL(fileURLWithPath: override) }
        return productsDirectory.appendingPathComponent("gvingest")
    }()

    /// How long a child may run before it is ended: a child that never ends would hold the whole suite.
    static let timeLimit: TimeInterval = 300

    static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
                    executable: URL? = nil) throws -> Outcome {
        let process = Process()
        process.executableURL = executable ?? url
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? packageRoot
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit, execute: watchdog)
        defer { watchdog.cancel() }
        // Read both pipes before waiting, so a full pipe cannot stall the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                       stderr: String(decoding: errData, as: UTF8.self))
    }
}
