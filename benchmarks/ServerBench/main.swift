// Sanity benchmark: the crawl benchmarks' 1,000 course pages behind 50 ms latency fetched over 16 keep-alive
// connections. With perfect overlap the run takes 1000 * 0.05 / 16 = 3.125 s; the printed efficiency is that
// bound divided by the measured wall time, so overhead in the server shows up as a lower figure.
//
//   swift run -c release gvingest-server-bench                  against the loopback server, in this process
//   swift run -c release gvingest-server-bench --target PORT    against a server already serving the same site
//                                                               on 127.0.0.1:PORT (gvingest-bench-server,
//                                                               benchmarks/python/slow_http_server.py)
import BenchmarkSite
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import LoopbackServer

let pageCount = 1000
let concurrency = 16
let latency = 0.05

/// Work distribution and results shared by the client threads.
final class BenchState: @unchecked Sendable {
    // Guarded by `lock`; @unchecked is sound because nothing is touched outside it.
    private let lock = NSCondition()
    private var next = 0
    private var failures: [String] = []
    private var finished = 0

    func take() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard next < pageCount else { return nil }
        next += 1
        return next - 1
    }

    func fail(_ message: String) {
        lock.lock()
        failures.append(message)
        lock.unlock()
    }

    func workerDone() {
        lock.lock()
        finished += 1
        lock.broadcast()
        lock.unlock()
    }

    func waitForWorkers(_ count: Int) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        while finished < count { lock.wait() }
        return failures
    }
}

/// Opens a TCP connection to 127.0.0.1:`port`, or returns nil.
func connectLoopback(port: UInt16) -> Int32? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let rc = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard rc == 0 else {
        close(fd)
        return nil
    }
    var one: Int32 = 1
    _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    return fd
}

/// Sends one GET and reads its response on a keep-alive connection; returns the status or nil.
func fetch(fd: Int32, path: String, buffer: inout [UInt8]) -> Int? {
    let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
    let sent = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    guard sent == request.count else { return nil }
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    func fill() -> Bool {
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return false }
        buffer.append(contentsOf: chunk[0..<n])
        return true
    }
    let terminator: [UInt8] = [13, 10, 13, 10]
    var headEnd: Int?
    while headEnd == nil {
        if buffer.count >= 4 {
            headEnd = (0...(buffer.count - 4)).first { Array(buffer[$0..<($0 + 4)]) == terminator }
        }
        if headEnd == nil && !fill() { return nil }
    }
    guard let headEnd else { return nil }
    let head = String(decoding: buffer[0..<headEnd], as: UTF8.self)
    let lines = head.components(separatedBy: "\r\n")
    guard let statusText = lines.first?.split(separator: " ").dropFirst().first,
          let status = Int(statusText) else { return nil }
    let lengthLine = lines.first { $0.lowercased().hasPrefix("content-length:") }
    let length = lengthLine.flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
    while buffer.count < headEnd + 4 + length {
        if !fill() { return nil }
    }
    buffer.removeFirst(headEnd + 4 + length)
    return status
}

var target: UInt16?
var arguments = CommandLine.arguments.dropFirst()
while let option = arguments.popFirst() {
    guard option == "--target", let value = arguments.popFirst(), let port = UInt16(value) else {
        print("usage: gvingest-server-bench [--target PORT]")
        exit(64)
    }
    target = port
}

do {
    // Only the in-process server is started here; an external one serves the site on its own.
    let server = try target == nil ? LoopbackHTTPServer() : nil
    if let server {
        BenchmarkSite.serve(on: server, pages: pageCount, latency: latency)
        server.start()
    }
    guard let port = target ?? server?.port else { exit(1) }
    let paths = BenchmarkSite.coursePaths(pages: pageCount)

    let state = BenchState()
    let start = DispatchTime.now().uptimeNanoseconds
    for worker in 0..<concurrency {
        let thread = Thread {
            defer { state.workerDone() }
            guard let fd = connectLoopback(port: port) else {
                state.fail("worker \(worker): connect failed")
                return
            }
            defer { close(fd) }
            var buffer: [UInt8] = []
            while let index = state.take() {
                let status = fetch(fd: fd, path: paths[index], buffer: &buffer)
                if status != 200 {
                    state.fail("\(paths[index]): status \(status.map(String.init) ?? "none")")
                    return
                }
            }
        }
        thread.start()
    }
    let failures = state.waitForWorkers(concurrency)
    let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let bound = Double(pageCount) * latency / Double(concurrency)

    print("server: \(target.map { "external, 127.0.0.1:\($0)" } ?? "the loopback server, in process")")
    print("pages: \(pageCount), concurrency: \(concurrency), latency: \(Int(latency * 1000)) ms")
    print(String(format: "wall time: %.3f s, bound: %.3f s, wall/bound: %.3f, efficiency: %.1f %%",
                 wall, bound, wall / bound, bound / wall * 100))
    if let server {
        print("requests: \(server.totalRequests), connections: \(server.connectionsAccepted), "
              + "max in flight: \(server.maxInFlightRequests)")
        server.stop()
        // Let the OS finish tearing down threads that have already returned before looking in /proc.
        usleep(100_000)
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        let leaked = tasks.filter { task in
            let name = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
            return name.hasPrefix("loopback-")
        }
        print("server threads alive after stop: \(server.liveThreadCount) (OS threads named loopback-*: \(leaked.count))")
    }
    if !failures.isEmpty {
        print("FAILURES (\(failures.count)): \(failures.prefix(5))")
        exit(1)
    }
} catch {
    print("server failed to start: \(error)")
    exit(1)
}
