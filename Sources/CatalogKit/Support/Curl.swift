import CLibCurl
import Foundation

/// libcurl, and the only place its pointers live: HTTP for everything outside the fetch stage (webhooks, Firestore)
/// and SMTP for mail. A server that ends a connection after its status line makes libcurl return an error, where
/// FoundationNetworking stops the process (swift-corelibs-foundation issue 5285). Every transfer ends at its deadline
/// whatever the server does: the progress callback aborts it then, and SMTP's wait for each reply (libcurl's own
/// default is 120 s) is no longer than what is left.
enum Curl {
    /// What a transfer gave.
    struct Response: Sendable {
        /// HTTP: the status of the last response whose status line arrived; SMTP: the server's last reply; 0 for none.
        var status = 0
        /// The last response's headers, by lowercased name.
        var headers: [String: String] = [:]
        var body: [UInt8] = []
        var failure: Failure?
    }

    enum Failure: Sendable, Equatable, Error {
        /// The deadline came before the transfer ended.
        case deadline
        /// The body grew past the limit and the transfer was cut off.
        case overLimit
        /// The URL or a setting libcurl refuses: trying again cannot help.
        case malformed(String)
        case loginDenied(String)
        /// No connection, or one that failed (reset, closed early, TLS): worth trying again.
        case connection(String)

        var message: String {
            switch self {
            case .deadline: "no answer before the deadline"
            case .overLimit: "an answer past the size limit"
            case let .malformed(detail), let .loginDenied(detail), let .connection(detail): detail
            }
        }
    }

    /// One HTTP request, on a thread of its own (libcurl blocks); no redirect is followed.
    /// - Parameter deadline: `ProcessInfo.systemUptime` when the transfer is cut off.
    static func http(_ method: String, _ url: URL, headers: [String], body: Data?, deadline: Double,
                     maximumBodyBytes: Int) async -> Response {
        await offThePool {
            perform(url, deadline: deadline, maximumBodyBytes: maximumBodyBytes) { curl, keep in
                keep.set(curl, CURLOPT_PROTOCOLS_STR, "http,https")
                keep.set(curl, CURLOPT_CUSTOMREQUEST, method == "GET" ? nil : method)
                // libcurl would wait a second for "100 Continue" before a larger body.
                keep.list(curl, CURLOPT_HTTPHEADER, headers + ["Expect:"])
                if let body {
                    _ = gvingest_curl_setopt_long(curl, CURLOPT_POSTFIELDSIZE, body.count)
                    keep.set(curl, CURLOPT_COPYPOSTFIELDS, bytes: body)
                }
            }
        }
    }

    /// One message over SMTP: TLS from the start (smtps) or STARTTLS, AUTH when a user is given, the server's
    /// certificate verified (against `caFile` when set).
    static func smtp(_ url: URL, message: Data, from: String, to: [String], user: String?, password: String?,
                     caFile: String?, starttls: Bool, deadline: Double) async -> Response {
        await offThePool {
            var bytes = [UInt8](message)
            return bytes.withUnsafeMutableBytes { buffer in
                let file = fmemopen(buffer.baseAddress, buffer.count, "r")
                defer { if let file { fclose(file) } }
                guard let file else { return Response(failure: .connection("no memory for the message")) }
                return perform(url, deadline: deadline, maximumBodyBytes: 1 << 20) { curl, keep in
                    keep.set(curl, CURLOPT_PROTOCOLS_STR, "smtp,smtps")
                    keep.set(curl, CURLOPT_MAIL_FROM, "<\(from)>")
                    keep.set(curl, CURLOPT_USERNAME, user)
                    keep.set(curl, CURLOPT_PASSWORD, password)
                    keep.set(curl, CURLOPT_CAINFO, caFile)
                    keep.list(curl, CURLOPT_MAIL_RCPT, to.map { "<\($0)>" })
                    _ = gvingest_curl_setopt_pointer(curl, CURLOPT_READDATA, file)
                    _ = gvingest_curl_setopt_long(curl, CURLOPT_UPLOAD, 1)
                    _ = gvingest_curl_setopt_long(curl, CURLOPT_USE_SSL, Int(starttls ? CURLUSESSL_ALL.rawValue : CURLUSESSL_NONE.rawValue))
                }
            }
        }
    }

    /// What a transfer keeps alive until it ends: the strings and lists handed to libcurl, and what it received.
    private final class Transfer {
        let deadline: Double
        let maximumBodyBytes: Int
        var body: [UInt8] = []
        var headers: [String: String] = [:]
        /// The blank line after the last response's headers arrived.
        var headersEnded = false
        var overLimit = false
        var pastDeadline = false
        private var strings: [UnsafeMutablePointer<CChar>] = []
        private var lists: [UnsafeMutablePointer<curl_slist>] = []

        init(deadline: Double, maximumBodyBytes: Int) {
            self.deadline = deadline
            self.maximumBodyBytes = maximumBodyBytes
        }

        deinit {
            strings.forEach { free($0) }
            lists.forEach { curl_slist_free_all($0) }
        }

        func set(_ curl: UnsafeMutableRawPointer, _ option: CURLoption, _ text: String?) {
            guard let text, let copy = strdup(text) else { return }
            strings.append(copy)
            _ = gvingest_curl_setopt_pointer(curl, option, copy)
        }

        /// COPYPOSTFIELDS copies the bytes itself.
        func set(_ curl: UnsafeMutableRawPointer, _ option: CURLoption, bytes: Data) {
            _ = bytes.withUnsafeBytes { gvingest_curl_setopt_pointer(curl, option, $0.baseAddress) }
        }

        func list(_ curl: UnsafeMutableRawPointer, _ option: CURLoption, _ items: [String]) {
            var list: UnsafeMutablePointer<curl_slist>?
            for item in items { list = curl_slist_append(list, item) }
            guard let list else { return }
            lists.append(list)
            _ = gvingest_curl_setopt_pointer(curl, option, list)
        }
    }

    private static func perform(_ url: URL, deadline: Double, maximumBodyBytes: Int,
                                configure: (UnsafeMutableRawPointer, Transfer) -> Void) -> Response {
        let left = deadline - ProcessInfo.processInfo.systemUptime
        guard left > 0 else { return Response(failure: .deadline) }
        guard let curl = curl_easy_init() else { return Response(failure: .connection("libcurl could not start")) }
        defer { curl_easy_cleanup(curl) }
        let transfer = Transfer(deadline: deadline, maximumBodyBytes: maximumBodyBytes)
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        var errors = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let code = errors.withUnsafeMutableBufferPointer { errorBuffer in
            transfer.set(curl, CURLOPT_URL, url.absoluteString)
            _ = gvingest_curl_setopt_pointer(curl, CURLOPT_ERRORBUFFER, errorBuffer.baseAddress)
            _ = gvingest_curl_setopt_long(curl, CURLOPT_NOSIGNAL, 1)
            // The connection ends with this transfer, under its deadline: a cached one would be closed later by
            // libcurl's own handle, whose wait for a reply to QUIT is 120 s.
            _ = gvingest_curl_setopt_long(curl, CURLOPT_FORBID_REUSE, 1)
            let milliseconds = max(1, Int((left * 1000).rounded(.up)))
            _ = gvingest_curl_setopt_long(curl, CURLOPT_TIMEOUT_MS, milliseconds)
            _ = gvingest_curl_setopt_long(curl, CURLOPT_CONNECTTIMEOUT_MS, milliseconds)
            _ = gvingest_curl_setopt_long(curl, CURLOPT_SERVER_RESPONSE_TIMEOUT, max(1, Int(left.rounded(.down))))
            _ = gvingest_curl_setopt_long(curl, CURLOPT_NOPROGRESS, 0)
            _ = gvingest_curl_setopt_xferinfo(curl) { context, _, _, _, _ in
                guard let context else { return 0 }
                let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
                guard ProcessInfo.processInfo.systemUptime >= transfer.deadline else { return 0 }
                transfer.pastDeadline = true
                return 1
            }
            _ = gvingest_curl_setopt_pointer(curl, CURLOPT_XFERINFODATA, context)
            _ = gvingest_curl_setopt_write(curl, CURLOPT_WRITEFUNCTION) { data, size, count, context in
                guard let context else { return 0 }
                let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
                let length = size * count
                guard transfer.body.count + length <= transfer.maximumBodyBytes else {
                    transfer.overLimit = true
                    return 0
                }
                if let data { data.withMemoryRebound(to: UInt8.self, capacity: length) { transfer.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: length)) } }
                return length
            }
            _ = gvingest_curl_setopt_pointer(curl, CURLOPT_WRITEDATA, context)
            _ = gvingest_curl_setopt_write(curl, CURLOPT_HEADERFUNCTION) { data, size, count, context in
                guard let context else { return 0 }
                let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
                let length = size * count
                guard let data else { return length }
                let line = data.withMemoryRebound(to: UInt8.self, capacity: length) {
                    String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
                }
                if line.hasPrefix("HTTP/") {
                    transfer.headers = [:]
                    transfer.headersEnded = false
                } else if line == "\r\n" || line == "\n" {
                    transfer.headersEnded = true
                } else if let colon = line.firstIndex(of: ":") {
                    transfer.headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
                }
                return length
            }
            _ = gvingest_curl_setopt_pointer(curl, CURLOPT_HEADERDATA, context)
            configure(curl, transfer)
            return curl_easy_perform(curl)
        }
        var response = Response(status: gvingest_curl_response_code(curl), headers: transfer.headers, body: transfer.body)
        // libcurl takes a status line followed by the connection's end as a whole answer with no body.
        if code == CURLE_OK, ["http", "https"].contains(url.scheme?.lowercased() ?? ""), !transfer.headersEnded {
            response.failure = .connection("the connection ended inside the answer's headers")
        }
        guard code != CURLE_OK else { return response }
        let written = String(decoding: errors.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var detail = written.isEmpty ? String(cString: curl_easy_strerror(code)) : written
        // A webhook's path and query are its secret: libcurl's line never shows them.
        for secret in [url.path, url.query ?? "", url.absoluteString] where secret.count > 1 {
            detail = detail.replacingOccurrences(of: secret, with: "…")
        }
        switch code {
        case CURLE_ABORTED_BY_CALLBACK where transfer.pastDeadline, CURLE_OPERATION_TIMEDOUT: response.failure = .deadline
        case CURLE_WRITE_ERROR where transfer.overLimit: response.failure = .overLimit
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL, CURLE_NOT_BUILT_IN, CURLE_BAD_FUNCTION_ARGUMENT, CURLE_SSL_CACERT_BADFILE,
             CURLE_FILE_COULDNT_READ_FILE:
            response.failure = .malformed(detail)
        case CURLE_LOGIN_DENIED: response.failure = .loginDenied(detail)
        default: response.failure = .connection(detail)
        }
        return response
    }

    /// libcurl blocks: on a thread of its own, never one of Swift's cooperative pool.
    private static func offThePool(_ work: @escaping @Sendable () -> Response) async -> Response {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: work()) }
        }
    }
}
