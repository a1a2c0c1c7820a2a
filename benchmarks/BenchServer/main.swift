import BenchmarkSite
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import LoopbackServer

// The crawl benchmarks' site served on its own, so that crawlers outside this process (the gvingest binary,
// Scrapy) and other clients meet exactly the server gvingest-fetch-bench crawls in-process.
//
//   gvingest-bench-server [--pages N] [--latency-ms MS] [--seconds S]
//       serves on an ephemeral 127.0.0.1 port, writes "port PORT" on its first line, and stops on SIGTERM or
//       SIGINT or after S seconds (default 600: a forgotten server does not outlive the benchmark for long),
//       then writes what it served.
//   gvingest-bench-server --write-site DIR [--pages N]
//       writes the site's pages under DIR at their URL paths, for servers written in other languages.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("gvingest-bench-server: \(message)\n".utf8))
    exit(64)
}

func number<T: LosslessStringConvertible>(_ value: String, for option: String) -> T {
    guard let parsed = T(value) else { fail("\(option): not a number: \(value)") }
    return parsed
}

func say(_ line: String) {
    // Written straight away: the benchmark scripts wait for the port line while the server runs.
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

var pages = 1000
var latencyMilliseconds = 50
var seconds = 600.0
var siteDirectory: String?
var arguments = CommandLine.arguments.dropFirst()
while let option = arguments.popFirst() {
    guard let value = arguments.popFirst() else { fail("\(option) needs a value") }
    switch option {
    case "--pages": pages = number(value, for: option)
    case "--latency-ms": latencyMilliseconds = number(value, for: option)
    case "--seconds": seconds = number(value, for: option)
    case "--write-site": siteDirectory = value
    default: fail("unknown option \(option)")
    }
}

if let siteDirectory {
    let root = URL(fileURLWithPath: siteDirectory)
    do {
        for (path, resource) in BenchmarkSite.resources(pages: pages) {
            let file = root.appendingPathComponent(String(path.dropFirst()))
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try resource.body.write(to: file)
        }
    } catch {
        FileHandle.standardError.write(Data("gvingest-bench-server: \(error)\n".utf8))
        exit(73)
    }
    exit(0)
}

do {
    let server = try LoopbackHTTPServer()
    BenchmarkSite.serve(on: server, pages: pages, latency: Double(latencyMilliseconds) / 1000)
    let stopped = DispatchSemaphore(value: 0)
    // Signals are taken through dispatch so that the server can be stopped cleanly and report what it served.
    let handlers = [SIGTERM, SIGINT].map { number -> DispatchSourceSignal in
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler { stopped.signal() }
        source.resume()
        return source
    }
    server.start()
    say("port \(server.port)")
    _ = stopped.wait(timeout: .now() + seconds)
    server.stop()
    handlers.forEach { $0.cancel() }
    say("served \(server.totalRequests) requests over \(server.connectionsAccepted) connections, "
        + "max \(server.maxInFlightRequests) in flight")
} catch {
    FileHandle.standardError.write(Data("gvingest-bench-server: \(error)\n".utf8))
    exit(1)
}
