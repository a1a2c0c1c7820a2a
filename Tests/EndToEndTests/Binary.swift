@testable import CatalogKit
import Foundation
import PublishedPages

/// Runs the built `gvingest` binary as a user would, capturing its output and exit status.
enum Binary {
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
        /// How long the child ran, from its start to its exit (not the wait for a slot before it).
        var seconds: Double = 0
    }

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = packageRoot.appendingPathComponent("Fixtures")
    /// Real catalog pages published by others, unpacked from Fixtures/realworld.tar.xz into .build (read-only).
    static let realworld = PublishedPages.realworld

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

    /// Runs the binary and waits for it without holding a thread of Swift's cooperative pool.
    static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
                    executable: URL? = nil) async throws -> Outcome {
        await children.acquire(host: "")
        let outcome: Result<Outcome, any Error>
        do {
            outcome = .success(try await offThePool {
                try runBlocking(arguments, in: directory, environment: environment, executable: executable)
            })
        } catch {
            outcome = .failure(error)
        }
        await children.release(host: "")
        return try outcome.get()
    }

    /// Runs blocking work (waiting for a child, polling a file) on a thread of its own. Every suite of this process
    /// shares the cooperative pool, one thread per core: tests blocked on their children held all of it, and a crawl
    /// timed against its deadline in another suite once waited 268 s for a thread.
    static func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result(catching: work)) }
        }
    }

    /// As many children at once as there are cores (the crawler's gate, with one "host"): waiting no longer holds a
    /// thread, so without a bound every end-to-end test would start its child at the same moment.
    static let children = ConcurrencyGate(total: ProcessInfo.processInfo.activeProcessorCount,
                                          perHost: ProcessInfo.processInfo.activeProcessorCount)

    /// Runs the binary at once, with no turn among the children, blocking the thread it runs on: for a `static let`
    /// initializer, which cannot await, or inside `offThePool`.
    static func runBlocking(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
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
        let started = ProcessInfo.processInfo.systemUptime
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
                       stderr: String(decoding: errData, as: UTF8.self),
                       seconds: ProcessInfo.processInfo.systemUptime - started)
    }
}
