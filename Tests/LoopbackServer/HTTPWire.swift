import Foundation
#if canImport(Glibc)
import Glibc
#endif

// MARK: - Request parsing

/// A request head that passed validation.
struct ParsedRequest {
    let method: String
    /// Origin-form target (path plus query), also for absolute-form request lines.
    let target: String
    let version: String
    /// Lower-cased header names; repeated headers joined with ", " as RFC 9110 allows for lists.
    let headers: [String: String]
    let contentLength: Int
    let keepAlive: Bool

    /// The target without its query string, used for directory lookups.
    var pathOnly: String {
        if let q = target.firstIndex(of: "?") { return String(target[..<q]) }
        return target
    }
}

/// What the parser made of the bytes buffered so far.
enum ParseOutcome {
    /// No blank line yet; `scanned` bytes need not be searched again.
    case incomplete(scanned: Int)
    /// A complete head occupying `headLength` bytes (blank line included).
    case request(ParsedRequest, headLength: Int)
    /// The head is unusable; answer `status` and close because framing can no longer be trusted.
    case failure(status: Int)
}

/// Largest request body the server will read and discard; GET bodies bigger than this are hostile.
let maxDiscardedBodyBytes = 1 << 20
/// Largest request body a proxying server forwards (Firestore takes commits up to 10 MiB).
let maxForwardedBodyBytes = 16 << 20

private let cr: UInt8 = 13
private let lf: UInt8 = 10

/// Parses one request head from the front of `buffer`, searching for the blank line from `scanFrom`.
func parseRequestHead(_ buffer: [UInt8], scanFrom: Int, maxBodyBytes: Int = maxDiscardedBodyBytes) -> ParseOutcome {
    guard let headEnd = findBlankLine(buffer, from: scanFrom) else {
        return .incomplete(scanned: max(0, buffer.count - 2))
    }
    var lines: [ArraySlice<UInt8>] = []
    var lineStart = 0
    for i in 0..<headEnd.textEnd where buffer[i] == lf {
        lines.append(trimCR(buffer[lineStart..<i]))
        lineStart = i + 1
    }
    lines.append(trimCR(buffer[lineStart..<headEnd.textEnd]))

    guard let requestLine = lines.first else { return .failure(status: 400) }
    let parts = requestLine.split(separator: 0x20, omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte) else {
        return .failure(status: 400)
    }
    let method = String(decoding: parts[0], as: UTF8.self)
    let version = String(decoding: parts[2], as: UTF8.self)
    guard version.hasPrefix("HTTP/"), version.count == 8 else { return .failure(status: 400) }
    guard version == "HTTP/1.1" || version == "HTTP/1.0" else { return .failure(status: 505) }
    guard !parts[1].isEmpty, parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
          let target = originForm(String(decoding: parts[1], as: UTF8.self)) else {
        return .failure(status: 400)
    }

    var headers: [String: String] = [:]
    var hostCount = 0
    var contentLengths: Set<String> = []
    for line in lines.dropFirst() {
        // Folded continuation lines are obsolete and a classic smuggling vector, so refuse them.
        guard let first = line.first, first != 0x20, first != 0x09,
              let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
            return .failure(status: 400)
        }
        let nameBytes = line[line.startIndex..<colon]
        guard !nameBytes.isEmpty, nameBytes.allSatisfy(isTokenByte) else { return .failure(status: 400) }
        let valueBytes = line[(colon + 1)...]
        guard valueBytes.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
            return .failure(status: 400)
        }
        let name = String(decoding: nameBytes, as: UTF8.self).lowercased()
        let value = String(decoding: valueBytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        switch name {
        case "host": hostCount += 1
        case "content-length": contentLengths.insert(value)
        case "transfer-encoding": return .failure(status: 501)
        default: break
        }
        if let existing = headers[name] {
            headers[name] = existing + ", " + value
        } else {
            headers[name] = value
        }
    }
    if version == "HTTP/1.1" && hostCount != 1 { return .failure(status: 400) }
    if hostCount > 1 { return .failure(status: 400) }

    var contentLength = 0
    if !contentLengths.isEmpty {
        guard contentLengths.count == 1, let text = contentLengths.first, !text.isEmpty, text.count <= 10,
              text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = Int(text) else {
            return .failure(status: 400)
        }
        guard value <= maxBodyBytes else { return .failure(status: 413) }
        contentLength = value
    }

    let connectionTokens = (headers["connection"] ?? "").lowercased()
        .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    let keepAlive = version == "HTTP/1.1"
        ? !connectionTokens.contains("close")
        : connectionTokens.contains("keep-alive")

    let request = ParsedRequest(method: method, target: target, version: version, headers: headers,
                                contentLength: contentLength, keepAlive: keepAlive)
    return .request(request, headLength: headEnd.headLength)
}

/// Locates the empty line ending a head, accepting bare LF as RFC 9112 permits.
private func findBlankLine(_ buffer: [UInt8], from: Int) -> (textEnd: Int, headLength: Int)? {
    var i = max(0, from)
    while i < buffer.count {
        if buffer[i] == lf {
            if i + 1 < buffer.count && buffer[i + 1] == lf {
                return (i, i + 2)
            }
            if i + 2 < buffer.count && buffer[i + 1] == cr && buffer[i + 2] == lf {
                return (i, i + 3)
            }
        }
        i += 1
    }
    return nil
}

private func trimCR(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    line.last == cr ? line.dropLast() : line
}

/// RFC 9110 `tchar`: the only bytes allowed in methods and header names.
private func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
         UInt8(ascii: "A")...UInt8(ascii: "Z"):
        return true
    default:
        return "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
}

/// Reduces a request target to origin form so routes match whether or not a proxy-style URL was sent.
private func originForm(_ raw: String) -> String? {
    if raw.hasPrefix("/") { return raw }
    for scheme in ["http://", "https://"] where raw.lowercased().hasPrefix(scheme) {
        let afterScheme = raw.dropFirst(scheme.count)
        guard let slash = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
        let rest = String(afterScheme[slash...])
        return rest.hasPrefix("?") ? "/" + rest : rest
    }
    return nil
}

// MARK: - Conditional requests

/// Whether an If-None-Match list names `etag`, using the weak comparison GET requires.
func etagMatches(ifNoneMatch: String, etag: String) -> Bool {
    func opaque(_ tag: Substring) -> Substring {
        let trimmed = tag.drop(while: { $0 == " " || $0 == "\t" })
        return trimmed.hasPrefix("W/") ? trimmed.dropFirst(2) : trimmed
    }
    let wanted = opaque(Substring(etag))
    for candidate in ifNoneMatch.split(separator: ",") {
        let tag = opaque(candidate).trimmingCharacters(in: .whitespaces)
        if tag == "*" || Substring(tag) == wanted { return true }
    }
    return false
}

/// Whether the resource is unchanged since the client's If-Modified-Since date.
func notModifiedSince(ifModifiedSince: String, lastModified: String) -> Bool {
    guard let since = HTTPDate.parse(ifModifiedSince), let modified = HTTPDate.parse(lastModified) else {
        // Unparseable dates must be ignored per RFC 9110, except that echoing the exact value is safe.
        return ifModifiedSince.trimmingCharacters(in: .whitespaces)
            == lastModified.trimmingCharacters(in: .whitespaces)
    }
    return since >= modified
}

/// IMF-fixdate conversion done by hand because DateFormatter is slow and locale-sensitive.
enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                 "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]

    /// Parses `Sun, 06 Nov 1994 08:49:37 GMT` into seconds since 1970; other formats yield nil.
    static func parse(_ text: String) -> Int64? {
        let fields = text.trimmingCharacters(in: .whitespaces).split(separator: " ")
        guard fields.count == 6, fields[5] == "GMT",
              let day = Int64(fields[1]), let month = months.firstIndex(of: String(fields[2])),
              let year = Int64(fields[3]) else { return nil }
        let clock = fields[4].split(separator: ":")
        guard clock.count == 3, let h = Int64(clock[0]), let m = Int64(clock[1]), let s = Int64(clock[2]),
              (1...31).contains(day), (0...23).contains(h), (0...59).contains(m), (0...60).contains(s) else {
            return nil
        }
        return daysFromCivil(year: year, month: Int64(month + 1), day: day) * 86_400 + h * 3600 + m * 60 + s
    }

    /// Formats seconds since 1970 as an IMF-fixdate.
    static func format(epochSeconds: Int64) -> String {
        let days = epochSeconds >= 0 ? epochSeconds / 86_400 : (epochSeconds - 86_399) / 86_400
        let secondsOfDay = epochSeconds - days * 86_400
        let (year, month, day) = civilFromDays(days)
        let weekday = weekdays[Int(((days % 7) + 7) % 7)]
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(weekday), \(two(day)) \(months[Int(month - 1)]) \(year) "
            + "\(two(secondsOfDay / 3600)):\(two(secondsOfDay % 3600 / 60)):\(two(secondsOfDay % 60)) GMT"
    }

    // Howard Hinnant's proleptic-Gregorian algorithms; exact for every representable date.
    private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civilFromDays(_ days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

// MARK: - Response vocabulary

/// The reason phrase for a status line; clients ignore it, but humans reading captures do not.
func reasonPhrase(_ status: Int) -> String {
    switch status {
    case 200: return "OK"
    case 204: return "No Content"
    case 301: return "Moved Permanently"
    case 302: return "Found"
    case 303: return "See Other"
    case 304: return "Not Modified"
    case 307: return "Temporary Redirect"
    case 308: return "Permanent Redirect"
    case 400: return "Bad Request"
    case 403: return "Forbidden"
    case 404: return "Not Found"
    case 405: return "Method Not Allowed"
    case 410: return "Gone"
    case 413: return "Content Too Large"
    case 429: return "Too Many Requests"
    case 431: return "Request Header Fields Too Large"
    case 500: return "Internal Server Error"
    case 501: return "Not Implemented"
    case 502: return "Bad Gateway"
    case 503: return "Service Unavailable"
    case 504: return "Gateway Timeout"
    case 505: return "HTTP Version Not Supported"
    default: return "Status \(status)"
    }
}

/// Whether a response with this status may carry a body (RFC 9110 §6.4.1).
func statusAllowsBody(_ status: Int) -> Bool {
    !(100..<200).contains(status) && status != 204 && status != 304
}

/// A Content-Type guess for mirrored files; HTML is the common case for a crawler's fixtures.
func contentType(forPathExtension ext: String) -> String {
    switch ext.lowercased() {
    case "html", "htm", "": return "text/html; charset=utf-8"
    case "xml": return "application/xml"
    case "json": return "application/json"
    case "txt": return "text/plain; charset=utf-8"
    case "css": return "text/css"
    case "js": return "text/javascript"
    case "csv": return "text/csv"
    case "png": return "image/png"
    case "jpg", "jpeg": return "image/jpeg"
    case "gif": return "image/gif"
    case "svg": return "image/svg+xml"
    case "pdf": return "application/pdf"
    default: return "application/octet-stream"
    }
}

// MARK: - Bodies

/// A response body that is either stored or synthesised, so `oversized` never allocates its size.
enum ResponseBody {
    case bytes(Data)
    case generated(Int)

    static let empty = ResponseBody.bytes(Data())

    var count: Int {
        switch self {
        case .bytes(let data): return data.count
        case .generated(let n): return n
        }
    }
}

/// 64 bytes of filler; a multiple of it fills `fillerBlock` so any offset can be served by slicing.
private let fillerLine = Array(("<!-- filler " + String(repeating: "x", count: 48) + "-->\n").utf8)
/// A 64 KiB run of filler plus one spare line so a slice may start at any phase of the pattern.
let fillerBlock: [UInt8] = Array((0..<(65_536 / 64 + 1)).map { _ in fillerLine }.joined())
/// The filler period, needed to map a body offset onto `fillerBlock`.
let fillerPeriod = 64

// MARK: - Sockets

/// Thin wrappers that hide errno plumbing from the connection logic.
enum Socket {
    /// Writes every byte, retrying on EINTR; false once the peer is gone or the server stopped.
    static func sendAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard var pointer = bytes.baseAddress else { return true }
        var remaining = bytes.count
        while remaining > 0 {
            // MSG_NOSIGNAL turns a vanished peer into EPIPE instead of killing the test process.
            let n = send(fd, pointer, remaining, Int32(MSG_NOSIGNAL))
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            remaining -= n
            pointer += n
        }
        return true
    }

    /// Writes `data` completely; see `sendAll(_:_:)`.
    static func sendAll(_ fd: Int32, _ data: [UInt8]) -> Bool {
        data.withUnsafeBytes { sendAll(fd, $0) }
    }

    /// Reads whatever is available into `buffer`; returns 0 at EOF and -1 on error.
    static func receive(_ fd: Int32, into buffer: inout [UInt8]) -> Int {
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            return n
        }
    }

    /// Disables Nagle so small header writes are not held back by delayed ACKs (40 ms stalls).
    static func setNoDelay(_ fd: Int32) {
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Makes the next close() send RST instead of FIN, which is how "connection reset by peer" is staged.
    static func setAbortiveClose(_ fd: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    /// Polls `fds` for input; returns the ready mask per fd, or nil on timeout.
    static func waitReadable(_ fds: [Int32], timeoutMilliseconds: Int32) -> [Bool]? {
        var entries = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        while true {
            let rc = poll(&entries, nfds_t(entries.count), timeoutMilliseconds)
            if rc < 0 && errno == EINTR { continue }
            if rc <= 0 { return nil }
            return entries.map { $0.revents != 0 }
        }
    }
}
