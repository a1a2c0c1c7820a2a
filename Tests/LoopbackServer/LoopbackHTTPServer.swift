import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server on 127.0.0.1 that serves canned pages and injects faults for crawler tests.
///
/// Each connection gets its own thread, so latency and slow-drip faults only ever stall the
/// connection they apply to. The listener is bound in `init` (so `port` is known immediately)
/// and accepts once `start()` is called. `stop()` is final: it closes the listener and every
/// connection, waits for all server threads to exit, and is also run by `deinit`.
///
/// Lookups use the request target in origin form, query string included: routes and the request
/// log match it exactly; faults match the exact target first, then the path without its query,
/// then ``allPaths``.
public final class LoopbackHTTPServer: Sendable {
    /// Fault key that applies to every path without a more specific entry.
    public static let allPaths = "*"

    /// The ephemeral port the listener got from the kernel.
    public let port: UInt16
    /// `http://127.0.0.1:PORT`, without a trailing slash.
    public let baseURL: URL

    private let core: ServerCore

    /// Binds a listener to 127.0.0.1 on an ephemeral port; call `start()` to begin serving.
    ///
    /// - Parameter maxHeaderBytes: request heads larger than this get 431 and a closed connection.
    public init(maxHeaderBytes: Int = 64 * 1024) throws {
        let core = try ServerCore(maxHeaderBytes: maxHeaderBytes)
        guard let url = URL(string: "http://127.0.0.1:\(core.port)") else {
            core.stop()
            throw LoopbackServerError(operation: "URL(string:)", code: EINVAL)
        }
        self.core = core
        self.port = core.port
        self.baseURL = url
    }

    deinit {
        core.stop()
    }

    /// `baseURL` as a string, handy for building URLs with query strings by concatenation.
    public var baseURLString: String { "http://127.0.0.1:\(port)" }

    /// The absolute URL for `path` (which should start with "/"), or nil if it is not a valid URL.
    public func url(_ path: String) -> URL? {
        URL(string: baseURLString + path)
    }

    /// Starts accepting connections; calling it again, or after `stop()`, does nothing.
    public func start() {
        core.start()
    }

    /// Closes the listener and all connections and waits for every server thread to finish.
    ///
    /// Returns within milliseconds even while requests sleep in latency or drip faults, because
    /// every blocking wait in the server also watches a stop signal.
    public func stop() {
        core.stop()
    }

    /// Whether the server is between `start()` and `stop()`.
    public var isRunning: Bool { core.locked { $0.phase == .running } }

    // MARK: Routes

    /// The resource served for an exact request target (query string included); nil removes it.
    public subscript(path: String) -> Resource? {
        get { core.locked { $0.routes[path] } }
        set { core.locked { $0.routes[path] = newValue } }
    }

    /// Serves `resource` for the exact request target `path`.
    public func setResource(_ resource: Resource, for path: String) {
        self[path] = resource
    }

    /// Replaces the whole route table in one step, e.g. for a benchmark's thousand pages.
    public func setResources(_ resources: [String: Resource]) {
        core.locked { $0.routes = resources }
    }

    /// Stops serving `path` from the route table.
    public func removeResource(for path: String) {
        self[path] = nil
    }

    /// Serves files under `root` for targets missing from the route table.
    ///
    /// With `index` nil, the percent-decoded URL path is taken relative to `root` (a directory
    /// yields its `index.html`; `..` is refused). With an index, only its entries are served:
    /// keys are request targets (exact, else without query) and values are paths relative to
    /// `root`, which lets a recorded mirror store pages under arbitrary file names.
    public func serveDirectory(root: URL, index: [String: String]? = nil) {
        let mount = DirectoryMount(root: root.standardizedFileURL, index: index)
        core.locked { $0.directory = mount }
    }

    /// Removes the directory fallback so unknown paths get 404 again.
    public func stopServingDirectory() {
        core.locked { $0.directory = nil }
    }

    /// Makes the server a proxy: every request no counted fault answers (any method, body and all) goes to the server
    /// on 127.0.0.1:`port`, and its answer comes back; latency faults still apply first. Nil serves resources again.
    public func forward(toPort port: UInt16?) {
        core.locked { $0.upstream = port }
    }

    // MARK: Faults

    /// Replaces the faults for `path` (or ``allPaths``), resetting their `times` counters.
    public func setFaults(_ faults: [Fault], for path: String) {
        let rules = faults.map(FaultRule.init)
        core.locked { $0.faults[path] = rules.isEmpty ? nil : rules }
    }

    /// Replaces the faults for `path` with the single `fault`.
    public func setFault(_ fault: Fault, for path: String) {
        setFaults([fault], for: path)
    }

    /// Removes every fault configured for `path`.
    public func clearFaults(for path: String) {
        setFaults([], for: path)
    }

    /// Removes every fault on every path.
    public func clearAllFaults() {
        core.locked { $0.faults.removeAll() }
    }

    // MARK: Request log

    /// Every request received since start (or the last `resetStatistics()`), in arrival order.
    public var allRequests: [RecordedRequest] { core.locked { $0.log } }

    /// The requests whose target equals `path` exactly, query string included.
    public func requests(path: String) -> [RecordedRequest] {
        core.locked { $0.log.filter { $0.path == path } }
    }

    /// How many requests targeted exactly `path`.
    public func requestCount(path: String) -> Int {
        core.locked { state in state.log.reduce(0) { $0 + ($1.path == path ? 1 : 0) } }
    }

    /// How many well-formed requests arrived.
    public var totalRequests: Int { core.locked { $0.log.count } }

    /// How many TCP connections were accepted.
    public var connectionsAccepted: Int { core.locked { $0.connectionsAccepted } }

    /// How many connections are open right now.
    public var openConnections: Int { core.locked { $0.openConnections.count } }

    /// How many requests are being answered right now (received but response not fully written).
    public var inFlightRequests: Int { core.locked { $0.inFlight } }

    /// The highest `inFlightRequests` seen, i.e. how much concurrency the client really achieved.
    public var maxInFlightRequests: Int { core.locked { $0.maxInFlight } }

    /// How many malformed requests were answered with 4xx/5xx and a closed connection.
    public var rejectedRequests: Int { core.locked { $0.rejected } }

    /// How many server threads (listener plus connections) are alive; 0 after `stop()`.
    public var liveThreadCount: Int { core.locked { $0.liveThreads } }

    /// Clears the log and counters (not routes or faults) so one server can serve several phases.
    public func resetStatistics() {
        core.locked { state in
            state.log.removeAll()
            state.connectionsAccepted = 0
            state.maxInFlight = state.inFlight
            state.rejected = 0
        }
    }
}

// MARK: - Engine

/// A configured fault plus how many more requests it may hit.
struct FaultRule {
    let fault: Fault
    var remaining: Int

    init(_ fault: Fault) {
        self.fault = fault
        switch fault {
        case .status(_, let times), .tooManyRequests(_, let times), .reset(let times), .truncated(let times):
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
    private let maxHeaderBytes: Int
    private let listenFD: Int32
    /// A pipe written once by stop() and never read, so every poll() that includes it wakes for good.
    private let wakeRead: Int32
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
    private func pause(_ seconds: Double) -> Bool {
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

    // MARK: Connections

    private func serveConnection(fd: Int32, id: Int) {
        var buffer: [UInt8] = []
        var scanFrom = 0
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var fate = ConnectionFate.drop

        /// Appends more input; false at EOF, on error, or when stop() shut the socket down.
        func readMore() -> Bool {
            let n = Socket.receive(fd, into: &chunk)
            guard n > 0 else { return false }
            buffer.append(contentsOf: chunk[0..<n])
            return true
        }

        connection: while true {
            // RFC 9112 asks servers to skip stray CRLFs some clients send between requests.
            if let firstContent = buffer.firstIndex(where: { $0 != 13 && $0 != 10 }) {
                if firstContent > 0 {
                    buffer.removeFirst(firstContent)
                    scanFrom = 0
                }
            } else if !buffer.isEmpty {
                buffer.removeAll(keepingCapacity: true)
                scanFrom = 0
            }

            let bodyLimit = locked { $0.upstream == nil } ? maxDiscardedBodyBytes : maxForwardedBodyBytes
            switch parseRequestHead(buffer, scanFrom: scanFrom, maxBodyBytes: bodyLimit) {
            case .incomplete(let scanned):
                if buffer.count > maxHeaderBytes {
                    fate = reject(fd: fd, status: 431)
                    break connection
                }
                scanFrom = scanned
                guard readMore() else { break connection }
            case .failure(let status):
                fate = reject(fd: fd, status: status)
                break connection
            case .request(let request, let headLength):
                if headLength > maxHeaderBytes {
                    fate = reject(fd: fd, status: 431)
                    break connection
                }
                while buffer.count < headLength + request.contentLength {
                    guard readMore() else { break connection }
                }
                let body = Array(buffer[headLength..<(headLength + request.contentLength)])
                buffer.removeFirst(headLength + request.contentLength)
                scanFrom = 0
                fate = respond(to: request, body: body, fd: fd, connectionID: id)
                guard case .keepAlive = fate else { break connection }
            }
        }

        // Deregister before close() so stop() never shuts down a recycled descriptor number.
        locked { state in _ = state.openConnections.removeValue(forKey: id) }
        switch fate {
        case .reset:
            Socket.setAbortiveClose(fd)
        case .close:
            drainBeforeClose(fd)
        case .keepAlive, .drop:
            break
        }
        close(fd)
    }

    /// Sends FIN, then swallows late input for a moment, because closing with unread input makes
    /// Linux send RST, which can destroy the response before the peer reads it.
    private func drainBeforeClose(_ fd: Int32) {
        shutdown(fd, Int32(SHUT_WR))
        let deadline = DispatchTime.now().uptimeNanoseconds + 2_000_000_000
        var scratch = [UInt8](repeating: 0, count: 4096)
        while DispatchTime.now().uptimeNanoseconds < deadline {
            guard let ready = Socket.waitReadable([fd, wakeRead], timeoutMilliseconds: 250),
                  !ready[1] else { return }
            if Socket.receive(fd, into: &scratch) <= 0 { return }
        }
    }

    private func reject(fd: Int32, status: Int) -> ConnectionFate {
        locked { $0.rejected += 1 }
        let response = PendingResponse.text(status, "\(status) \(reasonPhrase(status))\n")
        return write(response, to: fd, version: "HTTP/1.1", isHead: false, keepAlive: false,
                     overrides: [], drip: nil, truncate: false)
    }

    // MARK: Responses

    private func respond(to request: ParsedRequest, body: [UInt8], fd: Int32, connectionID: Int) -> ConnectionFate {
        let record = RecordedRequest(method: request.method, path: request.target, version: request.version,
                                     headers: request.headers, time: Date(), connectionID: connectionID)
        let plan = locked { state -> ResponsePlan in
            state.log.append(record)
            state.inFlight += 1
            state.maxInFlight = max(state.maxInFlight, state.inFlight)
            return Self.makePlan(for: request, state: &state)
        }
        defer { locked { $0.inFlight -= 1 } }

        let isHead = request.method == "HEAD"
        guard request.method == "GET" || isHead || plan.upstream != nil else {
            var response = PendingResponse.text(405, "405 Method Not Allowed\n")
            response.headers.append(("Allow", "GET, HEAD"))
            return write(response, to: fd, version: request.version, isHead: false,
                         keepAlive: request.keepAlive, overrides: [], drip: nil, truncate: false)
        }

        if let latency = plan.latency, latency > 0, !pause(latency) {
            return .drop
        }

        var truncate = false
        let response: PendingResponse
        switch plan.counted {
        case .reset:
            return .reset
        case .status(let code, _):
            response = .text(code, "Injected \(code) \(reasonPhrase(code))\n")
        case .tooManyRequests(let retryAfter, _):
            var limited = PendingResponse.text(429, "Injected 429 Too Many Requests\n")
            limited.headers.append(("Retry-After", retryAfter))
            response = limited
        case .truncated:
            truncate = true
            response = Self.regularResponse(for: request, plan: plan)
        default:
            response = plan.upstream.map { UpstreamRelay.forward(request, body: body, toPort: $0) } ?? Self.regularResponse(for: request, plan: plan)
        }
        if response.status != 304, let render = plan.renderLatency, render > 0, !pause(render) {
            return .drop
        }
        if let stream = plan.stream {
            return sendStream(stream, to: fd, headerDrip: plan.headerDrip)
        }
        return write(response, to: fd, version: request.version, isHead: isHead, keepAlive: request.keepAlive,
                     overrides: plan.headerOverrides, drip: plan.drip, truncate: truncate, headerDrip: plan.headerDrip)
    }

    /// Sends `bytes` one at a time, `interval` seconds apart; false when the peer or stop() ended it.
    private func sendSlowly(_ bytes: [UInt8], to fd: Int32, interval: Double) -> Bool {
        for (index, byte) in bytes.enumerated() {
            guard Socket.sendAll(fd, [byte]) else { return false }
            if index + 1 < bytes.count, !pause(interval) { return false }
        }
        return true
    }

    /// A 200 whose body is streamed until it is done or the client hangs up; the connection is closed after.
    private func sendStream(_ stream: HostileStream, to fd: Int32, headerDrip: Double?) -> ConnectionFate {
        var head = "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nConnection: close\r\n"
        if case .gzipBomb = stream { head += "Content-Encoding: gzip\r\n" }
        head += "\r\n"
        if let interval = headerDrip {
            guard sendSlowly(Array(head.utf8), to: fd, interval: interval) else { return .drop }
        } else {
            guard Socket.sendAll(fd, Array(head.utf8)) else { return .drop }
        }
        if case .gzipBomb = stream, !Socket.sendAll(fd, GzipBomb.head) { return .drop }
        var sent = 0
        while stream.wants(moreAfter: sent) {
            let chunk = stream.chunk
            // A failed send is the client hanging up (or stop() shutting the socket down): the stream's end.
            guard Socket.sendAll(fd, chunk) else { return .drop }
            sent += chunk.count
        }
        return .close
    }

    /// Collects the faults and content for `request`, consuming one use of a counted fault.
    private static func makePlan(for request: ParsedRequest, state: inout State) -> ResponsePlan {
        var plan = ResponsePlan()
        var keys = [request.target]
        if request.pathOnly != request.target { keys.append(request.pathOnly) }
        keys.append(LoopbackHTTPServer.allPaths)
        var overrideGroups: [[(name: String, value: String?)]] = []
        // Most specific key first, so its settings win and its counted faults fire first.
        for key in keys {
            guard var rules = state.faults[key] else { continue }
            var overrides: [(name: String, value: String?)] = []
            for index in rules.indices {
                switch rules[index].fault {
                case .latency(let seconds):
                    plan.latency = plan.latency ?? seconds
                case .renderLatency(let seconds):
                    plan.renderLatency = plan.renderLatency ?? seconds
                case .status, .tooManyRequests, .reset, .truncated:
                    if plan.counted == nil && rules[index].remaining > 0 {
                        rules[index].remaining -= 1
                        plan.counted = rules[index].fault
                    }
                case .slowDrip(let bytesPerChunk, let interval):
                    plan.drip = plan.drip ?? (max(1, bytesPerChunk), max(0, interval))
                case .redirect(let location, let status):
                    plan.redirect = plan.redirect ?? (location, status)
                case .oversized(let bytes):
                    plan.oversized = plan.oversized ?? max(0, bytes)
                case .header(let name, let value):
                    overrides.append((name, value))
                case .headerDrip(let interval):
                    plan.headerDrip = plan.headerDrip ?? max(0, interval)
                case .endlessBody:
                    plan.stream = plan.stream ?? .endless
                case .gzipBomb(let inflatedBytes):
                    plan.stream = plan.stream ?? .gzipBomb(inflatedBytes: max(0, inflatedBytes))
                }
            }
            state.faults[key] = rules
            overrideGroups.append(overrides)
        }
        // Applied least specific first, so a path's own override beats a server-wide one.
        plan.headerOverrides = overrideGroups.reversed().flatMap { $0 }
        plan.resource = state.routes[request.target]
        plan.directory = state.directory
        plan.upstream = state.upstream
        return plan
    }

    /// The response when no counted fault fired: redirect, generated body, resource, or 404.
    private static func regularResponse(for request: ParsedRequest, plan: ResponsePlan) -> PendingResponse {
        if let redirect = plan.redirect {
            return PendingResponse(status: redirect.status, headers: [("Location", redirect.location)],
                                   body: .empty)
        }
        let resource = plan.resource ?? plan.directory?.resource(for: request)
        if let size = plan.oversized {
            let type = resource?.contentType ?? Resource.defaultContentType
            return PendingResponse(status: 200, headers: [("Content-Type", type)], body: .generated(size))
        }
        guard let resource else {
            return .text(404, "404 Not Found\n")
        }

        var validators: [(name: String, value: String)] = []
        if let etag = resource.etag { validators.append(("ETag", etag)) }
        if let lastModified = resource.lastModified { validators.append(("Last-Modified", lastModified)) }
        let extras = resource.headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }

        // RFC 9110 §13.2.2: If-None-Match takes precedence, If-Modified-Since is then ignored.
        let notModified: Bool
        if let ifNoneMatch = request.headers["if-none-match"] {
            notModified = resource.etag.map { etagMatches(ifNoneMatch: ifNoneMatch, etag: $0) } ?? false
        } else if let ifModifiedSince = request.headers["if-modified-since"],
                  let lastModified = resource.lastModified {
            notModified = notModifiedSince(ifModifiedSince: ifModifiedSince, lastModified: lastModified)
        } else {
            notModified = false
        }
        if notModified {
            return PendingResponse(status: 304, headers: validators + extras, body: .empty)
        }

        var headers: [(name: String, value: String)] = []
        if let type = resource.contentType { headers.append(("Content-Type", type)) }
        return PendingResponse(status: 200, headers: headers + validators + extras, body: .bytes(resource.body))
    }

    /// Frames and sends `response`, applying header overrides, drip pacing and truncation.
    private func write(
        _ response: PendingResponse,
        to fd: Int32,
        version: String,
        isHead: Bool,
        keepAlive requestedKeepAlive: Bool,
        overrides: [(name: String, value: String?)],
        drip: (chunk: Int, interval: Double)?,
        truncate: Bool,
        headerDrip: Double? = nil
    ) -> ConnectionFate {
        let bodyAllowed = statusAllowsBody(response.status)
        var keepAlive = requestedKeepAlive && !truncate
        var headers = response.headers
        if bodyAllowed {
            headers.append(("Content-Length", String(response.body.count)))
        }
        if !keepAlive {
            headers.append(("Connection", "close"))
        } else if version == "HTTP/1.0" {
            headers.append(("Connection", "keep-alive"))
        }
        for override in overrides {
            headers.removeAll { $0.name.caseInsensitiveCompare(override.name) == .orderedSame }
            if let value = override.value { headers.append((override.name, value)) }
        }
        // Without Content-Length the body can only be delimited by closing the connection.
        if bodyAllowed && !headers.contains(where: { $0.name.lowercased() == "content-length" }) {
            keepAlive = false
        }

        var head = "HTTP/1.1 \(response.status) \(reasonPhrase(response.status))\r\n"
        for header in headers {
            head += "\(header.name): \(header.value)\r\n"
        }
        head += "\r\n"
        var bytes = Array(head.utf8)
        if let interval = headerDrip {
            guard sendSlowly(bytes, to: fd, interval: interval) else { return .drop }
            bytes.removeAll()
        }

        let bodyLength = (isHead || !bodyAllowed) ? 0 : (truncate ? response.body.count / 2 : response.body.count)
        let chunkSize = drip?.chunk ?? 64 * 1024
        if drip == nil && bodyLength <= chunkSize {
            // One write for head and body avoids an extra packet and wakeup on every small response.
            appendBody(response.body, length: bodyLength, to: &bytes)
            guard Socket.sendAll(fd, bytes) else { return .drop }
        } else {
            guard Socket.sendAll(fd, bytes),
                  sendBody(response.body, length: bodyLength, to: fd, chunkSize: chunkSize,
                           interval: drip?.interval ?? 0) else { return .drop }
        }
        return keepAlive ? .keepAlive : .close
    }

    private func appendBody(_ body: ResponseBody, length: Int, to bytes: inout [UInt8]) {
        switch body {
        case .bytes(let data):
            bytes.append(contentsOf: data.prefix(length))
        case .generated:
            bytes.append(contentsOf: fillerBlock[0..<length])
        }
    }

    private func sendBody(_ body: ResponseBody, length: Int, to fd: Int32, chunkSize: Int,
                          interval: Double) -> Bool {
        // Generated chunks are sliced out of fillerBlock, which only holds 64 KiB.
        let step = min(chunkSize, 64 * 1024)
        var offset = 0
        while offset < length {
            let count = min(step, length - offset)
            let sent: Bool
            switch body {
            case .bytes(let data):
                sent = data.withUnsafeBytes { raw in
                    Socket.sendAll(fd, UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + count)]))
                }
            case .generated:
                let phase = offset % fillerPeriod
                sent = fillerBlock.withUnsafeBytes { raw in
                    Socket.sendAll(fd, UnsafeRawBufferPointer(rebasing: raw[phase..<(phase + count)]))
                }
            }
            guard sent else { return false }
            offset += count
            if interval > 0 && offset < length && !pause(interval) { return false }
        }
        return true
    }
}
