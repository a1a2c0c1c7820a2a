import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A configured fault plus how many more requests it may hit.
struct FaultRule {
    let fault: Fault
    var remaining: Int

    init(_ fault: Fault) {
        self.fault = fault
        switch fault {
        case .status(_, let times), .tooManyRequests(_, let times), .reset(let times), .truncated(let times),
             .statusLineThenClose(let times), .reply(_, _, let times):
            remaining = max(0, times)
        default:
            remaining = 0
        }
    }
}

/// The on-disk fallback configured by `serveDirectory(root:index:)`.
struct DirectoryMount {
    let root: URL
    let index: [String: String]?

    /// Loads the file for `request`, or nil when the mirror has no such page.
    func resource(for request: ParsedRequest) -> Resource? {
        let relative: String
        if let index {
            guard let entry = index[request.target] ?? index[request.pathOnly] else { return nil }
            relative = entry
        } else {
            guard let decoded = request.pathOnly.removingPercentEncoding else { return nil }
            relative = decoded
        }
        let components = relative.split(separator: "/")
        // Refusing ".." keeps a hostile or buggy crawler URL from reading outside the mirror.
        guard !components.contains(".."), !relative.contains("\0") else { return nil }
        var url = root
        for component in components where component != "." {
            url.appendPathComponent(String(component))
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return nil }
        if isDirectory.boolValue {
            url.appendPathComponent("index.html")
        }
        guard let data = try? Data(contentsOf: url) else { return nil }
        return Resource(body: data, contentType: contentType(forPathExtension: url.pathExtension))
    }
}

/// Everything decided about one request while holding the lock, so I/O happens without it.
struct ResponsePlan {
    var latency: Double?
    var renderLatency: Double?
    var counted: Fault?
    var redirect: (location: String, status: Int)?
    var oversized: Int?
    var drip: (chunk: Int, interval: Double)?
    var headerDrip: Double?
    /// A body streamed until the client hangs up: filler (endless) or a gzip bomb of so many inflated bytes.
    var stream: HostileStream?
    var headerOverrides: [(name: String, value: String?)] = []
    var resource: Resource?
    var directory: DirectoryMount?
    var upstream: UInt16?
}

/// A response before framing headers (Content-Length, Connection) are added.
struct PendingResponse {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: ResponseBody

    static func text(_ status: Int, _ text: String) -> PendingResponse {
        PendingResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")],
                        body: .bytes(Data(text.utf8)))
    }
}

/// How a connection continues after a response.
enum ConnectionFate {
    case keepAlive
    /// Close gracefully (FIN), draining input so the peer still reads what was sent.
    case close
    /// Close abortively (RST) without draining.
    case reset
    /// The peer is gone or the server is stopping; just release the descriptor.
    case drop
}

/// The shared state and socket loops behind `LoopbackHTTPServer`.
///
/// `@unchecked Sendable` is sound because every mutable field lives in `state`, which is only
/// touched inside `locked`, and the descriptors are immutable after `init`.
final class ServerCore: @unchecked Sendable {
    enum Phase { case idle, running, stopped }

    struct State {
        var phase = Phase.idle
        var routes: [String: Resource] = [:]
        var faults: [String: [FaultRule]] = [:]
        var directory: DirectoryMount?
        var upstream: UInt16?
        var log: [RecordedRequest] = []
        var connectionsAccepted = 0
        // Separate from connectionsAccepted so resetStatistics() cannot reuse a live connection's id.
        var nextConnectionID = 0
        var openConnections: [Int: Int32] = [:]
        var inFlight = 0
        var maxInFlight = 0
        var rejected = 0
        var liveThreads = 0
    }

    let port: UInt16
    let maxHeaderBytes: Int
    private let listenFD: Int32
    /// A pipe written once by stop() and never read, so every poll() that includes it wakes for good.
    let wakeRead: Int32
    private let wakeWrite: Int32
    private let condition = NSCondition()
    private var state = State()

    init(maxHeaderBytes: Int) throws {
        self.maxHeaderBytes = max(1024, maxHeaderBytes)
        // Non-blocking so a connection that vanishes between poll() and accept() cannot wedge the loop.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
                        | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw LoopbackServerError(operation: "socket", code: errno) }
        func fail(_ operation: String) -> LoopbackServerError {
            let error = LoopbackServerError(operation: operation, code: errno)
            close(fd)
            return error
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw fail("bind") }
        // A deep backlog lets bursts of concurrent test clients connect before the accept thread runs.
        guard listen(fd, 1024) == 0 else { throw fail("listen") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw fail("getsockname") }
        var pipeFDs: [Int32] = [-1, -1]
        guard pipe(&pipeFDs) == 0 else { throw fail("pipe") }
        // Glibc's pipe2/accept4 are not imported into Swift, so close-on-exec is set separately;
        // it keeps child processes spawned by tests from holding server descriptors open.
        for descriptor in pipeFDs {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        listenFD = fd
        wakeRead = pipeFDs[0]
        wakeWrite = pipeFDs[1]
        port = UInt16(bigEndian: address.sin_port)
    }

    /// Runs `body` with exclusive access to the mutable state.
    func locked<T>(_ body: (inout State) throws -> T) rethrows -> T {
        condition.lock()
        defer { condition.unlock() }
        return try body(&state)
    }

    func start() {
        let shouldStart = locked { state -> Bool in
            guard state.phase == .idle else { return false }
            state.phase = .running
            state.liveThreads += 1
            return true
        }
        if shouldStart {
            spawn(name: "loopback-accept") { core in core.acceptLoop() }
        }
    }

    func stop() {
        condition.lock()
        guard state.phase != .stopped else {
            condition.unlock()
            return
        }
        state.phase = .stopped
        // Shutting down (not closing) wakes threads blocked in recv/send without freeing the fd
        // number; holding the lock keeps connection threads from closing theirs meanwhile.
        for fd in state.openConnections.values {
            shutdown(fd, Int32(SHUT_RDWR))
        }
        var byte: UInt8 = 1
        _ = Glibc.write(wakeWrite, &byte, 1)
        let deadline = Date(timeIntervalSinceNow: 10)
        while state.liveThreads > 0 {
            if !condition.wait(until: deadline) { break }
        }
        let allExited = state.liveThreads == 0
        condition.unlock()
        // Leaking three descriptors beats closing them under a thread that might still poll them.
        if allExited {
            close(listenFD)
            close(wakeRead)
            close(wakeWrite)
        }
    }

    // MARK: Threads

    private func spawn(name: String, _ body: @escaping @Sendable (ServerCore) -> Void) {
        let thread = Thread { [self] in
            // Named from inside because corelibs only passes the name to the OS for the current
            // thread; the names let tests find leaked server threads in /proc/self/task.
            Thread.current.name = name
            body(self)
            locked { state in
                state.liveThreads -= 1
                if state.liveThreads == 0 { condition.broadcast() }
            }
        }
        // Connection threads need little stack; a small one keeps hundreds of them cheap.
        thread.stackSize = 512 * 1024
        thread.start()
    }

    /// Sleeps for `seconds`; returns false if stop() cut the sleep short.
    func pause(_ seconds: Double) -> Bool {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, seconds) * 1e9)
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            if now >= deadline { return true }
            // Round up: waking a hair late is harmless, waking early would shorten the fault.
            let milliseconds = Int32(min(Double(Int32.max), (Double(deadline - now) / 1e6).rounded(.up)))
            if Socket.waitReadable([wakeRead], timeoutMilliseconds: milliseconds) != nil { return false }
        }
    }

    private func acceptLoop() {
        while true {
            guard let ready = Socket.waitReadable([listenFD, wakeRead], timeoutMilliseconds: -1) else {
                if !pause(0.01) { return }
                continue
            }
            if ready[1] { return }
            let fd = accept(listenFD, nil, nil)
            if fd < 0 {
                switch errno {
                case EAGAIN, EWOULDBLOCK, EINTR, ECONNABORTED:
                    continue
                default:
                    // Out of descriptors: back off instead of spinning, the test will see failures.
                    if !pause(0.01) { return }
                    continue
                }
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            Socket.setNoDelay(fd)
            let id = locked { state -> Int? in
                guard state.phase == .running else { return nil }
                state.connectionsAccepted += 1
                state.nextConnectionID += 1
                state.openConnections[state.nextConnectionID] = fd
                state.liveThreads += 1
                return state.nextConnectionID
            }
            guard let id else {
                close(fd)
                return
            }
            spawn(name: "loopback-conn-\(id)") { core in core.serveConnection(fd: fd, id: id) }
        }
    }
}
