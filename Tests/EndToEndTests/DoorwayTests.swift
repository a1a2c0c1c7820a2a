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
}
