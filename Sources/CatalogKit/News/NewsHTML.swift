/// A news item's Markdown as HTML, for feed readers: only what `NewsBuilder` writes is read (paragraphs, "- " lists
/// nested by two spaces, `**strong**`, `~~deleted~~`, `[text](http…)` links, backslash escapes); everything else is
/// text, escaped, so catalog text can never become markup.
public enum NewsHTML {
    public static func render(_ markdown: String) -> String {
        markdown.components(separatedBy: "\n\n").compactMap { block -> String? in
            let lines = block.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
            guard !lines.isEmpty else { return nil }
            if lines.allSatisfy(isListItem) { return list(lines) }
            return "<p>" + lines.map(inline).joined(separator: "<br>") + "</p>"
        }.joined(separator: "\n")
    }

    static func isListItem(_ line: String) -> Bool { line.drop { $0 == " " }.hasPrefix("- ") }

    /// "- " lines as nested lists, a level each two spaces of indent.
    static func list(_ lines: [String]) -> String {
        var html = "", depth = 0
        for line in lines {
            let level = line.prefix { $0 == " " }.count / 2 + 1
            if level > depth {
                html += String(repeating: "<ul><li>", count: level - depth)
            } else {
                html += String(repeating: "</li></ul>", count: depth - level) + "</li><li>"
            }
            depth = level
            html += inline(String(line.drop { $0 == " " }.dropFirst(2)))
        }
        return html + String(repeating: "</li></ul>", count: depth)
    }

    /// One line's inline Markdown; a marker left open is closed at the line's end.
    static func inline(_ text: String) -> String {
        let characters = Array(text)
        var html = "", open: [String] = [], index = 0
        func toggle(_ tag: String) {
            if open.last == tag { open.removeLast(); html += "</\(tag)>" } else { open.append(tag); html += "<\(tag)>" }
        }
        while index < characters.count {
            let character = characters[index], next = index + 1 < characters.count ? characters[index + 1] : nil
            if character == "\\", let next, next.isASCII, next.isPunctuation || next.isSymbol {
                html += MarkupEscaping.xml(String(next))
                index += 2
            } else if character == "*", next == "*" {
                toggle("strong")
                index += 2
            } else if character == "~", next == "~" {
                toggle("del")
                index += 2
            } else if character == "[", let link = link(characters, at: index) {
                html += "<a href=\"\(MarkupEscaping.xml(link.url))\">\(inline(link.text))</a>"
                index = link.end
            } else {
                html += MarkupEscaping.xml(String(character))
                index += 1
            }
        }
        return html + open.reversed().map { "</\($0)>" }.joined()
    }

    /// `[text](url)` starting at `start`, with an http(s) URL; nil for anything else. Escaped brackets stay in the text.
    static func link(_ characters: [Character], at start: Int) -> (text: String, url: String, end: Int)? {
        var index = start + 1, depth = 0
        while index < characters.count {
            if characters[index] == "\\" { index += 2; continue }
            if characters[index] == "[" { depth += 1 }
            if characters[index] == "]" {
                if depth == 0 { break }
                depth -= 1
            }
            index += 1
        }
        guard index + 1 < characters.count, characters[index + 1] == "(",
              let close = characters[(index + 2)...].firstIndex(of: ")") else { return nil }
        let url = String(characters[(index + 2)..<close])
        guard url.hasPrefix("https://") || url.hasPrefix("http://"), !url.contains(" ") else { return nil }
        return (String(characters[(start + 1)..<index]), url, close + 1)
    }
}
