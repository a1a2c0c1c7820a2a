import Foundation

extension Announcement {
    /// A line of text with its breaks and runs of white space as single spaces, at most 200 characters.
    static func oneLine(_ text: String) -> String {
        ChannelMessages.clip(text.split(whereSeparator: \.isWhitespace).joined(separator: " "), 200)
    }

    /// "Prerequisites: MATH 2413 and COSC 1336." for a course with them.
    var requisiteLine: String? { prerequisites.map { "Prerequisites: \($0)" } }

    /// The news item as news.json has it, with the subject's name, the prerequisites and the site's page where known.
    var webhookItem: JSONValue {
        guard case var .object(fields) = JSONValue(encoding: item) else { return JSONValue(encoding: item) }
        fields["subjectName"] = subjectName.map(JSONValue.string) ?? .null
        fields["prerequisites"] = prerequisites.map(JSONValue.string) ?? .null
        fields["courseUrl"] = siteURL.map(JSONValue.string) ?? .null
        return .object(fields)
    }
}

extension Announcer {
    /// The announcements as people read them: each with its subject's name, and its page on the site when the site's
    /// address is known and the course is still there.
    public func forPeople(_ announcements: [Announcement]) -> [Announcement] {
        Self.forPeople(announcements, subjectNames: subjectNames, site: site)
    }

    static func forPeople(_ announcements: [Announcement], subjectNames: [String: String], site: SiteSettings) -> [Announcement] {
        announcements.map { announcement in
            var announcement = announcement
            announcement.subjectName = subjectNames[announcement.subject]
            if announcement.item.kind != .removed, announcement.code != nil {
                announcement.siteURL = site.url(CatalogSite.coursePath(announcement.item.courseId))
            }
            return announcement
        }
    }
}

/// An email digest's bodies, grouped by subject under a heading with its count, styled inline (mail clients drop style
/// sheets) and without tables: each course in full (heading, facts, description, prerequisites, links) while the HTML
/// stays within `fullBytes`, then by code and title only up to `listBytes`, then counted by subject, with a link to the
/// site's "what changed" page when there is one. Gmail clips a message's HTML at about 102 KB; a digest of any size
/// stays under 90 KB of it.
struct EmailDigest {
    static let fullBytes = 40_000, listBytes = 80_000, maximumBytes = 89_000
    static let font = "font-family: -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"
    static let linkStyle = "color: #0b57a4; text-decoration: none"

    var text: String
    var html: String
    /// Entries shown in full, by code and title, and left out.
    var full = 0, brief = 0, omitted = 0

    init(_ items: [Announcement], subject: String, changesPage: URL?) {
        let x = MarkupEscaping.xml
        let counts = Dictionary(grouping: items, by: ChannelMessages.group).mapValues(\.count)
        var html = "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>\(x(subject))</title></head>"
            + "<body style=\"margin: 0; padding: 16px; background: #ffffff; color: #1b1b1b; \(Self.font); font-size: 15px; line-height: 1.45\">\n"
            + "<div style=\"max-width: 640px; margin: 0 auto\"><h1 style=\"font-size: 22px; margin: 0 0 8px\">\(x(subject))</h1>\n"
        var text = subject + "\n"
        var group: String?
        var inList = false
        var left: [(name: String, count: Int)] = []
        for item in items {
            let heading = x(item.heading)
            let name = ChannelMessages.group(item)
            let opening = name == group ? "" : (inList ? "</ul>\n" : "")
                + "<h2 style=\"margin: 28px 0 8px; font-size: 18px; color: #0b57a4; border-bottom: 2px solid #d5e3f3; padding-bottom: 4px\">"
                + "\(x(name)) <span style=\"color: #555; font-weight: normal; font-size: 14px\">(\(counts[name] ?? 0))</span></h2>\n"
            let fullEntry = Self.fullEntry(item, heading: heading)
            if brief == 0, html.utf8.count + opening.utf8.count + fullEntry.utf8.count <= Self.fullBytes {
                full += 1
                html += opening + fullEntry
                if !opening.isEmpty { text += "\n\(name)\n" }
                text += "\n" + [item.heading, item.facts, item.item.description, item.requisiteLine ?? "", item.item.link ?? "", item.siteURL ?? ""]
                    .filter { !$0.isEmpty }.joined(separator: "\n") + "\n"
            } else if omitted == 0, html.utf8.count + opening.utf8.count + heading.utf8.count + 60 <= Self.listBytes {
                brief += 1
                let list = inList && opening.isEmpty ? "" : "<ul style=\"margin: 0 0 14px; padding-left: 20px\">\n"
                html += opening + list + "<li>\(heading)</li>\n"
                inList = true
                if !opening.isEmpty { text += "\n\(name)\n" }
                text += "- \(item.heading)\n"
            } else {
                omitted += 1
                if left.last?.name == name { left[left.count - 1].count += 1 } else { left.append((name, 1)) }
                continue
            }
            group = name
        }
        if inList { html += "</ul>\n" }
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
        self.html = html + "</div></body></html>\n"
        self.text = text
    }

    /// A course in full: a block with its heading linked to the site's page (else the catalog's), its facts,
    /// description and prerequisites, and the catalog's own page when the site's is the heading's link.
    static func fullEntry(_ item: Announcement, heading: String) -> String {
        let x = MarkupEscaping.xml
        let linked = (item.siteURL ?? item.item.link).map { "<a href=\"\(x($0))\" style=\"\(linkStyle)\">\(heading)</a>" } ?? heading
        let lines = [item.facts.isEmpty ? nil : "<div style=\"color: #555; font-size: 13px; margin: 2px 0 6px\">\(x(item.facts))</div>",
                     item.item.description.isEmpty ? nil : "<div style=\"margin: 0 0 6px\">\(x(item.item.description))</div>",
                     item.requisiteLine.map { "<div style=\"font-size: 13px; color: #333\">\(x($0))</div>" },
                     item.siteURL != nil ? item.item.link.map { "<div style=\"font-size: 13px; margin-top: 4px\"><a href=\"\(x($0))\" "
                         + "style=\"color: #555\">In the catalog itself</a></div>" } : nil]
        return "<div style=\"margin: 0 0 14px; padding: 10px 12px; border-left: 4px solid #0b57a4; background: #f5f8fc\">"
            + "<div style=\"font-weight: bold; font-size: 16px\">\(linked)</div>" + lines.compactMap { $0 }.joined() + "</div>\n"
    }
}
