import Foundation
import SafeLibXML

/// A stretch of a course body: a labelled field ("Prerequisite: …") or unlabelled prose.
struct ContentSegment: Equatable {
    /// The label without its colon ("Prerequisite", "Credit Hours"), or nil for prose.
    var label: String?
    /// How the label was written, for provenance: `<strong>`, `<em>` or `text`.
    var labelStyle: String?
    /// The label exactly as the page shows it, colon included when it has one.
    var writtenLabel: String?
    /// The value, white space collapsed; "\n" for a line break and "\n\n" between paragraphs.
    var text: String
    var links: [SegmentLink]
    /// Unlabelled text set apart as a whole in `<em>`/`<strong>` (LSU's unlabelled prerequisite, notes).
    var emphasized: Bool
    /// How the segment was found, when not by a label in the markup (a sentence of the description).
    var rule: String? = nil
}

/// A link inside a segment, with its position in the segment's text (UTF-8 byte offsets).
struct SegmentLink: Equatable {
    var text: String
    var url: URL?
    var start: Int
    var end: Int
}

/// Splits a course body into labelled fields and prose as a reader sees them: labels in emphasis with a colon
/// (`<strong>Credit Hours:</strong> 3`), bare (`<strong>Description</strong><br/>text`), or in plain text at the
/// start of a line ("TCCNS Equivalent: ACCT 2301").
enum LabelledContent {
    static func segments(from events: [InlineEvent]) -> [ContentSegment] {
        let (lines, links) = lines(from: events)
        var reader = Reader(links: links)
        for line in lines { reader.read(line) }
        reader.closeSegment()
        return reader.segments
    }

    /// The events as prose, no label read, with line and paragraph breaks as in `ContentSegment.text`.
    static func prose(from events: [InlineEvent]) -> String {
        var builder = Builder(label: nil, labelStyle: nil)
        for line in lines(from: events).lines {
            builder.lineBreak(line.breakBefore)
            builder.append(line.tokens[...], links: [])
        }
        return builder.finish().text
    }

    enum LineBreak { case line, paragraph }

    struct Token {
        var text: String
        /// The outermost emphasis element this text is inside, numbered in document order.
        var emphasis: Int?
        var emphasisTag: String?
        /// Index into the link table, when inside a link.
        var link: Int?
    }

    struct Line {
        var breakBefore: LineBreak
        var tokens: [Token]
    }

    /// A piece of a line: an emphasis element as a whole, or plain text between them (a slice of the line's tokens).
    struct Unit {
        var tokens: ArraySlice<Token>
        var emphasisTag: String?
        var text: String {
            TextCollapsing.collapse(tokens.count == 1 ? tokens[tokens.startIndex].text : tokens.map(\.text).joined())
        }
        var isEmpty: Bool { tokens.allSatisfy { TextCollapsing.isBlank($0.text) } }
        /// Whether the last scalar that is not white space is a colon: else `colonLabel(text)` is nil.
        var endsWithColon: Bool {
            let scalars = tokens.reversed().lazy.flatMap { $0.text.unicodeScalars.reversed() }
            return scalars.first { !TextCollapsing.isCollapsibleSpace($0) } == ":"
        }
    }

    /// The lines of a body, and the URL of each link in it (which `Token.link` indexes).
    static func lines(from events: [InlineEvent]) -> (lines: [Line], links: [URL?]) {
        var lines: [Line] = []
        var links: [URL?] = []
        var current = Line(breakBefore: .paragraph, tokens: [])
        var depth = 0
        var group = 0
        var groupTag: String?
        var link: Int?
        var pendingBreak: LineBreak = .paragraph

        func close(_ kind: LineBreak) {
            if current.tokens.contains(where: { !TextCollapsing.isBlank($0.text) }) {
                current.breakBefore = pendingBreak
                lines.append(current)
                pendingBreak = kind
            } else if kind == .paragraph || pendingBreak == .line {
                // Two line breaks with nothing between them make a paragraph break.
                pendingBreak = .paragraph
            }
            current = Line(breakBefore: .paragraph, tokens: [])
        }

        for event in events {
            switch event {
            case let .text(text):
                if current.tokens.isEmpty { current.tokens.reserveCapacity(8) }
                current.tokens.append(Token(text: text, emphasis: depth > 0 ? group : nil,
                                            emphasisTag: depth > 0 ? groupTag : nil, link: link))
            case let .startEmphasis(tag):
                if depth == 0 {
                    group += 1
                    groupTag = tag
                }
                depth += 1
            case .endEmphasis:
                depth = max(0, depth - 1)
            case let .startLink(_, url):
                links.append(url)
                link = links.count - 1
            case .endLink:
                link = nil
            case .lineBreak:
                close(.line)
            case .blockBoundary:
                close(.paragraph)
            }
        }
        close(.paragraph)
        return (lines, links)
    }

    /// The line cut where the emphasis group changes.
    static func units(of line: Line) -> [Unit] {
        var units: [Unit] = []
        let tokens = line.tokens
        units.reserveCapacity(tokens.count)  // at most one unit a token
        var start = tokens.startIndex
        while start < tokens.endIndex {
            let group = tokens[start].emphasis
            var end = start + 1
            while end < tokens.endIndex, tokens[end].emphasis == group { end += 1 }
            units.append(Unit(tokens: tokens[start..<end], emphasisTag: group == nil ? nil : tokens[start].emphasisTag))
            start = end
        }
        return units
    }

    private static let smallWords: Set<String> = ["of", "and", "or", "for", "to", "the", "in", "a", "an", "by", "per", "at"]

    /// A label written in emphasis and ending in a colon: "Credit Hours:", "Prereq.:".
    static func colonLabel(_ text: String) -> String? {
        // The byte test first: most emphasis is not a label, and `hasSuffix` compares characters.
        guard text.utf8.last == UInt8(ascii: ":"), text.hasSuffix(":") else { return nil }
        // A String, not a Substring, for `collapse` (the generic one is not specialized across modules).
        let body = TextCollapsing.collapse(String(decoding: text.utf8.dropLast(), as: UTF8.self))
        guard let first = body.unicodeScalars.first, isLetter(first),
              hasAtMost(60, charactersIn: body), wordCount(body) <= 8 else { return nil }
        return body
    }

    /// A label in emphasis without a colon, alone at the start of a line: "Description", "Formerly".
    static func bareLabel(_ text: String) -> String? {
        guard (1...4).contains(wordCount(text)), let first = text.unicodeScalars.first, isUppercase(first),
              text.unicodeScalars.allSatisfy({ isLetter($0) || " &/()-'".unicodeScalars.contains($0) })
        else { return nil }
        return text
    }

    /// A label in plain text at the start of a line: "TCCNS Equivalent: ACCT 2301".
    static func textLabel(_ text: String) -> String? {
        // Most lines have no colon: the bytes tell, without walking the characters.
        guard text.utf8.contains(UInt8(ascii: ":")), let colon = text.firstIndex(of: ":") else { return nil }
        let body = text[..<colon]
        guard !body.isEmpty, hasAtMost(40, charactersIn: body), let first = body.unicodeScalars.first, isUppercase(first)
        else { return nil }
        let words = body.split(separator: " ")
        guard words.count <= 6 else { return nil }
        for word in words {
            if smallWords.contains(String(word)) || word.hasPrefix("(") { continue }
            guard let initial = word.unicodeScalars.first, isUppercase(initial),
                  word.unicodeScalars.allSatisfy({ isLetter($0) || "().-/&'".unicodeScalars.contains($0) })
            else { return nil }
        }
        return String(body)
    }

    /// How many words `split(separator: " ")` gives, counted on the bytes for ASCII (splitting cost more than the
    /// rest of reading a label); elsewhere a space with a combining mark after it is no separator.
    private static func wordCount(_ text: String) -> Int {
        let bytes = text.utf8
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return text.split(separator: " ").count }
        let space = UInt8(ascii: " ")
        // A word starts at each byte that is no space and follows one, or starts the text.
        let first = bytes.first.map { $0 != space } == true ? 1 : 0
        return first + zip(bytes, bytes.dropFirst()).count { $0 == space && $1 != space }
    }

    /// A letter as `CharacterSet.letters` has it; ASCII, nearly every label, without asking Foundation.
    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? (scalar >= "A" && scalar <= "Z") || (scalar >= "a" && scalar <= "z") : CharacterSet.letters.contains(scalar)
    }

    private static func isUppercase(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? scalar >= "A" && scalar <= "Z" : scalar.properties.isUppercase
    }

    /// `text.count <= limit`, settled by the byte count for short text (a character is at least a byte).
    private static func hasAtMost<S: StringProtocol>(_ limit: Int, charactersIn text: S) -> Bool {
        text.utf8.count <= limit || text.count <= limit
    }

    private struct Reader {
        var segments: [ContentSegment] = []
        var current: Builder?
        /// Set when a label ends its line with no value: the lines below belong to it ("Description").
        var continuation = false
        var links: [URL?] = []

        mutating func read(_ line: Line) {
            if current?.label != nil, !continuation { closeSegment() }
            if current?.hasText == true { current?.lineBreak(line.breakBefore) }
            var lineHasContent = false
            for unit in LabelledContent.units(of: line) {
                let isEmpty = unit.isEmpty
                if let tag = unit.emphasisTag {
                    // A colon label ends in a colon, a bare one starts its line, and nothing in a link is one.
                    if !lineHasContent || unit.endsWithColon, !unit.tokens.contains(where: { $0.link != nil }) {
                        let text = unit.text
                        if !text.isEmpty,
                           let label = LabelledContent.colonLabel(text) ?? (lineHasContent ? nil : LabelledContent.bareLabel(text)) {
                            start(Builder(label: label, labelStyle: "<\(tag)>", writtenLabel: text))
                            lineHasContent = true
                            continue
                        }
                    }
                    if let builder = current, builder.label != nil, !builder.hasText, builder.labelStyle != "text" {
                        // `<em>Prereq.:</em> <em>value</em>`: the value is the emphasis that follows, and what follows
                        // it may start a field ("<em>Lecture Contact Hours:</em> <em>3</em> Lab Contact Hours: 0").
                        current?.append(unit.tokens, links: links)
                        closeSegment()
                        lineHasContent = false
                        continue
                    }
                    if !isEmpty, current == nil || (current?.label == nil && current?.hasText == false) {
                        // Unlabelled text set apart as a whole (LSU's unlabelled prerequisite, a note).
                        var builder = Builder(label: nil, labelStyle: nil, emphasized: true)
                        builder.append(unit.tokens, links: links)
                        start(builder)
                        closeSegment()
                        lineHasContent = true
                        continue
                    }
                } else if !lineHasContent, !isEmpty, let label = LabelledContent.textLabel(unit.text) {
                    var builder = Builder(label: label, labelStyle: "text", writtenLabel: label + ":")
                    builder.append(unit.tokens, links: links, afterFirstColon: true)
                    start(builder)
                    lineHasContent = true
                    continue
                }
                if current == nil, !isEmpty { current = Builder(label: nil, labelStyle: nil) }
                current?.append(unit.tokens, links: links)
                lineHasContent = lineHasContent || !isEmpty
            }
            if let builder = current, builder.label != nil, !builder.hasText { continuation = true }
        }

        private mutating func start(_ builder: Builder) {
            closeSegment()
            current = builder
        }

        mutating func closeSegment() {
            guard let builder = current else { return }
            current = nil
            continuation = false
            let segment = builder.finish()
            if segment.label != nil || !segment.text.isEmpty { segments.append(segment) }
        }
    }

    /// Builds a segment's text with white space collapsed, tracking where its links land.
    private struct Builder {
        let label: String?
        let labelStyle: String?
        var writtenLabel: String?
        var emphasized = false
        /// The text so far as UTF-8; link offsets count bytes of it.
        var bytes: [UInt8] = []
        var pendingSpace = false
        var pendingBreak: LineBreak?
        var links: [SegmentLink] = []
        var openLink: Int?
        var openLinkIndex: Int?

        var hasText: Bool { !bytes.isEmpty }

        mutating func lineBreak(_ kind: LineBreak) {
            guard hasText else { return }
            pendingBreak = (pendingBreak == .paragraph || kind == .paragraph) ? .paragraph : .line
            pendingSpace = false
        }

        /// Appends the tokens, or (`afterFirstColon`) what follows their first colon: the value of a plain-text label.
        mutating func append(_ tokens: ArraySlice<Token>, links table: [URL?], afterFirstColon: Bool = false) {
            var seenColon = !afterFirstColon
            for token in tokens {
                if seenColon {
                    append(token, skipping: 0, links: table)
                } else if let colon = token.text.utf8.firstIndex(of: UInt8(ascii: ":")) {
                    seenColon = true
                    append(token, skipping: token.text.utf8.distance(from: token.text.utf8.startIndex, to: colon) + 1, links: table)
                }
            }
        }

        private mutating func append(_ token: Token, skipping skip: Int, links table: [URL?]) {
            if token.link != openLink {
                openLink = token.link
                openLinkIndex = nil
            }
            var text = token.text
            text.withUTF8 { source in
                var index = skip
                while index < source.count {
                    let space = TextCollapsing.spaceLength(source, at: index)
                    if space > 0 {
                        if hasText, pendingBreak == nil { pendingSpace = true }
                        index += space
                        continue
                    }
                    if let kind = pendingBreak {
                        bytes.append(0x0A)
                        if kind == .paragraph { bytes.append(0x0A) }
                        pendingBreak = nil
                        pendingSpace = false
                    } else if pendingSpace {
                        bytes.append(0x20)
                        pendingSpace = false
                    }
                    let start = bytes.count
                    // One whole character, and the visible ASCII after it (never white space), copied as one run.
                    var end = index + 1
                    while end < source.count, source[end] & 0xC0 == 0x80 { end += 1 }
                    while end < source.count, source[end] > 0x20, source[end] < 0x7F { end += 1 }
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[index..<end]))
                    index = end
                    if let link = token.link, link < table.count {
                        if let open = openLinkIndex {
                            links[open].end = bytes.count
                        } else {
                            links.append(SegmentLink(text: "", url: table[link], start: start, end: bytes.count))
                            openLinkIndex = links.count - 1
                        }
                    }
                }
            }
        }

        func finish() -> ContentSegment {
            let finishedLinks = links.map { link -> SegmentLink in
                var copy = link
                copy.text = String(decoding: bytes[link.start..<min(link.end, bytes.count)], as: UTF8.self)
                return copy
            }
            return ContentSegment(label: label, labelStyle: labelStyle, writtenLabel: writtenLabel,
                                  text: String(decoding: bytes, as: UTF8.self), links: finishedLinks, emphasized: emphasized)
        }
    }
}
