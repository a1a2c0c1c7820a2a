@testable import CatalogKit
import Foundation
import Testing

/// The announce section, the messages of each kind of channel (pure functions, checked against each service's limits)
/// and the outbox's queue.
struct AnnounceTests {
    static func item(_ index: Int, title: String? = nil, featured: Bool = false, kind: DiffKind = .added) -> Announcement {
        let subject = ["ART", "BIO", "CIS", "MTH"][index % 4]
        let item = NewsItem(id: "uh:\(kind.rawValue):\(subject.lowercased())-\(100 + index):20250101T000000Z",
                            title: "New course: \(subject) \(100 + index)", description: String(repeating: "Long sentence \(index). ", count: 30),
                            content: "", featured: featured, createdAt: "2025-02-01T00:00:00Z", kind: kind,
                            courseId: "\(subject.lowercased())-\(100 + index)", link: "https://catalog.example.edu/preview?catoid=44&coid=\(index)")
        var announcement = Announcement(item, course: nil)
        (announcement.code, announcement.title, announcement.credits, announcement.level) = ("\(subject) \(100 + index)", title ?? "Topics \(index)", "3", "Undergraduate")
        return announcement
    }

    static let hostile = "@everyone <!channel> **bold** [x](http://evil) & \r\nBcc: victim@example.com"

    static func json(_ message: ChannelMessage) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: message.body) as? [String: Any])
    }

    /// Every id in exactly one message.
    static func eachOnce(_ messages: [ChannelMessage], _ announcements: [Announcement]) {
        let ids = messages.flatMap(\.ids)
        #expect(ids.count == Set(ids).count)
        #expect(Set(ids) == Set(announcements.map(\.item.id)))
    }

    /// The same outbox is the same bytes, whatever order its set of ids hashes into, and it reads back the same.
    @Test func anOutboxIsWrittenTheSameWay() throws {
        var outbox = Outbox(queued: Set((0..<50).map { "uh:added:x-\($0)" }))
        outbox.pending["discord"] = [Self.item(1)]
        let bytes = JSONFile.fileBytes(outbox)
        let text = String(decoding: bytes, as: UTF8.self)
        let ids = (0..<50).map { "uh:added:x-\($0)" }.sorted()
        #expect(text.contains(ids.map { "\"\($0)\"" }.joined(separator: ",\n    ")), "\(text)")
        #expect(try JSONFile.decode(Outbox.self, from: bytes) == outbox)
    }

    @Test func discordMessagesStayWithinItsLimitsAndSplit250NewCourses() throws {
        let announcements = (0..<250).map { Self.item($0, featured: $0 % 50 == 0) }
        let messages = ChannelMessages.discord(announcements, catalog: "UH")
        #expect(messages.count > 1)
        Self.eachOnce(messages, announcements)
        for message in messages {
            let payload = try Self.json(message)
            let embeds = try #require(payload["embeds"] as? [[String: String]])
            #expect((1...10).contains(embeds.count))
            #expect(embeds.allSatisfy { ($0["title"] ?? "").utf16.count <= 256 && ($0["description"] ?? "").utf16.count <= 4_096 })
            #expect(embeds.map { ($0["title"] ?? "").utf16.count + ($0["description"] ?? "").utf16.count }.reduce(0, +) <= 6_000)
            #expect((payload["allowed_mentions"] as? [String: [String]]) == ["parse": []])
        }
        // Featured courses come first.
        let first = try #require(try Self.json(messages[0])["embeds"] as? [[String: String]])
        #expect(first[0]["title"]?.hasPrefix("★ ") == true)
    }

    @Test func slackMessagesStayWithinItsLimitsAndSplit250NewCourses() throws {
        let announcements = (0..<250).map { Self.item($0) }
        let messages = ChannelMessages.slack(announcements, catalog: "UH")
        #expect(messages.count > 1)
        Self.eachOnce(messages, announcements)
        for message in messages {
            let blocks = try #require(try Self.json(message)["blocks"] as? [[String: Any]])
            let texts = blocks.compactMap { ($0["text"] as? [String: String])?["text"] }
            #expect(blocks.count <= 50 && texts.count == blocks.count)
            #expect(texts.allSatisfy { $0.utf16.count <= 3_000 } && texts[0].utf16.count <= 150)
            #expect(texts.map(\.utf16.count).reduce(0, +) <= 12_000)
        }
    }

    @Test func hostileTitlesPingNobodyAndStayText() throws {
        let announcements = [Self.item(1, title: Self.hostile)]
        let discord = try #require(try Self.json(ChannelMessages.discord(announcements, catalog: "UH")[0])["embeds"] as? [[String: String]])
        let text = try #require(discord[0]["description"])
        #expect(text.contains(#"\*\*bold\*\* \[x\](http://evil)"#))
        let slack = String(decoding: ChannelMessages.slack(announcements, catalog: "UH")[0].body, as: UTF8.self)
        #expect(!slack.contains("<!channel>") && slack.contains("&lt;!channel&gt;") && slack.contains("&amp; "))
        let mail = String(decoding: ChannelMessages.email(announcements, catalog: "UH\r\nBcc: x@y.z", from: "c@example.edu", to: ["a@example.edu"],
                                                          date: Date(timeIntervalSince1970: 0)).body, as: UTF8.self)
        let headers = mail.components(separatedBy: "\r\n\r\n")[0]
        #expect(!headers.components(separatedBy: "\r\n").contains { $0.hasPrefix("Bcc") } && !headers.contains("victim"))
    }

    @Test func theEmailIsADigestWithAnEncodedSubjectAStableMessageIDAndEscapedHTML() throws {
        let announcements = [Self.item(1, title: "<script>alert(1)</script>"), Self.item(2), Self.item(3, kind: .removed)]
        let date = Date(timeIntervalSince1970: 1_736_143_200)
        let message = ChannelMessages.email(announcements, catalog: "Université", from: "catalog@example.edu",
                                            to: ["a@example.edu", "b@example.edu"], date: date)
        let text = String(decoding: message.body, as: UTF8.self)
        let headers = text.components(separatedBy: "\r\n\r\n")[0].components(separatedBy: "\r\n")
        #expect(headers.contains("Date: Mon, 06 Jan 2025 06:00:00 +0000"))
        #expect(headers.contains("To: a@example.edu, b@example.edu"))
        #expect(headers.contains { $0.hasPrefix("Subject: =?UTF-8?B?") })
        let unfolded = text.components(separatedBy: "\r\n\r\n")[0].replacingOccurrences(of: "\r\n ", with: " ").components(separatedBy: "\r\n")
        let words = try #require(unfolded.first { $0.hasPrefix("Subject: ") }?.dropFirst(9).split(separator: " "))
        #expect(words.count == 2 && words.allSatisfy { $0.count <= 75 })
        let subject = words.compactMap { Data(base64Encoded: String($0.dropFirst(10).dropLast(2))) }.map { String(decoding: $0, as: UTF8.self) }.joined()
        #expect(subject == "Université: 2 new courses and 1 other catalog change")
        #expect(headers.contains { $0.hasPrefix("Content-Type: multipart/alternative; boundary=") })
        let again = ChannelMessages.email(announcements.reversed(), catalog: "Université", from: "catalog@example.edu", to: ["a@example.edu"], date: date)
        let id = { (body: Data) in String(decoding: body, as: UTF8.self).components(separatedBy: "\r\n").first { $0.hasPrefix("Message-ID:") } }
        #expect(id(message.body) == id(again.body) && id(message.body)?.hasSuffix("@example.edu>") == true)
        #expect(id(message.body) != id(ChannelMessages.email([Self.item(4)], catalog: "U", from: "c@example.edu", to: ["a@example.edu"], date: date).body))
        let html = try #require(text.components(separatedBy: "Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n").last?
            .components(separatedBy: "\r\n--").first)
        let decoded = String(decoding: try #require(Data(base64Encoded: html, options: .ignoreUnknownCharacters)), as: UTF8.self)
        #expect(decoded.contains("&lt;script&gt;") && !decoded.contains("<script>"))
        #expect(text.split(separator: "\r\n", omittingEmptySubsequences: false).allSatisfy { $0.utf8.count <= 998 })
    }

    /// A part of a digest, decoded: "text/plain" or "text/html".
    static func part(_ message: ChannelMessage, _ type: String) throws -> String {
        let text = String(decoding: message.body, as: UTF8.self)
        let encoded = try #require(text.components(separatedBy: "Content-Type: \(type); charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n").last?
            .components(separatedBy: "\r\n--").first)
        return String(decoding: try #require(Data(base64Encoded: encoded, options: .ignoreUnknownCharacters)), as: UTF8.self)
    }

    /// Issue 38: 526 new courses made 162 KB of HTML, which Gmail clips. Any number stays under 90 KB: by subject, in
    /// full first, then code and title, then counted, with the site's "what changed" page linked.
    @Test(arguments: [600, 5_000]) func aDigestOfManyCoursesStaysUnder90KBOfHTML(_ count: Int) throws {
        let announcements = (1...count).map { Self.item($0) }
        let page = URL(string: "https://courses.example.edu/uh/changes.html")
        let message = ChannelMessages.email(announcements, catalog: "UH", from: "c@example.edu", to: ["a@example.edu"],
                                            date: Date(timeIntervalSince1970: 1_736_143_200), changesPage: page)
        let html = try Self.part(message, "text/html"), text = try Self.part(message, "text/plain")
        print("AnnounceTests: a digest of \(count) new courses: \(html.utf8.count) bytes of HTML, \(message.body.count) bytes in all")
        #expect(html.utf8.count < 90_000)
        #expect(Set(message.ids) == Set(announcements.map(\.item.id)), "every item travels in the digest")
        // Grouped by subject, each with its count; the first in full, later ones by code and title only.
        for subject in ["ART", "BIO", "CIS", "MTH"] {
            #expect(html.contains("<h2>\(subject) (\(count / 4))</h2>") || html.contains("\(subject) \(count / 4)"), "\(subject)")
        }
        #expect(html.contains("<li><strong><a href=\"https://catalog.example.edu/preview?catoid=44&amp;coid=4\">ART 104 — Topics 4</a></strong>"))
        #expect(html.contains("<li>MTH 171 — Topics 71</li>") || count > 1_000)
        #expect(html.contains("<a href=\"https://courses.example.edu/uh/changes.html\">what changed</a>"))
        #expect(text.contains("Every change, in full: https://courses.example.edu/uh/changes.html"))
        let digest = EmailDigest(ChannelMessages.sorted(announcements), subject: "s", changesPage: nil)
        #expect(digest.full > 10 && digest.full + digest.brief + digest.omitted == count)
        #expect(digest.html.contains("The news feed has every one in full.") && !digest.html.contains("changes.html"))
        if count > 1_000 {
            #expect(html.contains("\(digest.omitted) more not listed here.") && digest.omitted > 0)
            #expect(html.contains("<p>Not listed here: ") && html.contains("MTH \(count / 4)"))
        }
    }

    @Test func aSmallDigestIsInFullAndLinksTheSiteWhenItKnowsIt() throws {
        let digest = EmailDigest(ChannelMessages.sorted((1...3).map { Self.item($0) }), subject: "s",
                                 changesPage: URL(string: "https://courses.example.edu/changes.html"))
        #expect(digest.full == 3 && digest.brief == 0 && digest.omitted == 0)
        #expect(digest.html.contains("On the catalog's site: <a href=\"https://courses.example.edu/changes.html\">what changed</a>"))
        #expect(digest.html.contains("<li>") && digest.html.contains("3 credits · Undergraduate"))
    }

    @Test func aLongNonASCIISubjectIsFoldedIntoEncodedWordsOfAtMost75Characters() {
        let words = ChannelMessages.encodedWords(String(repeating: "Économie ", count: 20))
        #expect(words.components(separatedBy: "\r\n ").allSatisfy { $0.count <= 75 && $0.hasPrefix("=?UTF-8?B?") && $0.hasSuffix("?=") })
        #expect(ChannelMessages.encodedWords("UH: 3 new courses") == "UH: 3 new courses")
    }

    @Test func theWebhookGetsTheNewsItemsAHundredARequest() throws {
        let announcements = (0..<250).map { Self.item($0) }
        let messages = ChannelMessages.webhook(announcements, catalogID: "uh", catalog: "UH")
        #expect(messages.map(\.ids.count) == [100, 100, 50])
        Self.eachOnce(messages, announcements)
        let news = try #require(try Self.json(messages[2])["news"] as? [[String: Any]])
        #expect(news.first?["id"] as? String == announcements[200].item.id && news.first?["link"] != nil)
    }

    @Test func theOutboxQueuesEachRunsNewsOncePerChannelAndNothingOfTheBaseline() {
        var outbox = Outbox(queued: [])
        let items = (0..<3).map { Self.item($0).item }
        outbox.queue([], catalogID: "uh", snapshot: nil, channels: ["discord", "mail"])
        #expect(outbox.pending.isEmpty)
        outbox.queue(items, catalogID: "uh", snapshot: nil, channels: ["discord", "mail"])
        outbox.queue(items, catalogID: "uh", snapshot: nil, channels: ["discord", "mail"])
        #expect(outbox.pending["discord"]?.map(\.item.id) == items.reversed().map(\.id) && outbox.pending["mail"]?.count == 3)
        var later = Outbox(queued: Set(items.map(\.id)))
        later.queue(items, catalogID: "uh", snapshot: nil, channels: ["discord"])
        #expect(later.pending.isEmpty)
        var other = Outbox(queued: [])
        other.queue(items, catalogID: "gvsu", snapshot: nil, channels: ["discord"])
        #expect(other.pending.isEmpty)
    }

    static let catalogs = #"{"schemaVersion": 1, "catalogs": [{"id": "uh", "name": "UH", "system": "acalog", "source": {"directory": "pages"}}], "#

    @Test func theAnnounceSectionIsCheckedWithJSONPaths() {
        let issues = PipelineConfigTests.issues(Self.catalogs + #"""
        "announce": {"deadlineSeconds": 0, "channels": [
          {"name": "discord", "discord": {"webhookUrlEnv": "https://discord.com/api/webhooks/1/x"}},
          {"name": "discord", "slack": {"webhookUrlEnv": "SLACK", "webhookUrl": "X"}},
          {"name": "hook", "webhook": {"urlEnv": "HOOK"}, "email": {}},
          {"name": "mail", "email": {"smtpUrl": "smtp://mail.example.edu:25", "starttls": false, "from": "a b@c", "to": [],
                                     "userEnv": "USER"}},
          {"name": "slack", "slack": {"webhookUrlEnv": "SLACK"}}, {"name": "slack", "slack": {"webhookUrlEnv": "SLACK"}}]}}
        """#)
        #expect(issues.contains("announce.deadlineSeconds: expected an integer from 1 to 86400, got 0"))
        #expect(issues.contains { $0.hasPrefix("announce.channels[0].discord.webhookUrlEnv: expected the name of an environment variable") })
        #expect(issues.contains { $0.hasPrefix("announce.channels[1].slack.webhookUrl: unknown key (did you mean \"webhookUrlEnv\"?)") })
        #expect(issues.contains("announce.channels[5].name: duplicate channel name \"slack\""))
        #expect(issues.contains("announce.channels[2]: expected exactly one of discord, slack, webhook, email, got webhook and email"))
        #expect(issues.contains { $0.hasPrefix("announce.channels[3].email.smtpUrl: expected smtps:// or starttls: true") })
        #expect(issues.contains("announce.channels[3].email.from: expected an address such as catalog@example.edu, got \"a b@c\""))
        #expect(issues.contains("announce.channels[3].email.to: expected at least one address"))
        #expect(issues.contains("announce.channels[3].email.passwordEnv: expected userEnv and passwordEnv together, or neither"))
    }

    @Test func aValidSectionIsRead() throws {
        let config = try PipelineConfig.parse(Data((Self.catalogs + #"""
        "announce": {"channels": [{"name": "mail", "email": {"smtpUrl": "smtp://127.0.0.1:2525", "starttls": false, "caFile": null,
                                   "from": "catalog@example.edu", "to": ["advisors@example.edu"]}},
                                  {"name": "hook", "webhook": {"urlEnv": "HOOK", "tokenEnv": "TOKEN"}}]}}
        """#).utf8), file: URL(fileURLWithPath: "/tmp/pipeline.json"))
        let channels = try #require(config.announce?.channels)
        #expect(channels.map(\.kind) == [.email, .webhook] && channels[1].tokenEnv == "TOKEN" && channels[0].email?.starttls == false)
        // A webhook's URL: https, or http to this machine; the error names the variable and never the URL.
        #expect(throws: Never.self) { try channels[1].webhookURL(["HOOK": "http://127.0.0.1:8080/x"]) }
        #expect { try channels[1].webhookURL(["HOOK": "http://hooks.example.edu/secret"]) } throws: {
            ($0 as? CatalogError)?.message == "channel hook: HOOK is no https:// URL (http:// only to a loopback address)"
        }
        #expect { try channels[1].webhookURL([:]) } throws: { ($0 as? CatalogError)?.cause == .noCredentials }
    }
}
