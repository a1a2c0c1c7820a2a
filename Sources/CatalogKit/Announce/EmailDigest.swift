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

/// The email digest's HTML: a heading per subject, each course a block with its facts, styled inline (mail clients
/// drop style sheets) and without tables.
enum EmailDigest {
    static let font = "font-family: -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"

    static func html(_ announcements: [Announcement], title: String) -> String {
        func esc(_ text: String) -> String { MarkupEscaping.xml(text) }
        var groups: [(title: String, items: [Announcement])] = []
        for announcement in announcements {
            let group = ChannelMessages.group(announcement)
            if groups.last?.title == group { groups[groups.count - 1].items.append(announcement) } else { groups.append((group, [announcement])) }
        }
        let sections = groups.map { group in
            "<h2 style=\"margin: 28px 0 8px; font-size: 18px; color: #0b57a4; border-bottom: 2px solid #d5e3f3; padding-bottom: 4px\">"
                + "\(esc(group.title)) <span style=\"color: #555; font-weight: normal; font-size: 14px\">(\(group.items.count))</span></h2>\n"
                + group.items.map { item in
                    let heading = esc(item.heading)
                    let linked = (item.siteURL ?? item.item.link).map { "<a href=\"\(esc($0))\" style=\"color: #0b57a4; text-decoration: none\">\(heading)</a>" }
                        ?? heading
                    let lines = [item.facts.isEmpty ? nil : "<div style=\"color: #555; font-size: 13px; margin: 2px 0 6px\">\(esc(item.facts))</div>",
                                 item.item.description.isEmpty ? nil : "<div style=\"margin: 0 0 6px\">\(esc(item.item.description))</div>",
                                 item.requisiteLine.map { "<div style=\"font-size: 13px; color: #333\">\(esc($0))</div>" },
                                 item.siteURL != nil ? item.item.link.map { "<div style=\"font-size: 13px; margin-top: 4px\"><a href=\"\(esc($0))\" "
                                     + "style=\"color: #555\">In the catalog itself</a></div>" } : nil]
                    return "<div style=\"margin: 0 0 14px; padding: 10px 12px; border-left: 4px solid #0b57a4; background: #f5f8fc\">"
                        + "<div style=\"font-weight: bold; font-size: 16px\">\(linked)</div>" + lines.compactMap { $0 }.joined() + "</div>\n"
                }.joined()
        }
        return "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>\(esc(title))</title></head>"
            + "<body style=\"margin: 0; padding: 16px; background: #ffffff; color: #1b1b1b; \(font); font-size: 15px; line-height: 1.45\">\n"
            + "<div style=\"max-width: 640px; margin: 0 auto\"><h1 style=\"font-size: 22px; margin: 0 0 8px\">\(esc(title))</h1>\n"
            + sections.joined() + "</div></body></html>\n"
    }
}
