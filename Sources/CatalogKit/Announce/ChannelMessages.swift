import Foundation

/// A news item as it is announced: the item, and the facts of its course a message shows.
public struct Announcement: Codable, Sendable, Equatable {
    public var item: NewsItem
    public var subject: String
    /// "CIS 380" and "Machine Learning"; nil when the course is no longer in the catalog (a removal).
    public var code: String?
    public var title: String?
    public var credits: String?
    public var level: String?

    public init(_ item: NewsItem, course: CourseRecord?) {
        self.item = item
        subject = course?.subject ?? String(item.courseId.prefix { $0 != "-" }).uppercased()
        code = course?.name
        title = course?.title
        credits = course?.creditsLabel
        level = course?.level
    }

    /// "CIS 380 — Machine Learning" for a new course, the item's title for any other news.
    var heading: String {
        guard item.kind == .added, let code, let title else { return item.title }
        return "\(code) — \(title)"
    }

    /// "3 credits · Undergraduate".
    var facts: String {
        [credits.map(CourseRecord.creditsPhrase), level].compactMap { $0 }.joined(separator: " · ")
    }
}

/// One message for one channel: what is sent, and the news it carries (each item travels in exactly one message).
public struct ChannelMessage: Sendable, Equatable {
    public var body: Data
    public var ids: [String]
}

/// The messages of each kind of channel: pure functions of the announcements, within each service's documented limits.
/// Announcements are grouped by subject, featured ones first; catalog text is escaped for where it lands.
public enum ChannelMessages {
    /// Discord: at most 10 embeds and 6,000 characters of them a message, an embed's title 256, description 4,096;
    /// `allowed_mentions` empty, so "@everyone" in a title pings nobody.
    public static func discord(_ announcements: [Announcement], catalog: String) -> [ChannelMessage] {
        let entries = sorted(announcements).map { announcement in
            let heading = MarkupEscaping.markdown(clip(announcement.heading, 300))
            let linked = announcement.item.link.map { "[\(heading)](\(MarkupEscaping.markdownLinkTarget($0)))" } ?? heading
            let lines = ["**\(linked)**", MarkupEscaping.markdown(announcement.facts), MarkupEscaping.markdown(clip(announcement.item.description, 500))]
            return (group(announcement), lines.filter { !$0.isEmpty }.joined(separator: "\n"), announcement.item.id)
        }
        let messages = pack(entries, blockLimit: 4_096, blocksPerMessage: 10, messageLimit: 6_000)
        return messages.enumerated().map { index, blocks in
            let embeds = blocks.map { block in
                JSONValue.object(["title": .string(clip(block.title, 256)), "description": .string(block.text)])
            }
            let payload = JSONValue.object(["content": .string(clip(plain(headline(announcements, catalog, index, messages.count)), 2_000)),
                                            "embeds": .array(embeds), "allowed_mentions": .object(["parse": .array([])])])
            return ChannelMessage(body: JSONFile.encoded(payload, pretty: false), ids: blocks.flatMap(\.ids))
        }
    }

    /// Slack: Block Kit, at most 50 blocks a message and 3,000 characters a text; `&`, `<` and `>` escaped, so
    /// "<!channel>" in catalog text stays text. Each message is kept under 12,000 characters in all, below the
    /// size at which Slack refuses a message as too long.
    public static func slack(_ announcements: [Announcement], catalog: String) -> [ChannelMessage] {
        let entries = sorted(announcements).map { announcement in
            let heading = slackEscaped(clip(announcement.heading, 300))
            let linked = announcement.item.link.map { "<\(slackURL($0))|\(heading)>" } ?? heading
            let lines = ["*\(linked)*", slackEscaped(announcement.facts), slackEscaped(clip(announcement.item.description, 500))]
            return (group(announcement), lines.filter { !$0.isEmpty }.joined(separator: "\n"), announcement.item.id)
        }
        // A block's text is its title in bold (escaped), a line, then its entries: a few characters more than its size.
        let messages = pack(entries, blockLimit: 2_980, blocksPerMessage: 49, messageLimit: 11_800)
        return messages.enumerated().map { index, blocks in
            let title = clip(plain(headline(announcements, catalog, index, messages.count)), 150)
            let sections = blocks.map { block in
                JSONValue.object(["type": .string("section"), "text": .object(["type": .string("mrkdwn"), "text": .string("*\(slackEscaped(block.title))*\n" + block.text)])])
            }
            let header = JSONValue.object(["type": .string("header"), "text": .object(["type": .string("plain_text"), "text": .string(title)])])
            let payload = JSONValue.object(["text": .string(title), "blocks": .array([header] + sections)])
            return ChannelMessage(body: JSONFile.encoded(payload, pretty: false), ids: blocks.flatMap(\.ids))
        }
    }

    /// A generic webhook: `{"catalog": {"id", "name"}, "news": [news items as in news.json]}`, 100 items a request.
    public static func webhook(_ announcements: [Announcement], catalogID: String, catalog: String) -> [ChannelMessage] {
        stride(from: 0, to: announcements.count, by: 100).map { start in
            let batch = announcements[start..<min(start + 100, announcements.count)].map(\.item)
            let payload = JSONValue.object(["catalog": .object(["id": .string(catalogID), "name": .string(catalog)]),
                                            "news": JSONValue(encoding: batch)])
            return ChannelMessage(body: JSONFile.encoded(payload, pretty: false), ids: batch.map(\.id))
        }
    }

    /// One digest: `multipart/alternative` (plain text and HTML), the Subject RFC 2047-encoded where not ASCII, and a
    /// Message-ID made from the news it carries, so a repeat is recognizably the same message. Catalog text reaches
    /// only the base64 bodies, never a header. The bodies are `EmailDigest`'s, within its size at any volume.
    public static func email(_ announcements: [Announcement], catalog: String, from: String, to: [String], date: Date,
                             changesPage: URL? = nil) -> ChannelMessage {
        let items = sorted(announcements)
        let ids = items.map(\.item.id)
        let hash = FNV1a.hex(FNV1a.hash(ids.joined(separator: "\n").utf8))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        let subject = plain(headline(announcements, catalog, 0, 1))
        let digest = EmailDigest(items, subject: subject, changesPage: changesPage)
        let boundary = "gvingest-\(hash)"
        func part(_ type: String, _ body: String) -> String {
            "--\(boundary)\r\nContent-Type: \(type); charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n"
                + Data(body.utf8).base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed]) + "\r\n"
        }
        let headers = ["From: \(from)", folded("To:", to.indices.map { to[$0] + ($0 == to.count - 1 ? "" : ",") }), subjectHeader(subject),
                       "Date: \(formatter.string(from: date))", "Message-ID: <\(hash).\(ids.count)@\(from.split(separator: "@").last ?? "gvingest")>",
                       "MIME-Version: 1.0", "Content-Type: multipart/alternative; boundary=\"\(boundary)\""]
        let message = headers.joined(separator: "\r\n") + "\r\n\r\n"
            + part("text/plain", digest.text)
            + part("text/html", digest.html)
            + "--\(boundary)--\r\n"
        return ChannelMessage(body: Data(message.utf8), ids: ids)
    }

    /// "UH: 3 new courses, 1 course back and 2 other catalog changes (2 of 3)".
    static func headline(_ announcements: [Announcement], _ catalog: String, _ index: Int, _ count: Int) -> String {
        let added = announcements.filter { $0.item.kind == .added }.count, back = announcements.filter { $0.item.kind == .returned }.count
        let others = announcements.count - added - back
        let parts = [added > 0 ? "\(added) new course\(added == 1 ? "" : "s")" : nil,
                     back > 0 ? "\(back) course\(back == 1 ? "" : "s") back" : nil,
                     others > 0 ? "\(others) \(added + back > 0 ? "other " : "")catalog change\(others == 1 ? "" : "s")" : nil].compactMap { $0 }
        let listed = parts.count > 2 ? parts.dropLast().joined(separator: ", ") + " and " + parts[parts.count - 1] : parts.joined(separator: " and ")
        return "\(catalog): \(listed)" + (count > 1 ? " (\(index + 1) of \(count))" : "")
    }

    /// Featured first, then by subject, then by heading.
    static func sorted(_ announcements: [Announcement]) -> [Announcement] {
        announcements.sorted { ($0.item.featured ? 0 : 1, $0.subject, $0.heading, $0.item.id) < ($1.item.featured ? 0 : 1, $1.subject, $1.heading, $1.item.id) }
    }

    static func group(_ announcement: Announcement) -> String { (announcement.item.featured ? "★ " : "") + announcement.subject }

    /// A block of one group's entries, as many as fit.
    struct Block {
        var title: String
        var text: String
        var ids: [String]
        var size: Int { title.utf16.count + text.utf16.count }
    }

    /// Entries into blocks of at most `blockLimit` characters (title included, one group each), and blocks into
    /// messages of at most `blocksPerMessage` blocks and `messageLimit` characters. An entry is never split.
    static func pack(_ entries: [(group: String, text: String, id: String)], blockLimit: Int, blocksPerMessage: Int,
                     messageLimit: Int) -> [[Block]] {
        var messages: [[Block]] = []
        var blocks: [Block] = []
        var size = 0
        for (group, text, id) in entries {
            let title = clip(group, 200)
            let entry = clip(text, min(blockLimit, messageLimit) - title.utf16.count - 2)
            if var last = blocks.last, last.title == title, last.size + entry.utf16.count + 2 <= blockLimit,
               size + entry.utf16.count + 2 <= messageLimit {
                last.text += "\n\n" + entry
                last.ids.append(id)
                blocks[blocks.count - 1] = last
                size += entry.utf16.count + 2
                continue
            }
            let block = Block(title: title, text: entry, ids: [id])
            if blocks.count == blocksPerMessage || size + block.size > messageLimit {
                messages.append(blocks)
                (blocks, size) = ([], 0)
            }
            blocks.append(block)
            size += block.size
        }
        return blocks.isEmpty ? messages : messages + [blocks]
    }

    /// At most `limit` UTF-16 units (what the services count), with "…" where it was cut.
    static func clip(_ text: String, _ limit: Int) -> String {
        guard text.utf16.count > limit else { return text }
        var cut = ""
        for character in text where cut.utf16.count + character.utf16.count < limit { cut.append(character) }
        return cut + "…"
    }

    /// Text for Slack's mrkdwn: its three control characters as entities.
    static func slackEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    /// A URL inside Slack's `<url|text>`: what would end it percent-encoded.
    static func slackURL(_ url: String) -> String {
        url.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "%3C")
            .replacingOccurrences(of: ">", with: "%3E").replacingOccurrences(of: "|", with: "%7C")
    }

    /// One line: control and format characters (CR, LF, bidi overrides) as spaces.
    static func plain(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map {
            [.control, .format, .lineSeparator, .paragraphSeparator].contains($0.properties.generalCategory) ? " " : $0
        }))
    }

    /// `name` and its words on lines of at most 78 characters where a word allows (RFC 5322 2.1.1), folded before
    /// the space between two words: a list of 40 addresses on one line passed the 998 characters servers accept.
    static func folded(_ name: String, _ words: [String]) -> String {
        var lines = [name]
        for word in words {
            if lines[lines.count - 1].utf8.count + 1 + word.utf8.count > 78, lines[lines.count - 1] != name { lines.append("") }
            lines[lines.count - 1] += " " + word
        }
        return lines.joined(separator: "\r\n")
    }

    /// The Subject folded at its spaces; as encoded-words when it is not printable ASCII or a word alone would pass
    /// a line's 998 characters.
    static func subjectHeader(_ subject: String) -> String {
        let long = subject.split(separator: " ").contains { $0.utf8.count > 900 }
        let value = encodedWords(subject, always: long)
        return value == subject ? folded("Subject:", subject.split(separator: " ").map(String.init)) : "Subject: \(value)"
    }

    /// A header value as it is, when printable ASCII; otherwise RFC 2047 encoded-words (UTF-8, base64), each within
    /// 75 characters, on folded lines, never splitting a character.
    static func encodedWords(_ text: String, always: Bool = false) -> String {
        guard always || text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value > 0x7E }) else { return text }
        var words: [String] = []
        var chunk = ""
        for character in text {
            if chunk.utf8.count + character.utf8.count > 45 {
                words.append(chunk)
                chunk = ""
            }
            chunk.append(character)
        }
        words.append(chunk)
        return words.map { "=?UTF-8?B?\(Data($0.utf8).base64EncodedString())?=" }.joined(separator: "\r\n ")
    }
}

/// An email digest's bodies, grouped by subject: each course in full (heading, facts, first sentence, link) while the
/// HTML stays within `fullBytes`, then by code and title only up to `listBytes`, then counted by subject, with a link
/// to the site's "what changed" page when there is one. Gmail clips a message's HTML at about 102 KB; a digest of any
/// size stays under 90 KB of it.
struct EmailDigest {
    static let fullBytes = 40_000, listBytes = 80_000, maximumBytes = 89_000

    var text: String
    var html: String
    /// Entries shown in full, by code and title, and left out.
    var full = 0, brief = 0, omitted = 0

    init(_ items: [Announcement], subject: String, changesPage: URL?) {
        let x = MarkupEscaping.xml
        let counts = Dictionary(grouping: items, by: ChannelMessages.group).mapValues(\.count)
        var html = "<!DOCTYPE html><html><body><h1>\(x(subject))</h1>\n", text = subject + "\n"
        var group: String?
        var left: [(name: String, count: Int)] = []
        for item in items {
            let heading = x(item.heading)
            let linked = item.item.link.map { "<a href=\"\(x($0))\">\(heading)</a>" } ?? heading
            let fullEntry = "<li><strong>\(linked)</strong><br>\(x(item.facts))<br>\(x(item.item.description))</li>\n"
            let name = ChannelMessages.group(item)
            let opening = name == group ? "" : (group == nil ? "" : "</ul>\n") + "<h2>\(x(name)) (\(counts[name] ?? 0))</h2>\n<ul>\n"
            if brief == 0, html.utf8.count + opening.utf8.count + fullEntry.utf8.count <= Self.fullBytes {
                full += 1
                html += opening + fullEntry
                if !opening.isEmpty { text += "\n\(name)\n" }
                text += "\n" + [item.heading, item.facts, item.item.description, item.item.link ?? ""].filter { !$0.isEmpty }.joined(separator: "\n") + "\n"
            } else if omitted == 0, html.utf8.count + opening.utf8.count + heading.utf8.count + 10 <= Self.listBytes {
                brief += 1
                html += opening + "<li>\(heading)</li>\n"
                if !opening.isEmpty { text += "\n\(name)\n" }
                text += "- \(item.heading)\n"
            } else {
                omitted += 1
                if left.last?.name == name { left[left.count - 1].count += 1 } else { left.append((name, 1)) }
                continue
            }
            group = name
        }
        if group != nil { html += "</ul>\n" }
        let page = changesPage.map { $0.absoluteString }
        if omitted > 0 {
            // By subject, as many as fit: a catalog has a few hundred subjects at most, but a digest has a size.
            var named: [String] = []
            for (name, count) in left where html.utf8.count + named.joined(separator: ", ").utf8.count + name.utf8.count + 600 < Self.maximumBytes {
                named.append("\(name) \(count)")
            }
            let rest = left.count - named.count
            let line = "Not listed here: " + named.joined(separator: ", ") + (rest > 0 ? " and \(rest) more subjects" : "") + "."
            html += "<p>\(x(line))</p>\n"
            text += "\n\(line)\n"
        }
        if omitted > 0 || brief > 0 {
            let more = omitted > 0 ? "\(omitted) more not listed here. " : ""
            html += "<p>\(more)" + (page.map { "Every change, in full: <a href=\"\(x($0))\">what changed</a>.</p>\n" } ?? "The news feed has every one in full.</p>\n")
            text += "\n\(more)" + (page.map { "Every change, in full: \($0)\n" } ?? "The news feed has every one in full.\n")
        } else if let page {
            html += "<p>On the catalog's site: <a href=\"\(x(page))\">what changed</a>.</p>\n"
            text += "\nOn the catalog's site: \(page)\n"
        }
        self.html = html + "</body></html>\n"
        self.text = text
    }
}
