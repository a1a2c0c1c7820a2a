import Foundation
import LoopbackServer
import Testing
import TestSupport

/// Issue 39's defects and gaps on the doorways added last: announce, mail, the site, backfill, config check. Each
/// test names what it shows; webhooks are the loopback server, mail servers Tests/tools/smtp-hostile.py.
@Suite(.serialized) struct DoorwayTests {
    typealias Project = AnnounceRunTests.Project

    /// A webhook that sends a status line and closes stopped FoundationNetworking's process in the announce stage, after
    /// the commit: the run exited 75, its report stayed the last run's, and the healthy channel beside it got its
    /// messages again on every run. Now webhooks go through libcurl, and a 2xx status line is a delivery.
    @Test func aWebhookClosingAfterItsStatusLineCostsNothingAndNoChannelHearsTwice() async throws {
        let project = try Project(channels: ["discord", "slack"], deadline: 10)
        let first = try await project.gvingest(["run", "--config", "pipeline.json", "--quiet"])
        #expect(first.status == 0, "\(first.stderr)")
        project.server.setFault(.statusLineThenClose(times: .max), for: AnnounceRunTests.discord)
        let reportFile = project.root.appendingPathComponent("out/run-report.json")
        for round in 0..<3 {
            let run = try await project.gvingest(["run", "--config", "pipeline.json", "--replay", "gvsu-next", "--quiet"])
            #expect(run.status == 0, "round \(round): \(run.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: reportFile)) as? [String: Any])
            let stages = (report["stages"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            #expect(stages.contains("announce"), "round \(round): this run's report, announce included: \(stages)")
        }
        let links = project.addedLinks
        #expect(links.count == 3)
        #expect(project.payloads(AnnounceRunTests.slack).flatMap(AnnounceRunTests.slackLinks).sorted() == links)
        #expect(project.server.requestCount(path: AnnounceRunTests.slack) == 1, "the healthy channel heard once")
        #expect(project.server.requestCount(path: AnnounceRunTests.discord + "?wait=true") == 1,
                "a 2xx status line is a delivery, never sent again")
    }

    /// A 200 whose body is cut short was retried (the transport error was read before the status): five identical
    /// POSTs in one announce, more in the next, the items pending for good.
    @Test func aCompleteTwoHundredWithACutBodyIsDeliveredOnce() async throws {
        let project = try Project(channels: ["hook"], deadline: 6)
        project.server[AnnounceRunTests.hook] = Resource(String(repeating: "{\"ok\": true}", count: 200), contentType: "application/json")
        let first = try await project.gvingest(["run", "--config", "pipeline.json", "--quiet"])
        #expect(first.status == 0, "\(first.stderr)")
        project.server.setFault(.truncated(times: .max), for: AnnounceRunTests.hook)
        let second = try await project.gvingest(["run", "--config", "pipeline.json", "--replay", "gvsu-next", "--quiet"])
        #expect(second.status == 0 && !second.stderr.contains("[announce]"), "\(second.stderr)")
        #expect(project.server.requestCount(path: AnnounceRunTests.hook) == 1, "one POST, confirmed by its status")
        let again = try await project.gvingest(["announce", "--config", "pipeline.json"])
        #expect(again.status == 0 && again.stdout.contains("0 pending"), "\(again.stdout)\(again.stderr)")
        #expect(project.server.requestCount(path: AnnounceRunTests.hook) == 1)
    }

    /// A mail server misbehaving as MODE, and a project whose only channel mails to it (plain SMTP on loopback).
    final class HostileMail {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-smtp-hostile-\(UUID().uuidString)")
        let process = Process()
        let input = Pipe()
        var port = 0
        static let script = Binary.packageRoot.appendingPathComponent("Tests/tools/smtp-hostile.py").path

        init(_ mode: String) throws {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            port = try AnnounceRunTests.SMTPPeer.start(process, [Self.script, mode, directory.path], in: directory, input: input)
        }

        deinit {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
            try? FileManager.default.removeItem(at: directory)
        }

        var connections: Int {
            ((try? String(contentsOf: directory.appendingPathComponent("connections"), encoding: .utf8)) ?? "").split(separator: "\n").count
        }

        var received: [URL] {
            ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".eml") }.sorted()
                .map { directory.appendingPathComponent($0) }
        }

        func channel(to: [String] = ["advisors@example.edu"]) -> String {
            #"{"name": "mail", "email": {"smtpUrl": "smtp://127.0.0.1:\#(port)", "starttls": false, "from": "catalog@example.edu", "#
                + #""to": [\#(to.map { "\"\($0)\"" }.joined(separator: ", "))]}}"#
        }
    }

    /// A project mailing to `mail`, its baseline run done: the next run has three new courses to announce.
    static func mailProject(_ mail: HostileMail, deadline: Int, to: [String] = ["advisors@example.edu"]) async throws -> Project {
        let project = try Project(channels: [], deadline: deadline, mail: mail.channel(to: to))
        let first = try await project.gvingest(["run", "--config", "pipeline.json", "--quiet"])
        #expect(first.status == 0, "\(first.stderr)")
        return project
    }

    /// With `announce.deadlineSeconds` 3, a server that withholds its reply to the message's end held announce for
    /// 129 s, and one that never answers QUIT for 120 s: libcurl's own wait for a reply. Now neither outlives the
    /// deadline by more than the run around it.
    @Test(.needs(.aiosmtpd), arguments: ["hold-data", "hold-quit"])
    func mailEndsAtItsDeadline(mode: String) async throws {
        try OptionalTool.aiosmtpd.require()
        let mail = try HostileMail(mode)
        let project = try await Self.mailProject(mail, deadline: 3)
        let run = try await project.gvingest(["run", "--config", "pipeline.json", "--replay", "gvsu-next", "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.seconds < 3 + 8, "\(mode): \(run.seconds) s for a deadline of 3 s")
        if mode == "hold-data" {
            #expect(run.stderr.contains("channel mail: ") && run.stderr.contains("deadline"), "\(run.stderr)")
        }
    }

    /// A permanent refusal (RCPT 550) took a connection per retry until the deadline; now it is one connection, and
    /// the channel reports it failed, the reply named.
    @Test(.needs(.aiosmtpd)) func aPermanentSMTPRefusalIsNotRetried() async throws {
        try OptionalTool.aiosmtpd.require()
        let mail = try HostileMail("rcpt-550")
        let project = try await Self.mailProject(mail, deadline: 8)
        let run = try await project.gvingest(["run", "--config", "pipeline.json", "--replay", "gvsu-next", "--quiet"])
        #expect(run.status == 0 && run.stderr.contains("550"), "\(run.stderr)")
        #expect(mail.connections == 1, "\(mail.connections) connections")
        #expect(run.seconds < 6, "\(run.seconds) s: refused at once, not at the deadline")
    }

    /// 40 recipients gave a 1,083-character To: line and a long catalog name a 1,533-character Subject, past RFC 5322's
    /// 998: servers answer 500 and the digest was never delivered. Now headers are folded.
    @Test(.needs(.aiosmtpd)) func longAddressListsAndSubjectsAreFolded() async throws {
        try OptionalTool.aiosmtpd.require()
        let mail = try HostileMail("strict")
        let recipients = (1...40).map { "advisor-of-the-department-number-\($0)@example.edu" }
        let project = try await Self.mailProject(mail, deadline: 10, to: recipients)
        let config = project.root.appendingPathComponent("pipeline.json")
        let name = String(repeating: "Grand Valley Catalog ", count: 70) + String(repeating: "X", count: 100)
        try Data(try String(contentsOf: config, encoding: .utf8).replacingOccurrences(of: #""name": "GVSU""#, with: "\"name\": \"\(name)\"").utf8)
            .write(to: config)
        let run = try await project.gvingest(["run", "--config", "pipeline.json", "--replay", "gvsu-next", "--quiet"])
        #expect(run.status == 0 && !run.stderr.contains("[announce]"), "\(run.stderr)")
        let message = try #require(mail.received.first)
        let text = try String(contentsOf: message, encoding: .utf8)
        #expect(text.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 998 })
        let parsed = try Binary.runBlocking([Binary.packageRoot.appendingPathComponent("Tests/tools/smtp-peer.py").path, "parse", message.path],
                                            executable: URL(fileURLWithPath: OptionalTool.announcePython))
        let headers = try #require((try JSONSerialization.jsonObject(with: Data(parsed.stdout.utf8)) as? [String: Any])?["headers"] as? [String: String])
        #expect(headers["To"]?.components(separatedBy: ", ") == recipients)
        #expect(headers["Subject"]?.hasPrefix(name.trimmingCharacters(in: .whitespaces)) == true, "\(headers["Subject"] ?? "")")
    }

    /// A crash while announcing (SIGABRT to the child as a webhook holds its message) costs that stage only: the outputs
    /// stand, the run report is this run's and says the announce stage crashed, the run exits as its other stages
    /// ended (0: what was not delivered is pending, as for a channel that is down), and the next announce delivers once.
    @Test func aCrashWhileAnnouncingCostsOnlyThatStage() async throws {
        let project = try Project(channels: ["slack"], deadline: 60)
        let first = try await project.gvingest(["run", "--config", "pipeline.json", "--quiet"])
        #expect(first.status == 0, "\(first.stderr)")
        project.server.setFault(.latency(seconds: 30), for: AnnounceRunTests.slack)
        let process = try project.launch(["run", "--config", "pipeline.json", "--replay", "gvsu-next", "--quiet"])
        let server = project.server
        let crashed = try await Binary.offThePool { () -> Bool in
            let start = Date()
            while server.inFlightRequests == 0, Date().timeIntervalSince(start) < 120 { usleep(20_000) }
            let pids = Project.children(of: process)
            for pid in pids { kill(pid, SIGABRT) }
            process.waitUntilExit()
            return !pids.isEmpty
        }
        #expect(crashed && process.terminationReason == .exit && process.terminationStatus == 0, "\(process.terminationStatus)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: project.root.appendingPathComponent("out/run-report.json"))) as? [String: Any])
        let outcome = report["outcome"] as? String ?? ""
        #expect(outcome.contains("the announce stage crashed (signal 6)") && report["exitStatus"] as? Int == 0, "\(report)")
        #expect((report["stages"] as? [[String: Any]])?.contains { $0["name"] as? String == "commit" } == true)
        let links = project.addedLinks
        #expect(links.count == 3, "the outputs stand")
        server.clearAllFaults()
        let announce = try await project.gvingest(["announce", "--config", "pipeline.json"])
        #expect(announce.status == 0, "\(announce.stderr)")
        #expect(project.payloads(AnnounceRunTests.slack).flatMap(AnnounceRunTests.slackLinks).sorted() == links)
    }

    /// `out` a symbolic link: run, announce, backfill and site refuse (73) and write nothing through it, not even the lock or
    /// the run report; a snapshot folder that is a link is refused by announce as by run, its outbox untouched.
    @Test func nothingIsWrittenThroughALinkedOutOrSnapshotFolder() async throws {
        let project = try Project(channels: ["hook"])
        let root = project.root, manager = FileManager.default
        let elsewhere = root.appendingPathComponent("elsewhere")
        try manager.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try manager.createSymbolicLink(at: root.appendingPathComponent("out"), withDestinationURL: elsewhere)
        for words in [["run", "--config", "pipeline.json", "--quiet"], ["announce", "--config", "pipeline.json"],
                      ["backfill", "--config", "pipeline.json", "2023-2024=gvsu"], ["site", "--config", "pipeline.json", "--out", "web"]] {
            let refused = try await project.gvingest(words)
            #expect(refused.status == 73 && refused.stderr.contains("symbolic link"), "\(words[0]): \(refused.stderr)")
            #expect(try manager.contentsOfDirectory(atPath: elsewhere.path).isEmpty, "\(words[0]) wrote through the link")
        }
        try manager.removeItem(at: root.appendingPathComponent("out"))
        let first = try await project.gvingest(["run", "--config", "pipeline.json", "--quiet"])
        #expect(first.status == 0, "\(first.stderr)")
        let store = root.appendingPathComponent("out/snapshots/gvsu"), history = root.appendingPathComponent("history")
        try manager.moveItem(at: store, to: history)
        try manager.createSymbolicLink(at: store, withDestinationURL: history)
        let outbox = history.appendingPathComponent("outbox.json")
        let before = try manager.attributesOfItem(atPath: outbox.path)[.modificationDate] as? Date
        let announce = try await project.gvingest(["announce", "--config", "pipeline.json"])
        #expect(announce.status == 73 && announce.stderr.contains(store.path), "\(announce.stderr)")
        #expect(try manager.attributesOfItem(atPath: outbox.path)[.modificationDate] as? Date == before)
    }

    /// A pid no process has: one that just ended.
    static func endedPid() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    /// The site never removes what it did not write: a file, a FIFO or the configuration itself in its place is refused
    /// with 73, named, and left as it was; a previous site keeps the files others put in it (a CNAME); its files are
    /// 0644 under umask 000; a killed render's staging folder and a killed command's flight log are cleaned up.
    @Test func theSiteNeverRemovesWhatItDidNotWrite() async throws {
        let project = try Project(channels: ["hook"])
        let root = project.root, manager = FileManager.default
        let first = try await project.gvingest(["run", "--config", "pipeline.json", "--quiet"])
        #expect(first.status == 0, "\(first.stderr)")
        try Data("my notes\n".utf8).write(to: root.appendingPathComponent("notes.txt"))
        #expect(mkfifo(root.appendingPathComponent("fifo").path, 0o644) == 0)
        let configuration = try Data(contentsOf: root.appendingPathComponent("pipeline.json"))
        for name in ["notes.txt", "fifo", "pipeline.json"] {
            let site = try await project.gvingest(["site", "--config", "pipeline.json", "--out", name])
            #expect(site.status == 73 && site.stderr.contains(root.appendingPathComponent(name).path), "\(name): \(site.stderr)")
        }
        #expect(try String(contentsOf: root.appendingPathComponent("notes.txt"), encoding: .utf8) == "my notes\n")
        var info = stat()
        #expect(lstat(root.appendingPathComponent("fifo").path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        #expect(try Data(contentsOf: root.appendingPathComponent("pipeline.json")) == configuration)
        // outputs.site naming the configuration: the run's site stage refuses, the configuration stays.
        try Data(String(decoding: configuration, as: UTF8.self).replacingOccurrences(
            of: #""outputs": {"directory": "out"}"#, with: #""outputs": {"directory": "out", "site": "site.json"}"#).utf8)
            .write(to: root.appendingPathComponent("site.json"))
        let siteConfig = try Data(contentsOf: root.appendingPathComponent("site.json"))
        let run = try await project.gvingest(["run", "--config", "site.json", "--quiet"])
        #expect(run.status == 73 && run.stderr.contains("site.json"), "\(run.stderr)")
        #expect(try Data(contentsOf: root.appendingPathComponent("site.json")) == siteConfig)

        let made = try await project.gvingest(["site", "--config", "pipeline.json", "--out", "web"])
        #expect(made.status == 0, "\(made.stderr)")
        let web = root.appendingPathComponent("web")
        try Data("catalog.example.edu\n".utf8).write(to: web.appendingPathComponent("CNAME"))
        try manager.createDirectory(at: web.appendingPathComponent(".well-known"), withIntermediateDirectories: true)
        try Data("proof".utf8).write(to: web.appendingPathComponent(".well-known/verify.txt"))
        let staging = root.appendingPathComponent(".web.\(try Self.endedPid()).site.tmp")
        try manager.createDirectory(at: staging, withIntermediateDirectories: true)
        let flightLog = manager.temporaryDirectory.appendingPathComponent("gvingest-flight-\(try Self.endedPid()).log")
        try Data("start\thttp://127.0.0.1/\n".utf8).write(to: flightLog)
        let again = try await Binary.run(["-c", "umask 000 && exec \"$0\" site --config pipeline.json --out web", Binary.url.path],
                                         in: root, executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try String(contentsOf: web.appendingPathComponent("CNAME"), encoding: .utf8) == "catalog.example.edu\n")
        #expect(try String(contentsOf: web.appendingPathComponent(".well-known/verify.txt"), encoding: .utf8) == "proof")
        #expect(!manager.fileExists(atPath: staging.path), "a killed render's staging folder is removed")
        let modes = try manager.subpathsOfDirectory(atPath: web.path).filter { !["CNAME", ".well-known", ".well-known/verify.txt"].contains($0) }.map { path in
            (path, (try manager.attributesOfItem(atPath: web.appendingPathComponent(path).path)[.posixPermissions] as? Int) ?? 0)
        }
        #expect(modes.count > 10 && modes.allSatisfy { $0.1 == 0o644 || $0.1 == 0o755 }, "\(modes.filter { $0.1 != 0o644 && $0.1 != 0o755 }.prefix(3))")
        let supervised = try await project.gvingest(["run", "--config", "pipeline.json", "--quiet"])
        #expect(supervised.status == 0, "\(supervised.stderr)")
        #expect(!manager.fileExists(atPath: flightLog.path), "a killed command's flight log is removed")
    }

    /// A webhook URL pasted where the variable's name goes was refused with the URL, token and all, in the message;
    /// `smtpUrl` with `user:password@` passed the check and was used to log in. Both are refused, the secret unshown.
    @Test func configCheckShowsNoSecretAndRefusesCredentialsInTheMailURL() async throws {
        let project = try Project(channels: ["hook"])
        let file = project.root.appendingPathComponent("secrets.json")
        for (channel, secret, shown) in [
            (#"{"name": "d", "discord": {"webhookUrlEnv": "https://discord.com/api/webhooks/42/TOKENSECRET?wait=true"}}"#, "TOKENSECRET", "discord.com"),
            (#"{"name": "m", "email": {"smtpUrl": "smtps://catalog:PASSWORDSECRET@mail.example.edu:465", "from": "a@example.edu", "to": ["b@example.edu"]}}"#,
             "PASSWORDSECRET", "userEnv and passwordEnv"),
        ] {
            try Data("""
            {"schemaVersion": 1, "catalogs": [{"id": "gvsu", "name": "GVSU", "system": "gvsu", "source": {"replay": "gvsu"}}],
             "outputs": {"directory": "out"}, "announce": {"channels": [\(channel)]}}
            """.utf8).write(to: file)
            let check = try await project.gvingest(["config", "check", "secrets.json"])
            #expect(check.status == 65 && check.stderr.contains(shown), "\(check.stderr)")
            #expect(!(check.stdout + check.stderr).contains(secret), "\(check.stderr)")
        }
    }

    /// A `caFile` that is a FIFO with no writer held announce past its deadline; it is refused at once, named. A
    /// webhook URL libcurl cannot use (port 99999) was tried again until the deadline; it is refused at once too.
    @Test func aCAFileThatIsNoRegularFileAndAMalformedURLAreRefusedAtOnce() async throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-ca-\(UUID().uuidString)")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        defer { unlink(fifo.path) }
        let mail = #"{"name": "mail", "email": {"smtpUrl": "smtp://127.0.0.1:9", "starttls": true, "caFile": "\#(fifo.path)", "#
            + #""from": "catalog@example.edu", "to": ["advisors@example.edu"]}}"#
        let project = try Project(channels: ["hook"], deadline: 8, mail: mail)
        project.environment["GVINGEST_HOOK_URL"] = project.server.baseURLString.replacingOccurrences(of: ":\(project.server.port)", with: ":99999")
            + AnnounceRunTests.hook
        let test = try await project.gvingest(["announce", "--config", "pipeline.json", "--test", "mail"])
        #expect(test.status == 69 && test.stderr.contains("\(fifo.path): not a regular file"), "\(test.stderr)")
        #expect(test.seconds < 5, "\(test.seconds) s")
        let hook = try await project.gvingest(["announce", "--config", "pipeline.json", "--test", "hook"])
        #expect(hook.status == 69 && hook.stderr.contains("127.0.0.1") && !hook.stderr.contains("HOOKSECRET"), "\(hook.stderr)")
        #expect(hook.seconds < 5, "\(hook.seconds) s: refused at once, not retried to the deadline")
    }

    /// `backfill --rebuild` set the outbox aside with the history, so what channels still lacked was never announced;
    /// it is carried over, and the backfill's own news is not announced. A rerun naming an edition that never ran
    /// before the last one it did was reported as done and skipped; it is refused, naming that edition.
    @Test func backfillKeepsPendingAnnouncementsAndRefusesAnotherEditionList() async throws {
        let project = try Project(channels: ["hook"], deadline: 3)
        let first = try await project.gvingest(["run", "--config", "pipeline.json", "--quiet"])
        #expect(first.status == 0, "\(first.stderr)")
        project.server.setFault(.status(500, times: .max), for: AnnounceRunTests.hook)
        let second = try await project.gvingest(["run", "--config", "pipeline.json", "--replay", "gvsu-next", "--quiet"])
        #expect(second.status == 0 && second.stderr.contains("3 news item(s) stay pending"), "\(second.stderr)")
        let links = project.addedLinks
        let rebuild = try await project.gvingest(["backfill", "--config", "pipeline.json", "--rebuild", "2023-2024=gvsu", "2024-2025=gvsu-next"])
        #expect(rebuild.status == 0, "\(rebuild.stderr)")
        project.server.clearAllFaults()
        let announce = try await project.gvingest(["announce", "--config", "pipeline.json"])
        #expect(announce.status == 0 && announce.stdout.contains("3 news item(s) delivered"), "\(announce.stdout)\(announce.stderr)")
        #expect(project.payloads(AnnounceRunTests.hook).flatMap(AnnounceRunTests.hookLinks).sorted() == links)

        let other = try await project.gvingest(["backfill", "--config", "pipeline.json", "2022-2023=gvsu", "2023-2024=gvsu", "2024-2025=gvsu-next"])
        #expect(other.status == 65 && other.stderr.contains("2022-2023") && other.stderr.contains("never ran"), "\(other.stderr)")
        let same = try await project.gvingest(["backfill", "--config", "pipeline.json", "2023-2024=gvsu", "2024-2025=gvsu-next"])
        #expect(same.status == 0 && same.stderr.contains("0 edition(s) run (2 done before"), "\(same.stderr)")
    }

    /// Crashing pages past the old budget of 8 restarts: a catalog with eight pages whose connections end after the status
    /// line never published. Each page is now struck twice and then failed, so the run publishes the rest (failed
    /// pages allowed) and lists them.
    @Test func crashingPagesPastTheOldRestartBudgetBecomeFailedPages() async throws {
        let site = try ContainedCrashTests.Site()
        let pages = try RunCommandTests.version1(site.server).keys.filter { $0.hasPrefix("/catalog/course/cis-") }.sorted().prefix(8)
        #expect(pages.count == 8)
        let config = try String(contentsOf: site.config, encoding: .utf8)
        try Data(config.replacingOccurrences(of: #""minimumCourses": 10"#, with: #""minimumCourses": 5"#).utf8).write(to: site.config)
        for page in pages { site.server.setFault(.statusLineThenClose(times: .max), for: page) }
        let outcome = try await Binary.run(["run", "--config", site.config.path, "--quiet"])
        #expect(outcome.status == 0, "\(outcome.stderr.suffix(2_000))")
        let failed = try #require(try site.report()["failedPages"] as? [[String: Any]])
        #expect(Set(failed.compactMap { ($0["url"] as? String).flatMap(URL.init(string:))?.path }) == Set(pages), "\(failed)")
    }

    /// `config check` looked each channel's name up in the list before it: 200,000 channels took minutes. With a set it
    /// is linear: ten times the channels take about ten times as long, never the hundred times a search of the list
    /// gave (figures in docs/BENCHMARKS.md; the ratio, not a time, so a loaded machine does not decide it).
    @Test func configCheckIsLinearInTheChannels() async throws {
        let project = try Project(channels: ["hook"])
        func check(_ count: Int) async throws -> Double {
            let channels = (0..<count).map { #"{"name": "hook-\#($0)", "webhook": {"urlEnv": "GVINGEST_HOOK_URL"}}"# }
            try Data("""
            {"schemaVersion": 1, "catalogs": [{"id": "gvsu", "name": "GVSU", "system": "gvsu", "source": {"replay": "gvsu"}}],
             "outputs": {"directory": "out"}, "announce": {"channels": [\(channels.joined(separator: ",\n"))]}}
            """.utf8).write(to: project.root.appendingPathComponent("many.json"))
            let outcome = try await project.gvingest(["config", "check", "many.json"])
            #expect(outcome.status == 0, "\(outcome.stderr.prefix(500))")
            // The channels are summed up, not listed: one short line, whatever their number.
            #expect(outcome.stdout.contains("hook-9 (webhook) and \(count - 10) more") && outcome.stdout.utf8.count < 1_000,
                    "\(outcome.stdout.prefix(500))")
            return outcome.seconds
        }
        let small = try await check(20_000), large = try await check(200_000)
        #expect(large < small * 30, "20,000 channels \(small) s, 200,000 \(large) s")
    }
}
