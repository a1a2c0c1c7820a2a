import Foundation
import SafeLibXML

/// The description of a CourseLeaf course, read from `courseblockdesc`.
///
/// The paragraph is prose as a whole ("TOPIC TITLE: …" in it is no field), but older CourseLeaf sites (Iowa State's)
/// write two fields into it, in forms prose does not take: a first line of credits, "(3-0) Cr. 3. F.S.", and a
/// requisite set in emphasis together with its label, "<em>Prereq: Com S 309</em>", ending a line that it starts
/// or whose sentence before it has ended.
enum CourseLeafDescription {
    struct Read {
        var prose: String
        /// The requisites taken out of the prose, each labelled by the words that opened its emphasis.
        var requisites: [ContentSegment] = []
        /// The credits of the first line's "Cr. N." sentence, and that line, which then is no longer prose.
        var credits: String?
        var creditsLine: String?
    }

    static func read(_ events: [InlineEvent]) -> Read {
        let (rest, requisites) = takingRequisites(from: events)
        var read = Read(prose: LabelledContent.prose(from: rest), requisites: requisites)
        let firstLineEnd = read.prose.utf8.firstIndex(of: UInt8(ascii: "\n")) ?? read.prose.endIndex
        let firstLine = read.prose[..<firstLineEnd]
        if let credits = creditsSentence(in: firstLine) {
            read.credits = credits
            read.creditsLine = String(firstLine)
            read.prose = String(read.prose[firstLineEnd...].drop(while: { $0 == "\n" }))
        }
        return read
    }

    /// The value of a sentence "Cr. 3." (or "Cr. 1-3.") in the line: credits as Iowa State writes them, after the
    /// contact hours "(3-0)" and before the terms "F.S.". A value that is no number ("Cr. R.", "Cr. arr.") is none.
    static func creditsSentence(in line: Substring) -> String? {
        let bytes = Array(line.utf8)
        let marker = Array("Cr. ".utf8)
        var index = 0
        while index + marker.count < bytes.count {
            defer { index += 1 }
            guard bytes[index] == marker[0], bytes[index...].starts(with: marker),
                  index == 0 || (index >= 2 && bytes[index - 1] == UInt8(ascii: " ") && ".)".utf8.contains(bytes[index - 2]))
            else { continue }
            let start = index + marker.count
            var end = start
            // The value ends with its sentence: a period before a space or the line's end ("1.5" keeps its point).
            while end < bytes.count, !(bytes[end] == UInt8(ascii: ".") && (end + 1 == bytes.count || bytes[end + 1] == UInt8(ascii: " "))) {
                end += 1
            }
            let value = String(decoding: bytes[start..<end], as: UTF8.self)
            guard let first = value.unicodeScalars.first, first.properties.numericType != nil, first.isASCII,
                  CreditRange(parsing: value) != nil else { continue }
            return value
        }
        return nil
    }

    /// The events without the emphasis elements that open with a requisite's label where a line or a sentence
    /// starts and that end their line (punctuation after one goes with it: "<em>Prereq: E E 201</em>."), each of
    /// those read as a labelled segment, its links kept. A line break takes its place in the prose.
    private static func takingRequisites(from events: [InlineEvent]) -> ([InlineEvent], [ContentSegment]) {
        guard events.contains(where: { if case .startEmphasis = $0 { return true } else { return false } }) else { return (events, []) }
        var rest: [InlineEvent] = []
        var requisites: [ContentSegment] = []
        rest.reserveCapacity(events.count)
        var lastOnLine: UInt8?
        var index = 0
        while index < events.count {
            let event = events[index]
            if case .startEmphasis = event, lastOnLine.map({ ".!?)".utf8.contains($0) }) ?? true,
               let end = matchingEnd(events, from: index), isRequisite(Array(events[(index + 1)..<end])) {
                var taken = Array(events[(index + 1)..<end])
                var next = end + 1
                while next < events.count, case let .text(text) = events[next],
                      !text.unicodeScalars.contains(where: { $0.properties.isAlphabetic || $0.properties.numericType != nil }) {
                    taken.append(events[next])
                    next += 1
                }
                // An emphasis the sentence goes on after ("<em>Coreq: X</em> is named") is a phrase of the prose.
                guard next == events.count || events[next] == .lineBreak || events[next] == .blockBoundary else {
                    rest.append(event)
                    index += 1
                    continue
                }
                var segments = LabelledContent.segments(from: plain(taken))
                if let label = segments.first?.writtenLabel {
                    segments[0].rule = "emphasis opened by the label \"\(label)\" in p.courseblockdesc"
                }
                requisites += segments
                rest.append(.lineBreak)
                lastOnLine = nil
                index = next
                continue
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
        for index in start..<events.count {
            if isEmphasisStart(events[index]) { depth += 1 }
            if events[index] == .endEmphasis {
                depth -= 1
                if depth == 0 { return index }
            }
        }
        return nil
    }

    /// Whether the emphasis' content opens with a prerequisite's or corequisite's label.
    private static func isRequisite(_ inner: [InlineEvent]) -> Bool {
        guard let first = LabelledContent.segments(from: plain(inner)).first, let label = first.label else { return false }
        return [.prerequisite, .corequisite].contains(FieldRole(label: label))
    }
}
