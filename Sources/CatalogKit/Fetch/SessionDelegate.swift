import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What one request gave, before any judgement about retrying.
struct RawResponse: Sendable {
    var response: HTTPURLResponse?
    var body: [UInt8] = []
    var error: (any Error)?
    /// The body grew past the limit and the transfer was cut off.
    var overLimit = false
    /// Why a redirect was refused (an origin that is not allowed, a scheme other than HTTP, too many).
    var refusedRedirect: String?
    /// A redirect to another allowed origin, not followed here: that origin's robots.txt is asked first.
    var redirectToOrigin: URL?
    /// The request's own wall-clock deadline passed and the transfer was cut off.
    var timedOut = false
}

/// What a request may do: how much body it may take, when the whole of it (redirects too) ends, where it may go.
typealias RequestLimits = (maximumBodyBytes: Int, deadline: DispatchTime, allowedOrigin: @Sendable (Origin) -> Bool)

/// Streams bodies (cutting an oversized one off early), vets redirects, and holds each request to a wall-clock
/// deadline (URLSession's timeout is an idle timer every byte resets). Per-task state sits behind a lock.
final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct TaskState: Sendable {
        let continuation: CheckedContinuation<RawResponse, Never>
        let limits: RequestLimits
        var redirects = 0
        /// What the request has given so far; the error is added when it completes.
        var raw = RawResponse()
        /// Past its cap or a deadline: the next chunk stops the transfer (`stopReceiving`).
        var ended = false
    }

    /// The requests running, and those cancelled before they started.
    private let tasks = Mutex<(running: [Int: TaskState], cancelledBeforeStart: Set<Int>)>(([:], []))
    private let maximumRedirects: Int

    init(maximumRedirects: Int) {
        self.maximumRedirects = maximumRedirects
    }

    /// A long-lived session (short-lived ones crash on Linux) with no cache, its calls to a delegate of its own.
    static func session(maximumRedirects: Int, timeoutSeconds: Int, connectionsPerHost: Int,
                        userAgent: String) -> (URLSession, SessionDelegate) {
        let configuration = URLSessionConfiguration.ephemeral
        // Without it Foundation sends "gvingest (unknown version)" on every request that sets none itself.
        configuration.httpAdditionalHeaders = ["User-Agent": userAgent]
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = TimeInterval(timeoutSeconds)
        configuration.httpMaximumConnectionsPerHost = max(1, connectionsPerHost)
        let delegate = SessionDelegate(maximumRedirects: maximumRedirects)
        return (URLSession(configuration: configuration, delegate: delegate, delegateQueue: ImmediateQueue()), delegate)
    }

    func run(_ request: URLRequest, in session: URLSession, limits: RequestLimits) async -> RawResponse {
        let task = session.dataTask(with: request)
        let identifier = task.taskIdentifier
        defer { tasks.withLock { _ = $0.cancelledBeforeStart.remove(identifier) } }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let starts = tasks.withLock { tasks in
                    guard !tasks.cancelledBeforeStart.contains(identifier) else { return false }
                    tasks.running[identifier] = TaskState(continuation: continuation, limits: limits)
                    return true
                }
                guard starts else {
                    // Cancelled all the same, or invalidating the session would wait for it.
                    Self.cancel(task)
                    continuation.resume(returning: RawResponse(error: URLError(.cancelled)))
                    return
                }
                DispatchQueue.global().asyncAfter(deadline: limits.deadline) { [weak self, weak task] in
                    guard let task, self?.withState(of: task, { state -> Void in (state.raw.timedOut, state.ended) = (true, true) }) != nil else { return }
                    task.cancel()
                }
                task.resume()
            }
        } onCancel: {
            // URLSession may report a cancellation before the state is registered: such a request never starts.
            let started = tasks.withLock { tasks in
                guard tasks.running[identifier] == nil else {
                    tasks.running[identifier]?.ended = true
                    return true
                }
                tasks.cancelledBeforeStart.insert(identifier)
                return false
            }
            if started { Self.cancel(task) }
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let refuse = withState(of: dataTask) { state in
            state.raw.response = response as? HTTPURLResponse
            guard response.expectedContentLength > Int64(state.limits.maximumBodyBytes) else { return false }
            state.raw.overLimit = true
            return true
        } ?? false
        completionHandler(refuse ? .cancel : .allow)
        // FoundationNetworking ignores the disposition: only cancelling the task stops the transfer.
        if refuse { Self.cancel(dataTask) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let stop = withState(of: dataTask) { state in
            guard !state.ended else { return true }
            // Runs for every chunk while URLSession goes on receiving, so: one copy of the bytes, the cap reserved.
            let room = state.limits.maximumBodyBytes - state.raw.body.count
            let taken = min(room, data.count)
            if state.raw.body.isEmpty {
                state.raw.body.reserveCapacity(min(state.limits.maximumBodyBytes, max(data.count, 64 * 1024)))
            }
            data.withUnsafeBytes { bytes in state.raw.body.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[0..<taken])) }
            // Once ended, always ended: chunks that arrive before the transfer stops are dropped above.
            state.raw.overLimit = data.count > room
            state.ended = state.raw.overLimit
            return state.ended
        } ?? false
        if stop {
            Self.stopReceiving(dataTask)
            Self.cancel(dataTask)
        }
    }

    /// Pauses libcurl's receiving of a transfer, from its own thread (a data delegate call): the only way to stop one
    /// that outruns it. While a socket stays readable, URLSession's queue serves it alone, so a cancellation waits
    /// behind it for as long as a server sends: a gzip bomb inflating at the speed of the CPU kept a cancellation
    /// waiting for 70 s and 584 MB (issue 31). Paused, the socket is left alone and the cancellation lands. libcurl's
    /// handle is a private property of FoundationNetworking's, read by reflection; `HostileServerTests` would catch
    /// a toolchain that moves it.
    static func stopReceiving(_ task: URLSessionTask) {
        func property(_ name: String, of value: Any?) -> Any? {
            var mirror = value.map { Mirror(reflecting: $0) }
            while let current = mirror {
                if current.displayStyle == .optional || current.displayStyle == .enum { return property(name, of: current.children.first?.value) }
                if let found = current.children.first(where: { $0.label == name }) { return found.value }
                mirror = current.superclassMirror
            }
            return nil
        }
        let storage = property("_protocolStorage", of: task)
        guard let handle = property("rawHandle", of: property("easyHandle", of: storage)) as? UnsafeMutableRawPointer,
              let pause = curlEasyPause else { return }
        _ = pause(handle, 1) // CURLPAUSE_RECV
    }

    private static let curlEasyPause = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "curl_easy_pause").map {
        unsafeBitCast($0, to: (@convention(c) (UnsafeMutableRawPointer, Int32) -> Int32).self)
    }

    /// Runs `change` on a task's state under the lock (nil for an unknown task), taken out so its body is not copied.
    private func withState<Result: Sendable>(of task: URLSessionTask, _ change: (inout TaskState) -> Result) -> Result? {
        tasks.withLock { tasks in
            guard var state = tasks.running.removeValue(forKey: task.taskIdentifier) else { return nil }
            defer { tasks.running[task.taskIdentifier] = state }
            return change(&state)
        }
    }

    /// Cancels a task from another thread: `cancel()` waits for URLSession's queue, which a delegate call runs on,
    /// and which waits for the Swift task's status lock a cancellation handler holds (a deadlock under ASan).
    static func cancel(_ task: URLSessionTask) {
        DispatchQueue.global().async { task.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        // The Location header, not the request URLSession made of it: that keeps the old host for a `file:` URL.
        let location = response.value(forHTTPHeaderField: "Location")
        let target = location.flatMap { URL(string: $0, relativeTo: response.url)?.absoluteURL } ?? request.url
        let from = (response.url ?? task.currentRequest?.url).flatMap(Origin.init)
        let verdict = withState(of: task) { state -> URLRequest? in
            state.redirects += 1
            let origin = target.flatMap(Origin.init)
            state.raw.refusedRedirect = switch (target, origin) {
            case (nil, _): "redirect without a target"
            case let (target?, nil):
                "redirect to \(location ?? target.absoluteString) refused: not an http or https URL \(Origin.rule)"
            case let (target?, origin?) where !state.limits.allowedOrigin(origin):
                "redirect to \(target.absoluteString) refused: origin \(origin) is not allowed"
            case let (target?, _) where state.redirects > maximumRedirects:
                "more than \(maximumRedirects) redirects (a redirect loop?); last to \(target.absoluteString)"
            default: nil
            }
            guard state.raw.refusedRedirect == nil else { return nil }
            guard origin == from else {
                state.raw.redirectToOrigin = target
                return nil
            }
            return request
        } ?? nil
        completionHandler(verdict)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let state = tasks.withLock({ $0.running.removeValue(forKey: task.taskIdentifier) }) else { return }
        var raw = state.raw
        raw.response = raw.response ?? (task.response as? HTTPURLResponse)
        let judged = raw.overLimit || raw.refusedRedirect != nil || raw.redirectToOrigin != nil || raw.timedOut
        if !judged { raw.error = error }
        state.continuation.resume(returning: raw)
    }
}

/// Runs each delegate call at once on URLSession's thread: behind a queue, chunks from a fast sender piled up by the
/// hundred megabytes before the body cap was seen. Delegate calls never wait for URLSession. Unchecked Sendable: this
/// subclass adds no state.
final class ImmediateQueue: OperationQueue, @unchecked Sendable {
    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        block()
    }
}
