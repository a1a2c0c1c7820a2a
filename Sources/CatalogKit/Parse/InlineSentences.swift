/// Splits the trailing sentences GVSU writes into a description paragraph ("(3-0-0) Offered fall semester.
/// Prerequisites: CIS 241; and CIS 351.") into labelled segments of their own.
enum InlineSentences {
    /// Each kind's raw value is the label its segment gets.
    enum Kind: String {
        case contactHours = "Contact Hours", offered = "Offered"
        case prerequisite = "Prerequisites", corequisite = "Corequisites"
    }

    static let labels: [(String, Kind)] = [
        ("Prerequisite(s):", .prerequisite), ("Prerequisites:", .prerequisite), ("Prerequisite:", .prerequisite),
        ("Prereqs:", .prerequisite), ("Prereq.:", .prerequisite), ("Prereq:", .prerequisite),
        ("Corequisite(s):", .corequisite), ("Corequisites:", .corequisite), ("Corequisite:", .corequisite),
        ("Co-requisite:", .corequisite), ("Coreq:", .corequisite),
        ("Offered ", .offered),
    ]

    /// The description before the trailing sentences, then one segment per sentence found.
    static func split(_ segment: ContentSegment) -> (description: ContentSegment, sentences: [ContentSegment]) {
        let s = Array(segment.text.utf8)
        // Where a sentence starts (its label included) and its value starts; its label as written, for provenance.
        typealias Marker = (kind: Kind, start: Int, valueStart: Int, written: String)
        var markers = sentenceStarts(s, from: 0) { index -> (Marker, end: Int)? in
            if let end = contactTriple(s, at: index) { return ((.contactHours, index, index, "(n-n-n)"), end) }
            guard let (label, kind) = labels.first(where: { s[index...].starts(with: $0.0.utf8) }) else { return nil }
            let valueStart = index + label.utf8.count
            return ((kind, index, valueStart, label), valueStart)
        }
        // "Offered" must be a single sentence of its own, or it is prose ("Offered jointly with …").
        markers = markers.enumerated().filter { index, marker in
            guard marker.kind == .offered else { return true }
            let end = index + 1 < markers.count ? markers[index + 1].start : s.count
            let value = String(decoding: s[marker.valueStart..<end], as: UTF8.self)
            let trimmed = value.trimmingTrailingSpaces()
            return trimmed.hasSuffix(".") && !trimmed.dropLast().contains(". ") && !trimmed.contains("\n")
        }.map(\.element)
        guard let first = markers.first else { return (segment, []) }
        let sentences = markers.enumerated().map { index, marker in
            let end = index + 1 < markers.count ? markers[index + 1].start : s.count
            var piece = segment.slice(s, from: marker.valueStart, to: end)
            piece.label = marker.kind.rawValue
            piece.rule = "sentence \"\(marker.written.trimmingTrailingSpaces())…\" at the end of the description"
            if marker.kind == .offered, piece.text.hasSuffix(".") { piece.text.removeLast() }
            if marker.kind == .contactHours { piece.text = String(piece.text.dropFirst().dropLast()) }
            return piece
        }
        return (segment.slice(s, from: 0, to: first.start), sentences)
    }

    /// What `match` finds at the sentence starts of `s` from `index` on, each scan going on from the find's `end`.
    private static func sentenceStarts<Found>(_ s: [UInt8], from index: Int,
                                              _ match: (Int) -> (found: Found, end: Int)?) -> [Found] {
        var found: [Found] = []
        var index = index
        while index < s.count {
            if atSentenceStart(s, index), let (item, end) = match(index) {
                found.append(item)
                index = end
            } else {
                index += 1
            }
        }
        return found
    }

    /// Labels that open a later sentence of a requisite as a field of its own ("… MATH 248. Recommended: MATH 306.").
    static let followingLabels: [String] = labels.filter { $0.1 != .offered }.map(\.0) + ["Recommended:", "Concurrent:"]

    /// A requisite cut where a sentence starts with another field's label (not its own kind's): itself, then those.
    static func splitFollowingFields(_ segment: ContentSegment, role: FieldRole) -> [ContentSegment] {
        guard role == .prerequisite || role == .corequisite, segment.text.containsBytes(":") else { return [segment] }
        let s = Array(segment.text.utf8)
        let cuts = sentenceStarts(s, from: 1) { index -> ((start: Int, valueStart: Int, label: String), end: Int)? in
            let label = followingLabels.first { s[index...].starts(with: $0.utf8) && FieldRole(label: $0) != role }
            return label.map { ((index, index + $0.utf8.count, $0), index + $0.utf8.count) }
        }
        guard let first = cuts.first else { return [segment] }
        // A piece ends before the next label and the separator that led to it ("BIOL 3301 ; Recommended: …").
        func end(before start: Int) -> Int {
            var end = start
            while end > 0, " ;,".utf8.contains(s[end - 1]) { end -= 1 }
            return end
        }
        var pieces = [segment.slice(s, from: 0, to: end(before: first.start))]
        let field = segment.writtenLabel ?? segment.label ?? ""
        for (number, cut) in cuts.enumerated() {
            let stop = number + 1 < cuts.count ? end(before: cuts[number + 1].start) : s.count
            var piece = segment.slice(s, from: cut.valueStart, to: stop)
            piece.label = String(cut.label.dropLast())
            piece.labelStyle = "text"
            piece.writtenLabel = cut.label
            piece.rule = "sentence \"\(cut.label)…\" inside the field \"\(field)\""
            pieces.append(piece)
        }
        return pieces
    }

    private static func atSentenceStart(_ s: [UInt8], _ index: Int) -> Bool {
        if index == 0 || s[index - 1] == UInt8(ascii: "\n") { return true }
        guard s[index - 1] == UInt8(ascii: " "), index >= 2 else { return false }
        return ".!?);".utf8.contains(s[index - 2])
    }

    /// "(3-0-0)": returns the index after the closing parenthesis.
    static func contactTriple(_ s: [UInt8], at index: Int) -> Int? {
        guard index < s.count, s[index] == UInt8(ascii: "(") else { return nil }
        let inner = s[(index + 1)...].prefix { $0 == UInt8(ascii: "-") || UInt8(ascii: "0")...UInt8(ascii: "9") ~= $0 }
        let groups = inner.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard inner.endIndex < s.count, s[inner.endIndex] == UInt8(ascii: ")"), groups.count == 3,
              !groups.contains(where: \.isEmpty) else { return nil }
        return inner.endIndex + 1
    }
}

extension ContentSegment {
    /// The part of the segment between UTF-8 offsets `start` and `end` of its text (`s`), trimmed, with its links.
    func slice(_ s: [UInt8], from start: Int, to end: Int) -> ContentSegment {
        var lower = start, upper = end
        while lower < upper, s[lower] == UInt8(ascii: " ") || s[lower] == UInt8(ascii: "\n") { lower += 1 }
        while upper > lower, s[upper - 1] == UInt8(ascii: " ") || s[upper - 1] == UInt8(ascii: "\n") { upper -= 1 }
        var piece = self
        piece.text = String(decoding: s[lower..<upper], as: UTF8.self)
        piece.links = links.filter { $0.start >= lower && $0.start < upper }.map { link in
            var moved = link
            moved.start -= lower
            moved.end = min(link.end, upper) - lower
            return moved
        }
        return piece
    }
}
