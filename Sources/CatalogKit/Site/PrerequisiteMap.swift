/// A course's prerequisite map: the courses it needs, transitively, in layers above it, and the courses that need it
/// below, laid out by distance with each layer ordered by its neighbours' places (fewer crossings), as SVG and as lists.
struct PrerequisiteMap {
    /// Codes by distance: `above[0]` needs nothing of the course and is needed by it directly, and so on up.
    let above: [[String]]
    let below: [[String]]
    let code: String

    /// Layers drawn each way, and boxes a layer: beyond them the lists say the rest, so a picture stays readable.
    static let drawnLayers = (above: 8, below: 3), drawnPerLayer = 7

    init(code: String, requires: (String) -> [String], requiredBy: (String) -> [String]) {
        self.code = code
        above = Self.layers(from: code, requires)
        below = Self.layers(from: code, requiredBy)
    }

    /// Every code reachable through `next`, by its shortest distance (1, 2, …), each layer sorted.
    static func layers(from code: String, _ next: (String) -> [String]) -> [[String]] {
        var seen: Set = [code], frontier = [code], layers: [[String]] = []
        while !frontier.isEmpty {
            frontier = Set(frontier.flatMap(next)).subtracting(seen).sorted()
            seen.formUnion(frontier)
            if !frontier.isEmpty { layers.append(frontier) }
        }
        return layers
    }

    var isEmpty: Bool { above.isEmpty && below.isEmpty }

    /// The words for people who do not see the picture (and for every course the picture leaves out): each course of
    /// the chain with its rule as the catalog states it ("MTH 122 or placement; and one of CIS 160, CIS 162"), then
    /// the courses that need it, by distance.
    func text(link: (String) -> String, rule: (String) -> Requisite?) -> String {
        let rules = ([code] + above.joined()).compactMap { code in
            rule(code).map { "<li>\(link(code)) needs \(Self.sentence($0, link: link))</li>" }
        }
        let needed = below.enumerated().map { distance, codes in
            let step = distance == 0 ? "directly" : "\(distance + 1) steps away"
            return "<li>Needed by \(step): \(codes.map(link).joined(separator: ", "))</li>"
        }
        return "<ul class=\"map-text\">" + (rules + needed).joined() + "</ul>"
    }

    /// A requisite in words, as a catalog says it: alternatives of courses only as "one of A, B", others joined by
    /// "or"; a group inside a group set off by "; and" / "; or", deeper ones in parentheses; courses through `link`.
    static func sentence(_ requisite: Requisite, link: (String) -> String, nested: Bool = false) -> String {
        switch requisite {
        case .course(let course):
            let notes = [course.minGrade.map { "grade \(esc($0)) or better" }, course.concurrent ? "may be taken at the same time" : nil]
                .compactMap(\.self)
            return link(course.code.description) + (notes.isEmpty ? "" : " (" + notes.joined(separator: ", ") + ")")
        case .standing(let standing, _): return esc(standing) + " standing"
        case .program(let program, _): return esc(program)
        case .permission(let who, _): return "permission of " + esc(who)
        case .exam(let name, let score, _): return esc(name) + (score.map { " " + esc($0) } ?? "")
        case .text(let text): return esc(text)
        case .all(let children, _), .any(let children, _), .atLeast(_, let children, _):
            if children.count == 1 { return sentence(children[0], link: link, nested: nested) }
            let courses = children.allSatisfy { if case .course = $0 { true } else { false } }
            let word: String
            switch requisite {
            case .any: word = "or"
            case .atLeast(let count, _, _): return "\(count) of " + children.map { sentence($0, link: link, nested: true) }.joined(separator: courses ? ", " : "; ")
            default: word = "and"
            }
            if courses, word == "or" { return "one of " + children.map { sentence($0, link: link) }.joined(separator: ", ") }
            let grouped = children.contains { !$0.children.isEmpty }
            let joined = children.map { sentence($0, link: link, nested: true) }.joined(separator: grouped ? "; \(word) " : " \(word) ")
            return nested && grouped ? "(\(joined))" : joined
        }
    }

    /// The course leaves of a requisite, each with the innermost group of alternatives it is in ("one of", "2 of"),
    /// nil when it is required; `groups` gets each group's label, its rule in words and its number of alternatives.
    static func edges(_ requisite: Requisite, group: Int? = nil, groups: inout [(label: String, rule: String, alternatives: Int)])
        -> [(code: String, group: Int?, concurrent: Bool)] {
        switch requisite {
        case .course(let course): return [(course.code.description, group, course.concurrent)]
        case .any(let children, _) where children.count > 1, .atLeast(_, let children, _) where children.count > 1:
            let label = if case .atLeast(let count, _, _) = requisite { "\(count) of" } else { "one of" }
            groups.append((label, sentence(requisite, link: { $0 }), children.count))
            let id = groups.count - 1
            return children.flatMap { edges($0, group: id, groups: &groups) }
        default:
            return requisite.children.flatMap { edges($0, group: group, groups: &groups) }
        }
    }

    /// The picture: boxes a course, prerequisites above, arrows from a prerequisite to the course needing it; the
    /// arrows of alternatives meet at a "one of" mark first, and one that may be taken at the same time is dashed.
    func svg(title: (String) -> String?, href: (String) -> String?, requires: (String) -> [String], rule: (String) -> Requisite?) -> String {
        let (width, height, gap, rowHeight) = (104, 28, 10, 84)
        // Rows top to bottom; each ordered by where its neighbours sit in the row nearer the course, then cut.
        var rows: [[String]] = [[code]], hidden: [Int] = [0]
        func place(_ layers: [[String]], count: Int, upward: Bool) {
            for layer in layers.prefix(count) {
                let near = upward ? rows[0] : rows[rows.count - 1]
                let position = Dictionary(uniqueKeysWithValues: near.enumerated().map { ($1, Double($0)) })
                func weight(_ code: String) -> Double {
                    let neighbours = near.filter { upward ? requires($0).contains(code) : requires(code).contains($0) }.compactMap { position[$0] }
                    return neighbours.isEmpty ? .infinity : neighbours.reduce(0, +) / Double(neighbours.count)
                }
                let ordered = layer.map { ($0, weight($0)) }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.map(\.0)
                let kept = Array(ordered.prefix(Self.drawnPerLayer))
                if upward { rows.insert(kept, at: 0); hidden.insert(layer.count - kept.count, at: 0) } else { rows.append(kept); hidden.append(layer.count - kept.count) }
            }
        }
        place(above, count: Self.drawnLayers.above, upward: true)
        place(below, count: Self.drawnLayers.below, upward: false)
        let columns = rows.indices.map { rows[$0].count + (hidden[$0] > 0 ? 1 : 0) }.max() ?? 1
        let canvas = (w: columns * (width + gap) + gap, h: rows.count * rowHeight)
        var at: [String: (x: Int, y: Int)] = [:], boxes = "", lines = ""
        for (row, codes) in rows.enumerated() {
            let count = codes.count + (hidden[row] > 0 ? 1 : 0)
            let left = (canvas.w - count * (width + gap) + gap) / 2, y = row * rowHeight + 17
            for (column, code) in codes.enumerated() { at[code] = (left + column * (width + gap), y) }
            if hidden[row] > 0 {
                let x = left + codes.count * (width + gap)
                boxes += "<g class=\"more\"><rect x=\"\(x)\" y=\"\(y)\" width=\"\(width)\" height=\"\(height)\" rx=\"4\"/>"
                    + "<text x=\"\(x + width / 2)\" y=\"\(y + 18)\">+\(hidden[row]) more</text></g>\n"
            }
        }
        var marks = ""
        for (index, row) in rows.enumerated() where index > 0 {
            let upper = Set(rows[index - 1])
            for lower in row {
                guard let b = at[lower] else { continue }
                var groups: [(label: String, rule: String, alternatives: Int)] = []
                // A course the rule does not name (a page's list and its sentence disagree) still gets its arrow.
                let named = rule(lower).map { Self.edges($0, groups: &groups) } ?? []
                let plain = requires(lower).filter { code in !named.contains { $0.code == code } }.map { (code: $0, group: Int?.none, concurrent: false) }
                var drawn = Set<String>()
                let edges = (named + plain).filter { upper.contains($0.code) && drawn.insert($0.code).inserted }
                func line(from a: (x: Int, y: Int), to target: (x: Int, y: Int), concurrent: Bool, arrow: Bool, _ code: String) -> String {
                    let classes = [concurrent ? "concurrent" : nil, arrow ? nil : "joins"].compactMap(\.self).joined(separator: " ")
                    let tip = concurrent ? "<title>\(esc(code)) may be taken at the same time as \(esc(lower))</title>" : ""
                    return "<line\(classes.isEmpty ? "" : " class=\"\(classes)\"") x1=\"\(a.x)\" y1=\"\(a.y)\" x2=\"\(target.x)\" y2=\"\(target.y)\">\(tip)</line>\n"
                }
                let top = (x: b.x + width / 2, y: b.y - 2)
                for edge in edges where edge.group == nil {
                    guard let a = at[edge.code] else { continue }
                    lines += line(from: (a.x + width / 2, a.y + height), to: top, concurrent: edge.concurrent, arrow: true, edge.code)
                }
                for (id, group) in groups.enumerated() {
                    let members = edges.filter { $0.group == id }
                    let xs = members.compactMap { at[$0.code].map { $0.x + width / 2 } }
                    guard !xs.isEmpty else { continue }
                    let mark = (x: (xs.reduce(0, +) / xs.count + top.x) / 2, y: b.y - (rowHeight - height) / 2 - 8)
                    // "one of" over a single box would read as no choice: when some alternatives are not boxes
                    // (placement, another course's layer), the mark says there is more.
                    let label = group.label == "one of" && xs.count < group.alternatives ? "or …" : group.label
                    for member in members {
                        guard let a = at[member.code] else { continue }
                        lines += line(from: (a.x + width / 2, a.y + height), to: (mark.x, mark.y), concurrent: member.concurrent, arrow: false, member.code)
                    }
                    lines += line(from: (mark.x, mark.y + 16), to: top, concurrent: false, arrow: true, lower)
                    marks += "<g class=\"alt\"><title>\(esc(lower)) needs \(esc(group.rule))</title><rect x=\"\(mark.x - 26)\" y=\"\(mark.y)\" "
                        + "width=\"52\" height=\"16\" rx=\"8\"/><text x=\"\(mark.x)\" y=\"\(mark.y + 12)\">\(esc(label))</text></g>\n"
                }
            }
        }
        for (code, point) in at.sorted(by: { $0.key < $1.key }) {
            let box = "<rect x=\"\(point.x)\" y=\"\(point.y)\" width=\"\(width)\" height=\"\(height)\" rx=\"4\"/>"
                + "<text x=\"\(point.x + width / 2)\" y=\"\(point.y + 18)\">\(esc(code))</text>"
            let tip = "<title>\(esc(title(code).map { "\(code): \($0)" } ?? "\(code) (not in this catalog)"))</title>"
            if code == self.code {
                boxes += "<g class=\"self\">\(tip)\(box)</g>\n"
            } else if let link = href(code) {
                boxes += "<a href=\"\(link)\">\(tip)\(box)</a>\n"
            } else {
                boxes += "<g class=\"missing\">\(tip)\(box)</g>\n"
            }
        }
        return "<svg class=\"map\" viewBox=\"0 0 \(canvas.w) \(canvas.h)\" width=\"\(canvas.w)\" height=\"\(canvas.h)\" role=\"group\" "
            + "aria-label=\"Prerequisite map of \(esc(code))\">\n<defs><marker id=\"arrow\" viewBox=\"0 0 8 8\" refX=\"8\" refY=\"4\" "
            + "markerWidth=\"8\" markerHeight=\"8\" orient=\"auto\"><path d=\"M0,0L8,4L0,8z\"/></marker></defs>\n"
            + lines + marks + boxes + "</svg>"
    }
}
