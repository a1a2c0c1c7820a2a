import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The Firestore emulator (`gcloud emulators firestore start`, Debian's google-cloud-cli-firestore-emulator) on a
/// free port of 127.0.0.1, for tests: started and stopped by them, with nothing left running.
///
/// gcloud starts java, so both run under a watchdog shell in a process group of their own: `stop()` kills the whole
/// group, and the watchdog kills it too once the test process is gone, however that ended.
public final class FirestoreEmulator: Sendable {
    public let port: UInt16
    /// `127.0.0.1:PORT`, for `FIRESTORE_EMULATOR_HOST`.
    public var hostPort: String { "127.0.0.1:\(port)" }
    private let log: URL
    /// Where the watchdog writes gcloud's pid, which is also its process group's id.
    private var pidFile: URL { log.appendingPathExtension("pid") }
    private let group = Mutex<Process?>(nil)

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Starts the emulator on a port nobody uses and waits until it answers.
    public init() throws {
        port = try Self.freePort()
        log = FileManager.default.temporaryDirectory.appendingPathComponent("firestore-emulator-\(port)-\(UUID().uuidString).log")
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: log)
    }

    /// Starts the emulator (again, after `stop()`) on the same port, with no data; waits up to 90 s for it.
    public func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", """
            gcloud emulators firestore start --host-port=127.0.0.1:\(port) >>"$1" 2>&1 &
            emulator=$!
            echo "$emulator" >"$3"
            while kill -0 "$2" 2>/dev/null && kill -0 "$emulator" 2>/dev/null; do sleep 1; done
            kill -KILL -"$emulator" 0
            """, "firestore-emulator", log.path, String(getpid()), pidFile.path]
        try? FileManager.default.removeItem(at: pidFile)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // gcloud makes a process group of its own for itself and java; the watchdog kills that group and its own once
        // the test process is gone, and stop() kills both with SIGKILL.
        group.withLock { $0 = process }
        let deadline = Date().addingTimeInterval(90)
        while Date() < deadline {
            if let answer = UpstreamRelay.exchange(method: "GET", target: "/", port: port, headers: [], body: []),
               UpstreamRelay.parse(answer)?.status == 200 {
                return
            }
            guard process.isRunning else { break }
            usleep(200_000)
        }
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        stop()
        throw Failure(description: "the Firestore emulator did not answer on \(hostPort): \(output.suffix(2000))")
    }

    /// Kills the emulator's process groups (gcloud and java; the watchdog) and reaps the watchdog.
    public func stop() {
        guard let watchdog = group.withLock({ value -> Process? in defer { value = nil }; return value }) else { return }
        // SIGKILL, which no inherited signal mask can hold back (the shell may have TERM blocked).
        if let text = try? String(contentsOf: pidFile, encoding: .utf8), let emulator = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            _ = kill(-emulator, SIGKILL)
            _ = kill(emulator, SIGKILL)
        }
        _ = kill(-watchdog.processIdentifier, SIGKILL)
        watchdog.waitUntilExit()
        try? FileManager.default.removeItem(at: pidFile)
        // The listening port is gone once java is; wait for that so a restart on the same port can bind.
        for _ in 0..<100 where UpstreamRelay.exchange(method: "GET", target: "/", port: port, headers: [], body: []) != nil {
            usleep(100_000)
        }
    }

    /// Deletes every document of a project's default database (the emulator's own endpoint).
    public func clear(project: String) throws {
        _ = try request("DELETE", "/emulator/v1/projects/\(project)/databases/(default)/documents")
    }

    /// Every document of a collection, id → its REST `fields` and `updateTime`, read page by page.
    public func documents(project: String, collection: String) throws -> [String: (fields: [String: Any], updateTime: String)] {
        var documents: [String: (fields: [String: Any], updateTime: String)] = [:]
        var token = ""
        repeat {
            let query = "pageSize=1000" + (token.isEmpty ? "" : "&pageToken=\(token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? token)")
            let page = try request("GET", "/v1/projects/\(project)/databases/(default)/documents/\(collection)?\(query)")
            for document in page["documents"] as? [[String: Any]] ?? [] {
                guard let name = document["name"] as? String, let id = name.split(separator: "/").last else { continue }
                documents[String(id)] = (document["fields"] as? [String: Any] ?? [:], document["updateTime"] as? String ?? "")
            }
            token = page["nextPageToken"] as? String ?? ""
        } while !token.isEmpty
        return documents
    }

    /// Whether a collection holds any document at all (one small request).
    public func hasDocuments(project: String, collection: String) throws -> Bool {
        let page = try request("GET", "/v1/projects/\(project)/databases/(default)/documents/\(collection)?pageSize=1")
        return !((page["documents"] as? [Any]) ?? []).isEmpty
    }

    private func request(_ method: String, _ target: String) throws -> [String: Any] {
        guard let answer = UpstreamRelay.exchange(method: method, target: target, port: port, headers: [("Authorization", "Bearer owner")], body: []),
              let response = UpstreamRelay.parse(answer), case let .bytes(body) = response.body else {
            throw Failure(description: "\(method) \(target): no answer from the emulator on \(hostPort)")
        }
        guard response.status == 200 else { throw Failure(description: "\(method) \(target): HTTP \(response.status) \(String(decoding: body, as: UTF8.self))") }
        return (try? JSONSerialization.jsonObject(with: body.isEmpty ? Data("{}".utf8) : body)) as? [String: Any] ?? [:]
    }

    private static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw Failure(description: "cannot bind a free port: \(errno)") }
        return UInt16(bigEndian: address.sin_port)
    }
}
