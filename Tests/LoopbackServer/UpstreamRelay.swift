import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Sends one request on to a server on 127.0.0.1 and brings its answer back, for a proxying `LoopbackHTTPServer`.
///
/// One connection per request, closed by the upstream server after its answer, so the answer ends where the
/// connection does; a chunked answer is decoded. An upstream that cannot be reached gives 502, as a proxy would.
enum UpstreamRelay {
    /// Request headers passed on; framing headers are the relay's own.
    static let forwardedHeaders = ["authorization", "content-type", "accept", "user-agent"]

    static func forward(_ request: ParsedRequest, body: [UInt8], toPort port: UInt16) -> PendingResponse {
        let headers = forwardedHeaders.compactMap { name in request.headers[name].map { (name, $0) } }
        guard let answer = exchange(method: request.method, target: request.target, port: port, headers: headers, body: body) else {
            return .text(502, "502 relay: upstream 127.0.0.1:\(port) unreachable\n")
        }
        return parse(answer) ?? .text(502, "502 relay: upstream answer unreadable\n")
    }

    /// One request on a fresh connection to 127.0.0.1:`port`; the whole answer as sent, or nil when unreachable.
    static func exchange(method: String, target: String, port: UInt16, headers: [(String, String)], body: [UInt8]) -> [UInt8]? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return nil }
        Socket.setNoDelay(fd)
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\nContent-Length: \(body.count)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        guard Socket.sendAll(fd, Array((head + "\r\n").utf8) + body) else { return nil }
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        // Some servers (the Firestore emulator) keep the connection open despite "Connection: close": the answer
        // ends where its framing says, or at the end of the connection.
        while !isComplete(answer) {
            let count = Socket.receive(fd, into: &chunk)
            guard count > 0 else { break }
            answer.append(contentsOf: chunk[0..<count])
        }
        return answer.isEmpty ? nil : answer
    }

    /// Whether `answer` holds a whole response: its head, then Content-Length bytes or a chunked body's last chunk.
    static func isComplete(_ answer: [UInt8]) -> Bool {
        guard let end = headEnd(answer) else { return false }
        let head = String(decoding: answer[..<end], as: UTF8.self).lowercased()
        let bodyCount = answer.count - end - 4
        if head.contains("transfer-encoding: chunked") {
            return answer.suffix(5) == [48, 13, 10, 13, 10]
        }
        guard let line = head.components(separatedBy: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
              let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) else { return false }
        return bodyCount >= length
    }

    /// Where the blank line ending the head starts.
    static func headEnd(_ answer: [UInt8]) -> Int? {
        guard answer.count >= 4 else { return nil }
        return (0...(answer.count - 4)).first { answer[$0] == 13 && answer[$0 + 1] == 10 && answer[$0 + 2] == 13 && answer[$0 + 3] == 10 }
    }

    /// Status, Content-Type and body of a whole HTTP/1.1 answer.
    static func parse(_ answer: [UInt8]) -> PendingResponse? {
        guard let end = headEnd(answer) else { return nil }
        let lines = String(decoding: answer[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusWords = lines.first?.split(separator: " ") ?? []
        guard statusWords.count >= 2, let status = Int(statusWords[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(answer[(end + 4)...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" { body = dechunk(body) }
        let type = headers["content-type"].map { [(name: "Content-Type", value: $0)] } ?? []
        return PendingResponse(status: status, headers: type, body: .bytes(Data(body)))
    }

    private static func dechunk(_ bytes: [UInt8]) -> [UInt8] {
        var body: [UInt8] = []
        var index = 0
        while index < bytes.count {
            guard let lineEnd = (index..<max(index, bytes.count - 1)).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }),
                  let size = Int(String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";").first ?? "", radix: 16),
                  size > 0 else { break }
            let start = lineEnd + 2
            body.append(contentsOf: bytes[start..<min(bytes.count, start + size)])
            index = start + size + 2
        }
        return body
    }
}
