import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Each connection: reading its requests, then answering them as the routes and faults say.
extension ServerCore {
    func serveConnection(fd: Int32, id: Int) {
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
        var record = RecordedRequest(method: request.method, path: request.target, version: request.version,
                                     headers: request.headers, time: Date(), connectionID: connectionID)
        record.body = body
        let plan = locked { state -> ResponsePlan in
            state.log.append(record)
            state.inFlight += 1
            state.maxInFlight = max(state.maxInFlight, state.inFlight)
            return Self.makePlan(for: request, state: &state)
        }
        defer { locked { $0.inFlight -= 1 } }

        if case .statusLineThenClose = plan.counted {
            _ = Socket.sendAll(fd, Array("HTTP/1.1 200 OK\r\n".utf8))
            return .close
        }
        let isHead = request.method == "HEAD"
        // A POST is answered only by a resource set for it (a stand-in for an API's reply) or by the upstream.
        guard request.method == "GET" || isHead || plan.upstream != nil || (request.method == "POST" && plan.resource != nil) else {
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
        case .reply(let status, let json, _):
            response = PendingResponse(status: status, headers: [("Content-Type", "application/json")], body: .bytes(Data(json.utf8)))
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
                case .status, .tooManyRequests, .reset, .truncated, .statusLineThenClose, .reply:
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
