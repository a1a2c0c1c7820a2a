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

    /// The lists for people who do not see the picture (and for every course the picture leaves out).
    func text(link: (String) -> String) -> String {
        func list(_ layers: [[String]], _ direction: String) -> String {
            layers.enumerated().map { distance, codes in
                let step = distance == 0 ? "directly" : "\(distance + 1) steps away"
                return "<li>\(direction) \(step): \(codes.map(link).joined(separator: ", "))</li>"
            }.joined()
        }
        return "<ul class=\"map-text\">" + list(above, "Needs") + list(below, "Needed by") + "</ul>"
    }

    /// The picture: boxes a course, prerequisites above, arrows from a prerequisite to the course needing it.
    func svg(title: (String) -> String?, href: (String) -> String?, requires: (String) -> [String]) -> String {
        let (width, height, gap, rowHeight) = (104, 28, 10, 62)
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
        for (index, row) in rows.enumerated() where index > 0 {
            for upper in rows[index - 1] {
                for lower in row where requires(lower).contains(upper) {
                    guard let a = at[upper], let b = at[lower] else { continue }
                    lines += "<line x1=\"\(a.x + width / 2)\" y1=\"\(a.y + height)\" x2=\"\(b.x + width / 2)\" y2=\"\(b.y - 2)\"/>\n"
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
            + lines + boxes + "</svg>"
    }
}
