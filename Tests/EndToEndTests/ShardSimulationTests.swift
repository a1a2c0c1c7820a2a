@testable import CatalogKit
import Foundation
import LoopbackServer
import Synchronization
import Testing

/// Many catalogs on a few hosts, run as Kubernetes would run an Indexed Job: N workers, each the built binary in a
/// process of its own with its own JOB_COMPLETION_INDEX, against loopback sites (each port of 127.0.0.1 a host of its
/// own) that record when each request came. Then a second round in which one worker is killed mid-shard and started
/// again, as Kubernetes restarts an index.
@Suite(.serialized) struct ShardSimulationTests {
    /// Catalogs per host: some hosts hold several, as Acalog and CourseLeaf tenants share a provider's.
    static let catalogsPerHost = [8, 6, 4, 3, 2, 1]
    static let workers = 3
    static let delay = 0.25
    static let coursesPerCatalog = 4

    /// A catalog: its host (index into the servers) and its path prefix there.
    struct Catalog {
        var id: String
        var host: Int
        var prefix: String
        var listing: String { "\(prefix)/catalog/subject/sim.htm" }
    }

    static let catalogs: [Catalog] = catalogsPerHost.enumerated().flatMap { host, count in
        (0..<count).map { Catalog(id: "h\(host)c\($0)", host: host, prefix: "/h\(host)c\($0)") }
    }

    static func resources(_ catalog: Catalog, courses: Int) -> [String: Resource] {
        var resources: [String: Resource] = [:]
        var items: [String] = []
        for number in 101..<(101 + courses) {
            let path = "\(catalog.prefix)/catalog/course/sim-\(number).htm"
            items.append("<li><a href=\"\(path)\">SIM \(number) - Topic \(number) of \(catalog.id)</a></li>")
            resources[path] = Resource("""
            <!DOCTYPE html><html><head><meta charset="utf-8"></head><body><div id="content">
            <p>2025-2026 Undergraduate &amp; Graduate Catalog</p>
            <h1>SIM \(number) - Topic \(number) of \(catalog.id)</h1>
            <p>Simulated course \(number) of catalog \(catalog.id), served from a loopback host. Offered fall semester.</p>
            <p><strong>Credits:</strong> 3</p></div></body></html>
            """)
        }
        resources[catalog.listing] = Resource("""
        <!DOCTYPE html><html><head><meta charset="utf-8"><title>Simulation</title></head><body><div id="content">
        <h1>Simulation (SIM)</h1><ul>
        \(items.joined(separator: "\n"))
        </ul></div></body></html>
        """)
        return resources
    }

    /// The worker processes of one round, started at once; `whileRunning` sees them until each has exited.
    static func round(_ root: URL, environment: [String: String], tag: String,
                      whileRunning: @escaping @Sendable ([Process]) -> Void = { _ in }) async throws -> (statuses: [Int32], seconds: Double) {
        try await Binary.offThePool {
            let began = ProcessInfo.processInfo.systemUptime
            let processes = try (0..<workers).map { index in
                try worker(index, root: root, environment: environment, log: "\(tag)-\(index)")
            }
            whileRunning(processes)
            processes.forEach { $0.waitUntilExit() }
            return (processes.map(\.terminationStatus), ProcessInfo.processInfo.systemUptime - began)
        }
    }

    static func worker(_ index: Int, root: URL, environment: [String: String], log: String) throws -> Process {
        let process = Process()
        process.executableURL = Binary.url
        process.arguments = ["run", "--shard", "index/\(workers)", "--config", "pipeline.json", "--log-format", "json"]
        process.currentDirectoryURL = root
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            .merging(["JOB_COMPLETION_INDEX": "\(index)"]) { $1 }
        let file = root.appendingPathComponent("\(log).log")
        FileManager.default.createFile(atPath: file.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: file)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }

    static func shardReport(_ root: URL, _ index: Int) throws -> ShardReport {
        try JSONFile.decode(ShardReport.self, from: Data(contentsOf: root.appendingPathComponent("out/shards/\(index)-of-\(workers)/shard-report.json")))
    }

    /// The smallest time between two requests to each host, over every worker.
    static func smallestSpacings(_ servers: [LoopbackHTTPServer], since: Date) -> [Double] {
        servers.map { server in
            let times = server.allRequests.map(\.time).filter { $0 >= since }.sorted()
            return zip(times, times.dropFirst()).map { $1.timeIntervalSince($0) }.min() ?? .infinity
        }
    }

    /// The slowest shard's politeness bound: each of its keys needs one delay per request it serves, keys side by side
    /// up to fetch.maxConcurrentHosts (4, more than any shard here holds).
    static func slowestShardBound(_ root: URL, _ servers: [LoopbackHTTPServer], since: Date) throws -> Double {
        let requests = Dictionary(uniqueKeysWithValues: servers.map { server in
            ("127.0.0.1:\(server.port)", server.allRequests.filter { $0.time >= since }.count)
        })
        return try (0..<workers).map { index in
            let keys = try shardReport(root, index).plan.map(\.key)
            let perKey = keys.map { Double(requests[$0] ?? 0) * delay }
            return max(perKey.max() ?? 0, perKey.reduce(0, +) / 4)
        }.max() ?? 0
    }

    @Test func workersShardedByHostKeepEachDelayRunEachCatalogOnceAndResumeAfterAKill() async throws {
        let servers = try Self.catalogsPerHost.map { _ in try LoopbackHTTPServer() }
        let webhook = try LoopbackHTTPServer()
        let discord = "/api/webhooks/1/SIMULATION"
        webhook[discord + "?wait=true"] = Resource(#"{"id": "1"}"#, contentType: "application/json")
        (servers + [webhook]).forEach { $0.start() }
        defer { (servers + [webhook]).forEach { $0.stop() } }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-shards-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        func serve(courses: Int) {
            for (host, server) in servers.enumerated() {
                server.setResources(Self.catalogs.filter { $0.host == host }.reduce(into: [:]) { $0.merge(Self.resources($1, courses: courses)) { $1 } })
            }
        }
        serve(courses: Self.coursesPerCatalog)
        let entries = Self.catalogs.map { catalog in
            #"{"id": "\#(catalog.id)", "name": "Catalog \#(catalog.id)", "system": "gvsu", "source": {"http": {"startUrls": ["\#(servers[catalog.host].baseURLString)\#(catalog.listing)"]}}}"#
        }
        try Data("""
        {"schemaVersion": 1, "catalogs": [\(entries.joined(separator: ",\n"))],
         "fetch": {"minimumDelayMs": \(Int(Self.delay * 1000)), "maxConcurrentHosts": 4, "maxAttempts": 1, "allowedHosts": ["127.0.0.1"]},
         "outputs": {"directory": "out"}, "guards": {"minimumCourses": 1},
         "announce": {"channels": [{"name": "discord", "discord": {"webhookUrlEnv": "GVINGEST_DISCORD_WEBHOOK"}}]}}
        """.utf8).write(to: root.appendingPathComponent("pipeline.json"))
        let environment = ["GVINGEST_DISCORD_WEBHOOK": webhook.baseURLString + discord]

        // The workers alone on the machine: no other test's binary runs while they are timed.
        await Binary.children.acquire(host: "", alone: true)
        let held = Mutex(true)
        defer { if held.withLock({ $0 }) { Task { await Binary.children.release(host: "", alone: true) } } }

        // Round 1: every catalog's first snapshot.
        let start1 = Date()
        let (statuses1, seconds1) = try await Self.round(root, environment: environment, tag: "round1")
        #expect(statuses1 == Array(repeating: 0, count: Self.workers), "\(Self.logs(root, "round1"))")
        let bound1 = try Self.slowestShardBound(root, servers, since: start1)
        let spacing1 = Self.smallestSpacings(servers, since: start1)
        var ran: [String: Int] = [:]
        for index in 0..<Self.workers {
            for entry in try Self.shardReport(root, index).catalogs {
                #expect(entry.exitStatus == 0, "\(entry.id): \(entry.outcome)")
                ran[entry.id, default: 0] += 1
            }
        }
        #expect(ran == Dictionary(uniqueKeysWithValues: Self.catalogs.map { ($0.id, 1) }), "each catalog in exactly one shard report")
        for catalog in Self.catalogs {
            #expect(servers[catalog.host].requestCount(path: catalog.listing) == 1, "\(catalog.id)'s listing fetched once")
        }
        for (host, spacing) in spacing1.enumerated() where Self.catalogsPerHost[host] > 1 {
            #expect(spacing >= Self.delay, "host \(host): two requests \(spacing) s apart")
        }
        #expect(seconds1 <= 1.2 * bound1, "wall \(seconds1) s against the slowest shard's politeness bound \(bound1) s")
        print("shard simulation round 1: \(Self.catalogs.count) catalogs on \(servers.count) hosts, \(Self.workers) workers; wall "
              + String(format: "%.2f s, slowest shard's bound %.2f s (%.2f×); smallest spacing per host (ms): ", seconds1, bound1, seconds1 / bound1)
              + spacing1.map { $0.isFinite ? String(format: "%.1f", $0 * 1000) : "-" }.joined(separator: ", "))

        // Round 2: a course added to every catalog; the worker of the 8-catalog host is killed while it crawls its
        // third catalog (two have committed and announced), then started again.
        serve(courses: Self.coursesPerCatalog + 1)
        let killedHost = 0
        let victim = try #require((0..<Self.workers).first { try Self.shardReport(root, $0).plan.contains { $0.key == "127.0.0.1:\(servers[killedHost].port)" } })
        let order = try Self.shardReport(root, victim).plan.first { $0.key == "127.0.0.1:\(servers[killedHost].port)" }?.catalogs ?? []
        let third = try #require(Self.catalogs.first { $0.id == order[2] })
        let start2 = Date()
        let killed = Mutex(false)
        let (statuses2, _) = try await Self.round(root, environment: environment, tag: "round2") { processes in
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline, servers[third.host].requestCount(path: third.listing) < 2 { usleep(2_000) }
            kill(processes[victim].processIdentifier, SIGKILL)
            killed.withLock { $0 = true }
        }
        #expect(killed.withLock { $0 })
        #expect(statuses2.enumerated().allSatisfy { $0.offset == victim ? $0.element == 128 + SIGKILL || $0.element == SIGKILL : $0.element == 0 },
                "\(statuses2)")
        var restarts = 0, status: Int32 = -1
        while restarts < 3, status != 0 {
            restarts += 1
            let process = try Self.worker(victim, root: root, environment: environment, log: "restart-\(restarts)")
            status = try await Binary.offThePool { process.waitUntilExit(); return process.terminationStatus }
        }
        #expect(status == 0, "\(Self.logs(root, "restart"))")
        let resumed = try Self.shardReport(root, victim)
        #expect(resumed.resumedFrom != nil)
        #expect(resumed.catalogs.count == Self.catalogs.filter { c in resumed.plan.contains { $0.catalogs.contains(c.id) } }.count)
        // The two catalogs that had finished were not run again; the one killed mid-crawl was.
        for (position, id) in order.prefix(3).enumerated() {
            let catalog = try #require(Self.catalogs.first { $0.id == id })
            #expect(servers[catalog.host].requestCount(path: catalog.listing) == (position == 2 ? 3 : 2), "\(id)")
        }
        let spacing2 = Self.smallestSpacings(servers, since: start2)
        print("shard simulation round 2 (worker \(victim) killed, restarted \(restarts) time(s)): smallest spacing per host (ms): "
              + spacing2.map { $0.isFinite ? String(format: "%.1f", $0 * 1000) : "-" }.joined(separator: ", "))
        for (host, spacing) in spacing2.enumerated() where Self.catalogsPerHost[host] > 1 {
            #expect(spacing >= Self.delay, "round 2, host \(host): two requests \(spacing) s apart, across the kill too")
        }
        // Every added course announced exactly once, the killed worker's too.
        let links = webhook.allRequests.filter { $0.method == "POST" }.flatMap { request in
            ((try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any]).map(AnnounceRunTests.discordLinks) ?? []
        }
        let expected = Self.catalogs.map { "\(servers[$0.host].baseURLString)\($0.prefix)/catalog/course/sim-\(101 + Self.coursesPerCatalog).htm" }
        #expect(links.sorted() == expected.sorted(), "announced: \(links.count), expected \(expected.count)")

        held.withLock { $0 = false }
        await Binary.children.release(host: "", alone: true)
        // index.json: every catalog, each with its courses and a success.
        let index = try await Binary.run(["index"], in: root)
        #expect(index.status == 0, "\(index.stderr)")
        let merged = try JSONFile.decode(CatalogIndex.self, from: Data(contentsOf: root.appendingPathComponent("out/index.json")))
        #expect(merged.catalogs.map(\.id) == Self.catalogs.map(\.id).sorted())
        #expect(merged.catalogs.allSatisfy { $0.courseCount == Self.coursesPerCatalog + 1 && $0.exitStatus == 0 && $0.lastSuccess != nil })
    }

    static func logs(_ root: URL, _ prefix: String) -> String {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).filter { $0.hasPrefix(prefix) }.sorted()
        return names.map { (try? String(contentsOf: root.appendingPathComponent($0), encoding: .utf8)) ?? "" }.joined(separator: "\n")
    }
}
