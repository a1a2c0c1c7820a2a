/// The news as an Atom 1.0 feed (RFC 4287): every text XML-escaped, entries newest first.
public enum AtomFeed {
    /// The feed; `updated` is the newest entry's time (so the same news gives the same bytes), else `emptyUpdated`.
    public static func render(_ items: [NewsItem], settings: NewsSettings, emptyUpdated: String) -> String {
        let x = MarkupEscaping.xml
        let updated = items.map(\.createdAt).max() ?? emptyUpdated
        var lines = [
            #"<?xml version="1.0" encoding="utf-8"?>"#,
            #"<feed xmlns="http://www.w3.org/2005/Atom">"#,
            "  <id>\(x(settings.feedID))</id>",
            "  <title>\(x(settings.feedTitle))</title>",
            "  <updated>\(x(updated))</updated>",
            "  <author><name>\(x(settings.feedTitle))</name></author>",
            #"  <generator>gvingest</generator>"#,
        ]
        // One entry an id, newest first; an entry's id is the feed's with the item's id as its fragment (or appended,
        // when the feed id has one).
        let fragment = settings.feedID.contains("#") ? ":" : "#"
        for item in NewsFile.merge(existing: [], new: items) {
            lines.append("  <entry>")
            lines.append("    <id>\(x(settings.feedID + fragment + item.id))</id>")
            lines.append("    <title>\(x(item.title))</title>")
            lines.append("    <updated>\(x(item.createdAt))</updated>")
            lines.append("    <published>\(x(item.createdAt))</published>")
            if let link = item.link { lines.append("    <link rel=\"alternate\" href=\"\(x(link))\"/>") }
            lines.append("    <category term=\"\(x(item.kind.rawValue))\"/>")
            if item.featured { lines.append(#"    <category term="featured"/>"#) }
            lines.append("    <summary>\(x(item.description))</summary>")
            // The item's Markdown as HTML, escaped once more for XML (type="html", RFC 4287 3.1.1.2): readers render it.
            lines.append("    <content type=\"html\">\(x(NewsHTML.render(item.content)))</content>")
            lines.append("  </entry>")
        }
        lines.append("</feed>")
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The Markdown digest of one run: what was captured and compared with, the news it brought, the changelog.
public enum RunDigest {
    public static func markdown(current: Snapshot, previous: Snapshot?, diff: CatalogDiff, news: [NewsItem]) -> String {
        let md = { (text: String) in MarkupEscaping.markdown(text) }
        var lines = ["# \(md(current.catalogID)): catalog run of \(md(current.shownName))", ""]
        let pages = current.pages
        lines.append("- Snapshot: \(current.courses.count) courses from \(pages.fetched) of \(pages.expected) pages (\(pages.failed) failed)")
        if !pages.unparsed.isEmpty {
            lines.append("- Parse gaps: \(pages.unparsed.count) page\(pages.unparsed.count == 1 ? "" : "s") fetched but not read:")
            for gap in pages.unparsed { lines.append("  - <\(gap.url)>: \(md(gap.reason))") }
        }
        guard let previous else {
            lines.append("- Compared with: nothing: this is the first snapshot, the baseline later runs are compared with; no news")
            return lines.joined(separator: "\n") + "\n"
        }
        lines.append("- Compared with: the snapshot of \(md(previous.shownName)) (\(previous.courses.count) courses)")
        let featured = news.filter(\.featured).count
        lines.append("- News: \(news.count) new item\(news.count == 1 ? "" : "s")\(featured > 0 ? " (\(featured) featured)" : "")")
        if !news.isEmpty {
            lines += ["", "## News", ""]
            for item in news {
                lines.append("- **\(md(item.title))**\(item.featured ? " (featured)" : ""): \(md(item.description))")
            }
        }
        lines.append("")
        return lines.joined(separator: "\n") + "\n" + DiffReport.markdown(diff, old: previous.shownName, new: current.shownName)
    }
}
