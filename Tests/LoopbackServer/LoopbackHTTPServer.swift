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
