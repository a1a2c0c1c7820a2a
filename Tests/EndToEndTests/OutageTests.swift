import Foundation
import LoopbackServer
import Testing

/// An outage is not bad data: `gvingest run` against a source that is down (robots.txt included) exits 75 with the
/// real cause in one line and no advice to loosen the guards; `gvingest fetch` names the same cause.
@Suite(.serialized) struct OutageTests {
    /// A configuration crawling `start` once, with no retries or pacing, in a scratch directory.
    static func project(start: String) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-outage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Data("""
        {"schemaVersion": 1,
         "catalogs": [{"id": "down", "name": "Down", "system": "gvsu", "source": {"http": {"startUrls": ["\(start)"]}}}],
         "fetch": {"maxAttempts": 1, "minimumDelayMs": 0, "requestTimeoutSeconds": 1},
         "guards": {"minimumCourses": 1}}
        """.utf8).write(to: root.appendingPathComponent("pipeline.json"))
        return root
    }

    /// Runs the pipeline on `start` and checks the outage is reported as one: 75, the cause, nothing written.
    func expectOutage(start: String, cause: String) async throws {
        let project = try Self.project(start: start)
        defer { try? FileManager.default.removeItem(at: project) }
        let outcome = try await Binary.run(["run", "--quiet"], in: project)
        #expect(outcome.status == 75, "\(outcome.stderr)")
        let errors = outcome.stderr.split(separator: "\n").filter { $0.contains("error:") }
        #expect(errors.count == 1, "\(outcome.stderr)")
        #expect(errors.first?.contains("source unavailable for now") == true, "\(outcome.stderr)")
        #expect(errors.first?.contains(cause) == true, "expected '\(cause)' in: \(outcome.stderr)")
        #expect(!outcome.stderr.contains("guards."), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("The operation could not be completed"))
        #expect(!FileManager.default.fileExists(atPath: project.appendingPathComponent("out/catalog.json").path))
        let report = try Data(contentsOf: project.appendingPathComponent("out/run-report.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: report) as? [String: Any])
        #expect(object["exitStatus"] as? Int == 75)
    }

    @Test func aClosedPortIsATemporaryFailureNamingTheRefusal() async throws {
        let server = try LoopbackHTTPServer()
        let port = server.port
        server.stop()
        try await expectOutage(start: "http://127.0.0.1:\(port)/catalog/subject/biology.htm", cause: "connection refused by 127.0.0.1:\(port)")
    }

    @Test func aServerThatResetsRobotsTxtIsATemporaryFailure() async throws {
        let server = try LoopbackHTTPServer()
        server.start()
        defer { server.stop() }
        server.setFault(.reset(times: .max), for: "/robots.txt")
        try await expectOutage(start: server.baseURLString + "/catalog/subject/biology.htm", cause: "connection reset by 127.0.0.1:\(server.port)")
    }

    @Test func aTLSFailureIsATemporaryFailure() async throws {
        // A plain-text answer to a TLS ClientHello: the handshake fails at once.
        let listener = try PlainTextListener()
        try await expectOutage(start: "https://127.0.0.1:\(listener.port)/catalog/subject/biology.htm", cause: "TLS failure with 127.0.0.1:\(listener.port)")
    }

    @Test func aTimeoutIsATemporaryFailure() async throws {
        let server = try LoopbackHTTPServer()
        server.start()
        defer { server.stop() }
        server.setFault(.latency(seconds: 4), for: "/robots.txt")
        try await expectOutage(start: server.baseURLString + "/catalog/subject/biology.htm", cause: "timed out after 1 s")
    }

    @Test func fetchNamesTheCauseAndExits75() async throws {
        let server = try LoopbackHTTPServer()
        let port = server.port
        server.stop()
        let outcome = try await Binary.run(["fetch", "--start", "http://127.0.0.1:\(port)/a.htm"])
        #expect(outcome.status == 75, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("robots.txt of http://127.0.0.1:\(port) could not be fetched: connection refused"), "\(outcome.stderr)")
    }
}

/// A TCP listener on 127.0.0.1 that answers every connection with one line of plain text and closes it: what a
/// client expecting TLS gets from a server that does not speak it.
final class PlainTextListener: @unchecked Sendable {
    let port: UInt16
    private let socketFD: Int32

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && listen(fd, 8) == 0
                && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "bind/listen failed: errno \(errno)"]) }
        port = UInt16(bigEndian: address.sin_port)
        socketFD = fd
        Thread.detachNewThread {
            while true {
                let client = accept(fd, nil, nil)
                guard client >= 0 else { return }
                let answer = Array("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n".utf8)
                _ = answer.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                close(client)
            }
        }
    }

    deinit {
        shutdown(socketFD, Int32(SHUT_RDWR))
        close(socketFD)
    }
}
