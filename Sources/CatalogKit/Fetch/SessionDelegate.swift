import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What one request gave, before any judgement about retrying.
struct RawResponse: Sendable {
    var response: HTTPURLResponse?
    var body: [UInt8]
    var error: (any Error)?
    /// The body grew past the limit and the transfer was cut off.
    var overLimit: Bool
    /// Why a redirect was refused (another host, too many).
    var refusedRedirect: String?
}

/// Streams response bodies (so an oversized one is cut off early) and vets every redirect.
///
/// URLSession calls it on its own queue; per-task state sits behind a lock.
final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct TaskState {
        var continuation: CheckedContinuation<RawResponse, Never>
        var response: HTTPURLResponse?
        var body: [UInt8] = []
        var overLimit = false
        var redirects = 0
        var refusedRedirect: String?
        var allowedHost: @Sendable (String?) -> Bool
    }

    private let lock = NSLock()
    private var tasks: [Int: TaskState] = [:]
    private let maximumBodyBytes: Int
    private let maximumRedirects: Int

    init(maximumBodyBytes: Int, maximumRedirects: Int) {
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumRedirects = maximumRedirects
    }

    func run(_ request: URLRequest, in session: URLSession, allowedHost: @escaping @Sendable (String?) -> Bool) async -> RawResponse {
        let task = session.dataTask(with: request)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                lock.withLock {
                    tasks[task.taskIdentifier] = TaskState(continuation: continuation, allowedHost: allowedHost)
                }
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let tooLarge = lock.withLock { () -> Bool in
            tasks[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse
            if response.expectedContentLength > Int64(maximumBodyBytes) {
                tasks[dataTask.taskIdentifier]?.overLimit = true
                return true
            }
            return false
        }
        completionHandler(tooLarge ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let cut = lock.withLock { () -> Bool in
            guard var state = tasks[dataTask.taskIdentifier], !state.overLimit else { return false }
            if state.body.count + data.count > maximumBodyBytes {
                state.overLimit = true
                state.body.append(contentsOf: data.prefix(maximumBodyBytes - state.body.count))
                tasks[dataTask.taskIdentifier] = state
                return true
            }
            state.body.append(contentsOf: data)
            tasks[dataTask.taskIdentifier] = state
            return false
        }
        if cut { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        let verdict = lock.withLock { () -> URLRequest? in
            guard var state = tasks[task.taskIdentifier] else { return nil }
            state.redirects += 1
            defer { tasks[task.taskIdentifier] = state }
            guard let target = request.url else {
                state.refusedRedirect = "redirect without a target"
                return nil
            }
            guard state.allowedHost(target.host) else {
                state.refusedRedirect = "redirect to \(target.absoluteString) refused: host \(target.host ?? "?") is not allowed"
                return nil
            }
            guard state.redirects <= maximumRedirects else {
                state.refusedRedirect = "more than \(maximumRedirects) redirects (a redirect loop?); last to \(target.absoluteString)"
                return nil
            }
            return request
        }
        completionHandler(verdict)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let state = lock.withLock({ tasks.removeValue(forKey: task.taskIdentifier) }) else { return }
        let response = state.response ?? (task.response as? HTTPURLResponse)
        let raw = RawResponse(response: response, body: state.body, error: state.overLimit || state.refusedRedirect != nil ? nil : error,
                              overLimit: state.overLimit, refusedRedirect: state.refusedRedirect)
        state.continuation.resume(returning: raw)
    }
}
