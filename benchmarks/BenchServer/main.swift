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
//   gvingest-bench-server --hostile CASE [--pages N] [--seconds S]
//       the same site, with the first course page (or robots.txt) made hostile, for docs/BENCHMARKS.md's
//       "Hostile cases": drip (its body a byte a second), header-drip (its headers a byte a second), slow-robots
//       (robots.txt a byte a second), retry-after (429 with Retry-After: 3600), gzip-bomb (a body inflating to
//       2 GiB; gzip-bomb-40g: to 40 GiB), endless (a body without end), redirect-port (a redirect to the same address on another port),
//       redirect-file (a redirect to file:///etc/passwd).
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
var hostile: String?
var arguments = CommandLine.arguments.dropFirst()
while let option = arguments.popFirst() {
    guard let value = arguments.popFirst() else { fail("\(option) needs a value") }
    switch option {
    case "--pages": pages = number(value, for: option)
    case "--latency-ms": latencyMilliseconds = number(value, for: option)
    case "--seconds": seconds = number(value, for: option)
    case "--write-site": siteDirectory = value
    case "--hostile": hostile = value
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
    let victim = BenchmarkSite.coursePath(BenchmarkSite.firstNumber)
    // A second server, for the redirect to another port; it serves the same site.
    let other = try LoopbackHTTPServer()
    BenchmarkSite.serve(on: other, pages: pages, latency: 0)
    other.start()
    defer { other.stop() }
    switch hostile {
    case nil: break
    case "drip": server.setFault(.slowDrip(bytesPerChunk: 1, interval: 1), for: victim)
    case "header-drip": server.setFault(.headerDrip(interval: 1), for: victim)
    case "slow-robots": server.setFault(.slowDrip(bytesPerChunk: 1, interval: 1), for: "/robots.txt")
    case "retry-after": server.setFault(.tooManyRequests(retryAfter: "3600", times: .max), for: victim)
    case "gzip-bomb": server.setFault(.gzipBomb(inflatedBytes: 2 << 30), for: victim)
    case "gzip-bomb-40g": server.setFault(.gzipBomb(inflatedBytes: 40 << 30), for: victim)
    case "endless": server.setFault(.endlessBody, for: victim)
    case "redirect-port": server.setFault(.redirect(to: "\(other.baseURLString)\(victim)"), for: victim)
    case "redirect-file": server.setFault(.redirect(to: "file:///etc/passwd"), for: victim)
    case let unknown?: fail("--hostile: unknown case \(unknown)")
    }
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
