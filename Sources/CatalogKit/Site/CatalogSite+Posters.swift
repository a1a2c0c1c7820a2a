import Foundation

extension CatalogSite {
    static func posterPath(_ subject: String) -> String { "poster/\(fileName(subject)).svg" }

    /// A subject's default poster: its code large and its name below, on a colour of its own, 1200 × 630 like a link
    /// preview. Made here so the site has a picture for each news item with no file from elsewhere.
    func poster(_ subject: String) -> Data {
        let hue = Int(FNV1a.hash(subject.utf8) % 360)
        let name = input.subjectNames[subject].map { $0.count > 40 ? String($0.prefix(39)) + "…" : $0 }
        let svg = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 630" width="1200" height="630" role="img" aria-label="\(esc(subjectLabel(subject)))">
        <rect width="1200" height="630" fill="hsl(\(hue), 55%, 28%)"/>
        <circle cx="1040" cy="110" r="260" fill="hsl(\((hue + 40) % 360), 60%, 38%)"/>
        <text x="80" y="330" font-family="system-ui, sans-serif" font-weight="700" font-size="180" fill="#fff">\(esc(subject))</text>
        \(name.map { "<text x=\"84\" y=\"420\" font-family=\"system-ui, sans-serif\" font-size=\"54\" fill=\"#fff\">\(esc($0))</text>" } ?? "")
        <text x="84" y="560" font-family="system-ui, sans-serif" font-size="34" fill="#fff" opacity=".85">\(esc(input.catalogName))</text>
        </svg>

        """
        return Data(svg.utf8)
    }
}
