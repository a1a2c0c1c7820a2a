import Foundation
import SafeLibXML

/// A CourseLeaf `courseblockdesc`: prose as a whole ("TOPIC TITLE: …" is no field), but for a first line of credits
/// ("(3-0) Cr. 3. F.S.") and requisites opened by their label in emphasis where a line or sentence starts.
enum CourseLeafDescription {
    /// The prose, the requisites taken out of it, and the credits of a first line of credits with that line (no prose).
    static func read(_ events: [InlineEvent])
        -> (prose: String, requisites: [ContentSegment], credits: (value: String, line: String)?) {
        let (rest, requisites) = takingRequisites(from: events)
        let prose = LabelledContent.prose(from: rest)
        guard let (credits, line, after) = creditsLine(prose) else { return (prose, requisites, nil) }
        return (String(after), requisites, (credits, String(line)))
    }

    /// The credits of the first line of `text` when it is a line of credits, that line, and the text after it.
    private static func creditsLine(_ text: String) -> (credits: String, line: Substring, rest: Substring)? {
        let lineEnd = text.utf8.firstIndex(of: UInt8(ascii: "\n")) ?? text.endIndex
        let line = text[..<lineEnd]
        guard line.utf8.count <= longestCreditsLine, let credits = creditsSentence(in: line) else { return nil }
        return (credits, line, text[lineEnd...].drop(while: { $0 == "\n" }))
    }

    /// The credits and the first line of the first unlabelled segment when it is a line of credits, taken out.
    static func takingCreditsLine(from segments: inout [ContentSegment]) -> (credits: String, line: String)? {
        guard let index = segments.firstIndex(where: { $0.label == nil }) else { return nil }
        let segment = segments[index]
        guard let (credits, line, rest) = creditsLine(segment.text) else { return nil }
        if rest.isEmpty {
            segments.remove(at: index)
        } else {
            let bytes = Array(segment.text.utf8)
            segments[index] = segment.slice(bytes, from: bytes.count - rest.utf8.count, to: bytes.count)
        }
        return (credits, String(line))
    }

    /// The longest line that is a line of credits: a longer one is a description that mentions credit.
    static let longestCreditsLine = 60

    /// Words that open a sentence of credits: "Cr. 3." (after contact hours "(3-0)"), "Credits 1 to 4.".
    private static let creditsMarkers: [[UInt8]] = ["Cr. ", "Credits ", "Credit "].map { Array($0.utf8) }

    /// The number of a sentence of credits that starts the line or follows the contact hours ("(3-0) Cr. 3.").
    static func creditsSentence(in line: Substring) -> String? {
        let bytes = Array(line.utf8)
        for index in bytes.indices where index == 0 || bytes[..<index].suffix(2).elementsEqual(") ".utf8) {
            guard let marker = creditsMarkers.first(where: { bytes[index...].starts(with: $0) }) else { continue }
            // The value ends with its sentence: a period before a space or the line's end ("1.5" keeps its point).
            let end = bytes.indices.dropFirst(index + marker.count).first { end in
                bytes[end] == UInt8(ascii: ".") && (end + 1 == bytes.count || bytes[end + 1] == UInt8(ascii: " "))
            }
            let value = String(decoding: bytes[(index + marker.count)..<(end ?? bytes.count)], as: UTF8.self)
            if value.first?.isASCIIDigit == true, CreditRange(parsing: value) != nil { return value }
        }
        return nil
    }

    /// The events without the requisites opened by their label in emphasis where a line or sentence starts, each a
    /// segment: a label alone takes the rest of its line; label and value must end theirs ("<em>Prereq: X</em>.").
    private static func takingRequisites(from events: [InlineEvent]) -> ([InlineEvent], [ContentSegment]) {
        guard events.contains(where: isEmphasisStart) else { return (events, []) }
        var rest: [InlineEvent] = []
        var requisites: [ContentSegment] = []
        rest.reserveCapacity(events.count)
        var lastOnLine: UInt8?
        var index = 0
        func endsLine(_ at: Int) -> Bool { at == events.count || events[at] == .lineBreak || events[at] == .blockBoundary }
        while index < events.count {
            let event = events[index]
            if isEmphasisStart(event), lastOnLine.map({ ".!?)".utf8.contains($0) }) ?? true,
               let end = matchingEnd(events, from: index), let labelOnly = requisiteOpening(Array(events[(index + 1)..<end])) {
                var next = end + 1
                // The label alone takes a line of its own, not a sentence's rest nor the paragraph's only line.
                var ownLine = true
                if labelOnly {
                    while !endsLine(next) { next += 1 }
                    ownLine = lastOnLine == nil && !(index == 0 && next == events.count)
                } else {
                    while next < events.count, case let .text(text) = events[next],
                          !text.unicodeScalars.contains(where: { $0.properties.isAlphabetic || $0.properties.numericType != nil }) {
                        next += 1
                    }
                }
                // An emphasis the sentence goes on after ("<em>Coreq: X</em> is named") is a phrase of the prose.
                if ownLine, endsLine(next) {
                    var segments = LabelledContent.segments(from: plain(Array(events[(index + 1)..<next])))
                    if let label = segments.first?.writtenLabel {
                        segments[0].rule = "emphasis opened by the label \"\(label)\" in .courseblockdesc"
                    }
                    requisites += segments
                    // A requisite that was a line of its own leaves no empty line behind.
                    if lastOnLine == nil, next < events.count, events[next] == .lineBreak { next += 1 }
                    lastOnLine = nil
                    index = next
                    continue
                }
            }
            switch event {
            case let .text(text):
                if let last = text.utf8.last(where: { $0 > 0x20 }) { lastOnLine = last }
            case .lineBreak, .blockBoundary:
                lastOnLine = nil
            default:
                break
            }
            rest.append(event)
            index += 1
        }
        return (rest, requisites)
    }

    /// Whether the emphasis holds a requisite's label alone (nil when it does not open with one).
    private static func requisiteOpening(_ inner: [InlineEvent]) -> Bool? {
        guard let first = LabelledContent.segments(from: plain(inner)).first, let label = first.label,
              [.prerequisite, .corequisite].contains(FieldRole(label: label)) else { return nil }
        return first.text.isEmpty
    }

    private static func isEmphasisStart(_ event: InlineEvent) -> Bool {
        if case .startEmphasis = event { return true }
        return false
    }

    private static func plain(_ events: [InlineEvent]) -> [InlineEvent] {
        events.filter { $0 != .endEmphasis && !isEmphasisStart($0) }
    }

    /// Where the emphasis element opened at `start` ends.
    private static func matchingEnd(_ events: [InlineEvent], from start: Int) -> Int? {
        var depth = 0
        return events[start...].firstIndex { event in
            depth += isEmphasisStart(event) ? 1 : event == .endEmphasis ? -1 : 0
            return depth == 0
        }
    }
}
