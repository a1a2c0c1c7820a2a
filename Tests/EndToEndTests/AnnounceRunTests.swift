import Foundation
import LoopbackServer
import Testing
import TestSupport

/// `gvingest run` and `gvingest announce` delivering news to loopback webhooks (Discord, Slack, a generic one) that
/// check every payload against the services' limits and misbehave on demand, and to a real SMTP server (aiosmtpd,
/// STARTTLS on a certificate made here, AUTH) whose messages Python's email package reads back.
@Suite(.serialized) struct AnnounceRunTests {
    /// The webhooks' paths: what a real webhook URL keeps secret sits in its path, and must never be shown.
    static let discord = "/api/webhooks/42/DISCORDSECRET", slack = "/services/T0/B0/SLACKSECRET", hook = "/hooks/HOOKSECRET"

    /// A scratch project: pipeline.json with an announce section pointing at a loopback server, removed at the end.
    final class Project {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-announce-\(UUID().uuidString)")
        let server: LoopbackHTTPServer
        var environment: [String: String]

        init(channels: [String] = ["discord", "slack", "hook"], deadline: Int = 20, source: String = #"{"replay": "gvsu"}"#,
             mail: String? = nil) throws {
            server = try LoopbackHTTPServer()
            server[AnnounceRunTests.discord + "?wait=true"] = Resource(#"{"id": "1"}"#, contentType: "application/json")
            server[AnnounceRunTests.slack] = Resource("ok", contentType: "text/plain")
            server[AnnounceRunTests.hook] = Resource("{}", contentType: "application/json")
            server.start()
            environment = ["GVINGEST_DISCORD_WEBHOOK": server.baseURLString + AnnounceRunTests.discord,
                           "GVINGEST_SLACK_WEBHOOK": server.baseURLString + AnnounceRunTests.slack,
                           "GVINGEST_HOOK_URL": server.baseURLString + AnnounceRunTests.hook, "GVINGEST_HOOK_TOKEN": "TOKENSECRET"]
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            for edition in ["gvsu", "gvsu-next"] {
                try FileManager.default.createSymbolicLink(at: root.appendingPathComponent(edition),
                                                           withDestinationURL: Binary.fixtures.appendingPathComponent(edition))
            }
            let all = ["discord": #"{"name": "discord", "discord": {"webhookUrlEnv": "GVINGEST_DISCORD_WEBHOOK"}}"#,
                       "slack": #"{"name": "slack", "slack": {"webhookUrlEnv": "GVINGEST_SLACK_WEBHOOK"}}"#,
                       "hook": #"{"name": "hook", "webhook": {"urlEnv": "GVINGEST_HOOK_URL", "tokenEnv": "GVINGEST_HOOK_TOKEN"}}"#]
            let list = channels.compactMap { all[$0] } + [mail].compactMap { $0 }
            try Data("""
            {"schemaVersion": 1,
             "catalogs": [{"id": "gvsu", "name": "GVSU", "system": "gvsu", "source": \(source)}],
             "outputs": {"directory": "out"}, "news": {"featured": {"subjects": ["CIS"]}},
             "announce": {"deadlineSeconds": \(deadline), "channels": [\(list.joined(separator: ",\n"))]}}
            """.utf8).write(to: root.appendingPathComponent("pipeline.json"))
        }

        deinit {
            server.stop()
            try? FileManager.default.removeItem(at: root)
        }

        /// Starts the binary without waiting for it (its standard error let go).
        func launch(_ arguments: [String]) throws -> Process {
            let process = Process()
            process.executableURL = Binary.url
            process.arguments = arguments
            process.currentDirectoryURL = root
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }

        /// The child processes of `process` (a supervisor spawns its child from whichever of its threads runs it).
        static func children(of process: Process) -> [Int32] {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.processIdentifier)/task")) ?? []
            return tasks.flatMap { task in
                ((try? String(contentsOfFile: "/proc/\(process.processIdentifier)/task/\(task)/children", encoding: .utf8)) ?? "")
                    .split(separator: " ").compactMap { Int32($0) }
            }
        }

        func gvingest(_ arguments: [String]) async throws -> Binary.Outcome {
            try await Binary.run(arguments, in: root, environment: environment)
        }

        /// The payloads a webhook received, in order; a retry (the same bytes again) counts once.
        func payloads(_ path: String) -> [[String: Any]] {
            var seen = Set<[UInt8]>()
            return server.allRequests.filter { $0.path.hasPrefix(path) && $0.method == "POST" && seen.insert($0.body).inserted }.compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.body)) as? [String: Any]
            }
        }

        var news: [[String: Any]] {
            let file = (try? JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent("out/news.json")))) as? [String: Any]
            return file?["news"] as? [[String: Any]] ?? []
        }

        var addedLinks: [String] { news.filter { $0["kind"] as? String == "added" }.compactMap { $0["link"] as? String }.sorted() }
    }

    /// The course links of each Discord payload, after checking it against Discord's limits.
    static func discordLinks(_ payload: [String: Any]) -> [String] {
        let embeds = payload["embeds"] as? [[String: String]] ?? []
        #expect((1...10).contains(embeds.count))
        #expect(embeds.allSatisfy { ($0["title"] ?? "").utf16.count <= 256 && ($0["description"] ?? "").utf16.count <= 4_096 })
        #expect(embeds.map { ($0["title"] ?? "").utf16.count + ($0["description"] ?? "").utf16.count }.reduce(0, +) <= 6_000)
        #expect((payload["allowed_mentions"] as? [String: [String]]) == ["parse": []])
        #expect((payload["content"] as? String ?? "").utf16.count <= 2_000)
        return embeds.flatMap { links(in: $0["description"] ?? "", #"\]\((https?://[^)\s]+)\)\*\*"#) }
    }

    /// The course links of each Slack payload, after checking it against Slack's limits.
    static func slackLinks(_ payload: [String: Any]) -> [String] {
        let texts = (payload["blocks"] as? [[String: Any]] ?? []).compactMap { ($0["text"] as? [String: String])?["text"] }
        #expect((2...50).contains(texts.count) && texts.allSatisfy { $0.utf16.count <= 3_000 } && texts[0].utf16.count <= 150)
        #expect(payload["text"] is String)
        return texts.flatMap { links(in: $0, #"<(https?://[^|>]+)\|"#) }.map { $0.replacingOccurrences(of: "&amp;", with: "&") }
    }

    static func links(in text: String, _ pattern: String) -> [String] {
        let expression = try? NSRegularExpression(pattern: pattern)
        return (expression?.matches(in: text, range: NSRange(text.startIndex..., in: text)) ?? []).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    static func hookLinks(_ payload: [String: Any]) -> [String] {
        (payload["news"] as? [[String: Any]] ?? []).compactMap { $0["link"] as? String }
    }

    @Test func aChannelDownForARunGetsItsNewsFromTheNextAnnounceAndRateLimitsAreObeyed() async throws {
        let project = try Project(deadline: 4)
        let check = try await project.gvingest(["config", "check", "pipeline.json"])
        #expect(check.status == 0 && check.stdout.contains("announces to discord (discord), slack (slack), hook (webhook)"), "\(check.stdout)")
        let first = try await project.gvingest(["run", "--config", "pipeline.json", "--quiet"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(project.server.totalRequests == 0, "the baseline announces nothing")

        // Discord says to wait (its JSON), Slack too (Retry-After) and answers slowly; the generic webhook is down.
        project.server.setFault(.reply(status: 429, json: #"{"message": "rate limited", "retry_after": 0.4, "global": false}"#, times: 1),
                                for: Self.discord)
        project.server.setFaults([.tooManyRequests(retryAfter: "1", times: 1), .latency(seconds: 0.5)], for: Self.slack)
        project.server.setFault(.status(500, times: .max), for: Self.hook)
        let second = try await project.gvingest(["run", "--config", "pipeline.json", "--replay", "gvsu-next", "--quiet"])
        #expect(second.status == 0, "a delivery failure changes nothing of the run: \(second.stderr)")
        #expect(second.stderr.contains("channel hook: HTTP 500 from 127.0.0.1"), "\(second.stderr)")
        let links = project.addedLinks
        #expect(links.count == 3)
        #expect(project.server.requestCount(path: Self.discord + "?wait=true") == 2)
        #expect(project.payloads(Self.discord).flatMap(Self.discordLinks).sorted() == links)
        #expect(project.payloads(Self.slack).flatMap(Self.slackLinks).sorted() == links)
        let slackTimes = project.server.requests(path: Self.slack).map(\.time)
        #expect(slackTimes.count == 2 && slackTimes[1].timeIntervalSince(slackTimes[0]) >= 1, "Retry-After: 1 was obeyed")
        let report = try String(contentsOf: project.root.appendingPathComponent("out/run-report.json"), encoding: .utf8)
        let pending = try #require((try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any])?["pendingDeliveries"] as? [[String: Any]])
        #expect(pending.map { $0["channel"] as? String } == ["hook"] && (pending[0]["pending"] as? [String])?.count == 3)
        for text in [second.stderr, report] {
            #expect(!["DISCORDSECRET", "SLACKSECRET", "HOOKSECRET", "TOKENSECRET"].contains { text.contains($0) })
        }

        // Still down: announce says so with 75, and shows what it would send.
        let still = try await project.gvingest(["announce", "--config", "pipeline.json", "--json"])
        #expect(still.status == 75, "\(still.stderr)")
        let dry = try await project.gvingest(["announce", "--config", "pipeline.json", "--dry-run"])
        #expect(dry.status == 0 && dry.stdout.contains("--- channel hook: 3 news item(s) ---") && !dry.stdout.contains("channel discord"), "\(dry.stdout)")
        project.server.clearAllFaults()
        let back = try await project.gvingest(["announce", "--config", "pipeline.json"])
        #expect(back.status == 0, "\(back.stderr)")
        #expect(back.stdout.contains("channel hook: 3 news item(s) delivered in 1 message(s), 0 pending"), "\(back.stdout)")
        #expect(project.payloads(Self.hook).flatMap(Self.hookLinks).sorted() == links, "delivered once, after the failed tries")
        #expect(project.server.requests(path: Self.hook).last?.headers["authorization"] == "Bearer TOKENSECRET")
        #expect(project.server.requestCount(path: Self.discord + "?wait=true") == 2 && project.server.requestCount(path: Self.slack) == 2,
                "nothing repeated")
        let hookRequests = project.server.requestCount(path: Self.hook)
        let again = try await project.gvingest(["announce", "--config", "pipeline.json"])
        #expect(again.status == 0 && project.server.requestCount(path: Self.hook) == hookRequests)
        let test = try await project.gvingest(["announce", "--config", "pipeline.json", "--test", "slack"])
        #expect(test.status == 0 && project.server.requestCount(path: Self.slack) == 3, "\(test.stderr)")
        let testMessage = String(decoding: project.server.requests(path: Self.slack).last?.body ?? [], as: UTF8.self)
        #expect(testMessage.contains("Test message from gvingest"))
        let typo = try await project.gvingest(["announce", "--config", "pipeline.json", "--test", "slak"])
        #expect(typo.status == 64 && typo.stderr.contains("did you mean 'slack'?"))
    }

    /// 250 new courses (one with a hostile title) split over several messages; the run is killed while Discord holds a
    /// message unanswered; the rerun delivers the rest: nothing lost, and what repeats is that one message.
    @Test func sigkillMidDeliveryLosesNothingAndRepeatsAtMostOneMessage() async throws {
        let project = try Project(channels: ["discord", "slack"], deadline: 120, source: #"{"directory": "pages"}"#)
        let pages = project.root.appendingPathComponent("pages")
        try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: Binary.fixtures.appendingPathComponent("gvsu/course").path) where name.hasSuffix(".html") {
            try FileManager.default.createSymbolicLink(at: pages.appendingPathComponent(name),
                                                       withDestinationURL: Binary.fixtures.appendingPathComponent("gvsu/course/\(name)"))
        }
        let first = try await project.gvingest(["run", "--config", "pipeline.json", "--quiet"])
        #expect(first.status == 0 && project.server.totalRequests == 0, "\(first.stderr)")
        for index in 0..<250 {
            let subject = ["ART", "BIO", "CHM", "ECO", "HST", "PHY"][index % 6], number = 800 + index / 6
            let title = index == 0 ? "@everyone &lt;!channel&gt; **Hacked** [x](http://evil.example)" : "Topics in Study \(index)"
            try Data("""
            <!DOCTYPE html><html><head><meta charset="utf-8"><link rel="canonical" href="https://www.gvsu.edu/catalog/course/\(subject.lowercased())-\(number).htm"></head>
            <body><div id="content"><p>2024-2025 Undergraduate &amp; Graduate Catalog</p><h1>\(subject) \(number) - \(title)</h1>
            <p>\(String(repeating: "Students study the topic of this course in depth, with readings and projects. ", count: 4)) Offered fall semester.</p>
            <p><strong>Credits:</strong> 3</p></div></body></html>
            """.utf8).write(to: pages.appendingPathComponent("new-\(index).html"))
        }

        let process = try project.launch(["run", "--config", "pipeline.json", "--quiet"])
        // After two messages, Discord stops answering; once it holds one, the run (parent and child) is killed.
        let server = project.server
        let held = try await Binary.offThePool { () -> Bool in
            let start = Date()
            while server.requestCount(path: AnnounceRunTests.discord + "?wait=true") < 2, Date().timeIntervalSince(start) < 120 { usleep(20_000) }
            server.setFault(.latency(seconds: 300), for: AnnounceRunTests.discord)
            let before = server.requestCount(path: AnnounceRunTests.discord + "?wait=true")
            while !(server.requestCount(path: AnnounceRunTests.discord + "?wait=true") > before && server.inFlightRequests > 0),
                  Date().timeIntervalSince(start) < 120 { usleep(20_000) }
            for pid in Project.children(of: process) { kill(pid, SIGKILL) }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return server.inFlightRequests > 0
        }
        #expect(held && process.terminationReason == .uncaughtSignal)
        let outbox = try String(contentsOf: project.root.appendingPathComponent("out/snapshots/gvsu/outbox.json"), encoding: .utf8)
        #expect(outbox.contains("\"discord\""), "the killed delivery is still pending")
        server.clearAllFaults()
        var rerun = try await project.gvingest(["announce", "--config", "pipeline.json"])
        if rerun.status == 75, rerun.stderr.contains("lock") {  // the killed child's lock, released as it ends
            try await Task.sleep(nanoseconds: 1_000_000_000)
            rerun = try await project.gvingest(["announce", "--config", "pipeline.json"])
        }
        #expect(rerun.status == 0, "\(rerun.stdout)\(rerun.stderr)")

        let links = project.addedLinks
        #expect(links.count == 250)
        for (path, read) in [(Self.discord, Self.discordLinks), (Self.slack, Self.slackLinks)] {
            let messages = project.payloads(path).map(read)
            #expect(messages.count > 2, "250 courses are several messages")
            #expect(Set(messages.flatMap { $0 }) == Set(links), "\(path): nothing lost")
            var seen: [String: Int] = [:]
            for link in messages.flatMap({ $0 }) { seen[link, default: 0] += 1 }
            let repeated = Set(seen.filter { $0.value > 1 }.keys)
            #expect(seen.values.allSatisfy { $0 <= 2 } && (repeated.isEmpty || messages.contains { repeated.isSubset(of: Set($0)) }),
                    "\(path): at most the one message in flight is repeated")
        }
        let hostile = project.payloads(Self.discord).map { String(decoding: try! JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
            .first { $0.contains("Hacked") } ?? ""
        #expect(hostile.contains(#"\\*\\*Hacked\\*\\*"#), "markup stays text")
        let slack = project.server.allRequests.filter { $0.path == Self.slack }.map { String(decoding: $0.body, as: UTF8.self) }.joined()
        #expect(!slack.contains("<!channel>") && slack.contains("&lt;!channel&gt;"))
    }

    /// The UH pages, 41 then 44, to every kind of channel: each new course once per channel, and one digest by mail.
    @Test(.needs(.aiosmtpd)) func uhEditionsAnnounceEachNewCourseOncePerChannelAndOneDigestByMail() async throws {
        try OptionalTool.aiosmtpd.require()
        let mail = try SMTPPeer()
        let channel = #"{"name": "mail", "email": {"smtpUrl": "smtp://127.0.0.1:\#(mail.port)", "starttls": true, "caFile": "\#(mail.certificate)", "#
            + #""userEnv": "GVINGEST_SMTP_USER", "passwordEnv": "GVINGEST_SMTP_PASSWORD", "from": "catalog@example.edu", "#
            + #""to": ["advisors@example.edu", "dean@example.edu"]}}"#
        let project = try Project(channels: ["discord", "slack", "hook"], deadline: 120, mail: channel)
        project.environment["GVINGEST_SMTP_USER"] = "gvingest"
        project.environment["GVINGEST_SMTP_PASSWORD"] = "MAILSECRET"
        let uh = Binary.realworld.appendingPathComponent("acalog-uh")
        func run(_ edition: String) async throws -> Binary.Outcome {
            try await project.gvingest(["run", "--source", uh.appendingPathComponent(edition).path, "--system", "acalog", "--catalog", "uh",
                                        "--out", project.root.appendingPathComponent("out").path, "--config", "pipeline.json", "--quiet"])
        }
        let first = try await run("41")
        #expect(first.status == 0 && project.server.totalRequests == 0 && mail.received.isEmpty, "\(first.stderr)")
        let second = try await run("44")
        #expect(second.status == 0 && !second.stderr.contains("[announce]"), "\(second.stderr)")
        let links = project.addedLinks
        #expect(links.count > 10)
        #expect(project.payloads(Self.discord).flatMap(Self.discordLinks).sorted() == links)
        #expect(project.payloads(Self.slack).flatMap(Self.slackLinks).sorted() == links)
        #expect(project.payloads(Self.hook).flatMap(Self.hookLinks).sorted() == links)
        let received = mail.received
        #expect(received.count == 1)
        let message = try mail.parse(try #require(received.first))
        let headers = try #require(message["headers"] as? [String: String])
        #expect(headers["Subject"] == "uh: \(links.count) new courses" && headers["To"] == "advisors@example.edu, dean@example.edu")
        #expect(headers["Date"] != nil && headers["Message-ID"]?.hasSuffix("@example.edu>") == true)
        #expect(message["contentType"] as? String == "multipart/alternative" && (message["defects"] as? [Any])?.isEmpty == true)
        let parts = try #require(message["parts"] as? [[String: String]])
        #expect(parts.map { $0["type"] } == ["text/plain", "text/html"])
        // Every new course listed, under 90 KB of HTML: in full with its link while the digest is small, then by code and
        // title (issue 38).
        let html = parts[1]["text"] ?? ""
        #expect(html.utf8.count < 90_000 && html.components(separatedBy: "<li>").count - 1 == links.count, "\(html.utf8.count) bytes")
        let linked = links.filter { parts[0]["text"]?.contains($0) == true }.count
        #expect(linked > 10 && (linked == links.count || html.contains("The news feed has every one in full.")))
        let note = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: received[0].deletingPathExtension().appendingPathExtension("json"))) as? [String: Any])
        #expect(note["tls"] as? Bool == true && note["authenticated"] as? Bool == true && note["user"] as? String == "gvingest")
        #expect(!second.stderr.contains("MAILSECRET"))
        if let samples = ProcessInfo.processInfo.environment["GVINGEST_ANNOUNCE_SAMPLES"] {
            for (name, path) in [("discord.json", Self.discord), ("slack.json", Self.slack)] {
                try Data(try #require(project.server.allRequests.first { $0.path.hasPrefix(path) }).body).write(to: URL(fileURLWithPath: samples).appendingPathComponent(name))
            }
            try FileManager.default.copyItem(at: received[0], to: URL(fileURLWithPath: samples).appendingPathComponent("mail.eml"))
        }
        let requests = project.server.totalRequests
        let again = try await project.gvingest(["announce", "--config", "pipeline.json", "--catalog", "uh"])
        #expect(project.server.totalRequests == requests && mail.received.count == 1, "\(again.stderr)")
    }

    /// aiosmtpd on a free port of 127.0.0.1 with STARTTLS on a certificate made here, and AUTH; stopped with the object.
    final class SMTPPeer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-smtp-\(UUID().uuidString)")
        let process = Process()
        let input = Pipe()
        var port = 0
        var certificate: String { directory.appendingPathComponent("cert.pem").path }
        static let script = Binary.packageRoot.appendingPathComponent("Tests/tools/smtp-peer.py").path

        init() throws {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("mail"), withIntermediateDirectories: true)
            let openssl = try Binary.runBlocking(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "key.pem", "-out", "cert.pem",
                                                  "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                                                 in: directory, executable: URL(fileURLWithPath: "/usr/bin/openssl"))
            guard openssl.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: ["openssl": openssl.stderr]) }
            port = try Self.start(process, [Self.script, "serve", "cert.pem", "key.pem", "gvingest", "MAILSECRET", "mail"], in: directory, input: input)
        }

        /// Starts a Python peer (the venv's Python) that prints its port, then serves until `input` closes.
        static func start(_ process: Process, _ arguments: [String], in directory: URL, input: Pipe) throws -> Int {
            process.executableURL = URL(fileURLWithPath: OptionalTool.announcePython)
            process.arguments = arguments
            process.currentDirectoryURL = directory
            let output = Pipe()
            (process.standardInput, process.standardOutput, process.standardError) = (input, output, FileHandle.nullDevice)
            try process.run()
            var line = Data()
            while !line.contains(0x0A), let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty { line += byte }
            let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            guard port > 0 else { throw CocoaError(.executableLoad, userInfo: [arguments[0]: "did not print its port"]) }
            return port
        }

        deinit {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
            try? FileManager.default.removeItem(at: directory)
        }

        var received: [URL] {
            ((try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("mail").path)) ?? [])
                .filter { $0.hasSuffix(".eml") }.sorted().map { directory.appendingPathComponent("mail/\($0)") }
        }

        /// The message as Python's email package reads it.
        func parse(_ file: URL) throws -> [String: Any] {
            let outcome = try Binary.runBlocking([Self.script, "parse", file.path], executable: URL(fileURLWithPath: OptionalTool.announcePython))
            return try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        }
    }
}
