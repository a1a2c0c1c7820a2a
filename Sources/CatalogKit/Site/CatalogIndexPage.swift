import Foundation

/// The landing page of a directory of catalogs, from `index.json`: each catalog with its course count, last success
/// and last outcome, linked to its own site (`<id>/index.html`, where `gvingest run --shard` renders it).
public enum CatalogIndexPage {
    public static func render(_ index: CatalogIndex, title: String = "Course catalogs") -> Data {
        let rows = index.catalogs.map { entry in
            let failed = (entry.exitStatus ?? 0) != 0
            let name = MarkupEscaping.xml(entry.name)
            let cells = [
                entry.lastSuccess == nil ? name : "<a href=\"\(MarkupEscaping.xml(entry.id))/index.html\">\(name)</a>",
                MarkupEscaping.xml(entry.edition ?? "—"),
                "\(entry.courseCount)",
                MarkupEscaping.xml(entry.lastSuccess ?? "never"),
                (failed ? "<strong>" : "") + MarkupEscaping.xml(entry.outcome ?? "not run")
                    + (entry.exitStatus.map { failed ? " (exit \($0))</strong>" : "" } ?? ""),
            ]
            return "<tr>" + cells.map { "<td>\($0)</td>" }.joined() + "</tr>"
        }
        let html = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(MarkupEscaping.xml(title))</title>
        <style>body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem}table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .6rem;border-bottom:1px solid #ccc}td:nth-child(3){text-align:right}</style>
        </head>
        <body>
        <h1>\(MarkupEscaping.xml(title))</h1>
        <p>\(index.catalogs.count) catalog(s), \(index.catalogs.map(\.courseCount).reduce(0, +)) courses.</p>
        <table>
        <thead><tr><th>Catalog</th><th>Edition</th><th>Courses</th><th>Last success</th><th>Last run</th></tr></thead>
        <tbody>
        \(rows.joined(separator: "\n"))
        </tbody>
        </table>
        </body>
        </html>

        """
        return Data(html.utf8)
    }
}
