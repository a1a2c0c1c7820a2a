import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where a publish goes: a project's database over the REST API v1, the real service or an emulator.
public struct FirestoreTarget: Sendable, Equatable {
    public var project: String
    public var database: String
    /// `https://firestore.googleapis.com/v1`, or `http://HOST:PORT/v1` for an emulator.
    public var apiBase: URL
    public var token: String

    /// `projects/P/databases/D/documents`: the prefix of every document name.
    public var documentsRoot: String { "projects/\(project)/databases/\(database)/documents" }

    public func documentName(collection: String, id: String) -> String { "\(documentsRoot)/\(collection)/\(id)" }
}

/// Firestore's lists and commits, within one deadline for the whole publish: each request's own limit shrinks to what
/// is left of it, and what Firestore says is worth retrying is retried until then. Requests go through libcurl
/// (`Curl.http`), as everything outside the fetch stage: a connection that ends after its status line is an error
/// to retry, not FoundationNetworking stopping the process.
final class FirestoreClient: Sendable {
    let target: FirestoreTarget
    /// Sent with every request: `fetch.userAgent` with gvingest's version.
    private let userAgent: String
    private let deadline: Double
    private let deadlineSeconds: Int
    /// Retries made so far (not counting first attempts).
    var retries: Int { retryCount.withLock { $0 } }
    private let retryCount = Mutex(0)

    /// A listing page of 1,000 documents is a few MiB; more than this is no Firestore answer.
    static let maximumBodyBytes = 64 << 20
    /// Each request's own wall-clock limit.
    static let requestSeconds = 60

    /// - Parameter deadlineSeconds: from now, the moment every request and retry ends.
    init(target: FirestoreTarget, deadlineSeconds: Int, userAgent: String = FetchSettings().requestUserAgent) {
        self.target = target
        self.userAgent = userAgent
        self.deadlineSeconds = max(1, deadlineSeconds)
        deadline = ProcessInfo.processInfo.systemUptime + Double(self.deadlineSeconds)
    }

    /// Every document of a collection: id → fields, nil for one gvingest cannot read (so it compares unequal).
    func list(collection: String) async throws(CatalogError) -> [String: [String: FirestoreValue]?] {
        var documents: [String: [String: FirestoreValue]?] = [:]
        var pageToken: String?
        var tokens: Set<String> = []
        let prefix = "\(target.documentsRoot)/\(collection)/"
        repeat {
            var components = URLComponents(url: url("\(target.documentsRoot)/\(collection)"), resolvingAgainstBaseURL: false)
            components?.queryItems = [URLQueryItem(name: "pageSize", value: "1000")] + (pageToken.map { [URLQueryItem(name: "pageToken", value: $0)] } ?? [])
            guard let pageURL = components?.url else { throw CatalogError("cannot make a URL for collection \(collection)", .unavailable) }
            let page = try await send(method: "GET", url: pageURL, body: nil)
            if case let .array(list)? = page["documents"] {
                for document in list {
                    guard case let .string(name)? = document["name"], name.hasPrefix(prefix) else { continue }
                    documents[String(name.dropFirst(prefix.count))] = FirestoreValue.fields(rest: document["fields"])
                }
            }
            if case let .string(token)? = page["nextPageToken"], !token.isEmpty { pageToken = token } else { pageToken = nil }
            // Every page but the last brings documents: a token seen before, or more pages than documents, is a loop.
            if let token = pageToken, !tokens.insert(token).inserted || tokens.count > documents.count {
                throw CatalogError("listing \(collection): Firestore named a next page (\(Self.printable(String(token.prefix(64))))) "
                    + "after \(tokens.count) page(s) with \(documents.count) document(s), \(tokens.count > documents.count ? "more pages than documents" : "a page seen before"); nothing written", .unavailable)
            }
        } while pageToken != nil
        return documents
    }

    /// One atomic commit, counted only from Firestore's CommitResponse: a result for each write, and the commit time.
    /// Every write replaces a whole document or deletes one, so a commit repeated after a lost answer leaves the
    /// same state: that is what makes retrying it safe.
    func commit(_ writes: [JSONValue]) async throws(CatalogError) {
        let body = JSONFile.encoded(JSONValue.object(["writes": .array(writes)]), pretty: false)
        let answer = try await send(method: "POST", url: url("\(target.documentsRoot):commit"), body: Data(body))
        guard case let .array(results)? = answer["writeResults"], results.count == writes.count,
              answer["commitTime"]?.stringValue != nil else {
            throw CatalogError("commit of \(writes.count) write(s): an answer that is not Firestore's CommitResponse (writeResults, "
                + "commitTime); not counted as written", .unavailable)
        }
    }

    private func url(_ path: String) -> URL {
        // The path's characters ("(default)", ":commit") are all allowed in a URL path, so appending keeps them as they are.
        URL(string: target.apiBase.absoluteString + "/" + path) ?? target.apiBase
    }

    private func send(method: String, url: URL, body: Data?) async throws(CatalogError) -> JSONValue {
        var attempt = 0
        while true {
            attempt += 1
            let left = Int((deadline - ProcessInfo.processInfo.systemUptime).rounded(.up))
            guard left > 0, !Task.isCancelled else {
                throw CatalogError("\(method) \(url.path): the publish's deadline of \(deadlineSeconds) s was reached", .temporary)
            }
            let seconds = min(Self.requestSeconds, left)
            let answer = await Curl.http(method, url, headers: ["Content-Type: application/json", "User-Agent: \(userAgent)", "Authorization: Bearer \(target.token)"],
                                         body: body, deadline: min(deadline, ProcessInfo.processInfo.systemUptime + Double(seconds)),
                                         maximumBodyBytes: Self.maximumBodyBytes)
            let raw = RawResponse(answer, url: url)
            switch Self.judge(raw, url: url, seconds: seconds) {
            case let .success(json): return json
            case let .failure(failure) where failure.cause != .temporary: throw failure
            case let .failure(failure):
                let retryAfter = raw.response?.value(forHTTPHeaderField: "Retry-After").flatMap { RetryAfter.seconds(from: $0) }
                let wait = RetryAfter.backoff(attempt: attempt, base: 0.1, maximum: 5, retryAfter: retryAfter, retryAfterMaximum: 30)
                let left = deadline - ProcessInfo.processInfo.systemUptime
                guard !Task.isCancelled, wait < left else {
                    let why = Self.whyStopped(attempts: attempt, left: left, wait: wait, deadlineSeconds: deadlineSeconds,
                                              cancelled: Task.isCancelled)
                    throw CatalogError("\(method) \(url.path): \(failure.message) (\(why))", .temporary)
                }
                retryCount.withLock { $0 += 1 }
                try? await Task.sleep(nanoseconds: UInt64(wait * 1_000_000_000))
            }
        }
    }

    /// Why retrying stopped, as it happened: stopping early because the next try would come too late is not
    /// reaching the deadline.
    static func whyStopped(attempts: Int, left: Double, wait: Double, deadlineSeconds: Int, cancelled: Bool) -> String {
        let attempts = "\(attempts) attempt\(attempts == 1 ? "" : "s")"
        if cancelled { return "stopped after \(attempts): the publish was cancelled" }
        if left < 1 { return "gave up after \(attempts), at the deadline of \(deadlineSeconds) s" }
        return "gave up after \(attempts), \(Int(left.rounded())) s before the deadline of \(deadlineSeconds) s: "
            + "the next try was due in \(Int(wait.rounded())) s, past it"
    }

    /// What an answer means: its JSON, or a failure: worth retrying (75: 429, 503, ABORTED, UNAVAILABLE, no connection),
    /// refused credentials (77: 401, 403), or refused for good (69: 400, 404, …).
    static func judge(_ raw: RawResponse, url: URL? = nil, seconds: Int = requestSeconds) -> Result<JSONValue, CatalogError> {
        if raw.timedOut {
            return .failure(CatalogError("no whole answer within \(seconds) s", .temporary))
        }
        if raw.overLimit {
            return .failure(CatalogError("an answer larger than \(maximumBodyBytes >> 20) MiB, which no Firestore answer is", .unavailable))
        }
        if let error = raw.error {
            let endpoint = url.map { "\($0.host ?? "?")\($0.port.map { ":\($0)" } ?? "")" } ?? "Firestore"
            let cause = (error as? Curl.Failure).map { "connection error with \(endpoint): \($0.message)" }
                ?? url.map { ConnectionFailure.describe(error, url: $0, timeoutSeconds: seconds) } ?? error.localizedDescription
            return .failure(CatalogError("no answer: \(cause)", .temporary))
        }
        guard let response = raw.response else { return .failure(CatalogError("no answer", .temporary)) }
        let json = (try? JSONFile.decode(JSONValue.self, from: raw.body)) ?? .null
        let excerpt = printable(String(decoding: raw.body.prefix(200), as: UTF8.self))
        if (200..<300).contains(response.statusCode) {
            guard case .object = json else { return .failure(CatalogError("HTTP \(response.statusCode) with an answer that is not JSON: \(excerpt)", .unavailable)) }
            return .success(json)
        }
        let status = json["error"]?["status"]?.stringValue
        let message = json["error"]?["message"]?.stringValue.map(printable) ?? excerpt
        let described = "HTTP \(response.statusCode)\(status.map { " \(printable($0))" } ?? ""): \(message)"
        if [408, 429, 500, 502, 503, 504].contains(response.statusCode) || ["ABORTED", "UNAVAILABLE", "RESOURCE_EXHAUSTED"].contains(status ?? "") {
            return .failure(CatalogError(described, .temporary))
        }
        if response.statusCode == 401 || response.statusCode == 403 {
            return .failure(CatalogError("\(described) (the access token was refused)", .noCredentials))
        }
        return .failure(CatalogError(described, .unavailable))
    }

    /// Text from Firestore as it may reach a terminal: control and format characters (ESC, U+202E) escaped.
    static func printable(_ text: String) -> String {
        text.unicodeScalars.reduce(into: "") { output, scalar in
            let category = scalar.properties.generalCategory
            output += category == .control || category == .format ? "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" : String(scalar)
        }
    }
}

extension RawResponse {
    /// What libcurl gave, as the judge of an answer reads it: a transfer cut short is an error even after a 2xx
    /// status line, since Firestore's answer is its body (and every request is safe to repeat).
    init(_ answer: Curl.Response, url: URL) {
        self.init()
        body = answer.body
        switch answer.failure {
        case .deadline?: timedOut = true
        case .overLimit?: overLimit = true
        case let failure?: error = failure
        case nil: response = HTTPURLResponse(url: url, statusCode: answer.status, httpVersion: "HTTP/1.1", headerFields: answer.headers)
        }
    }
}
