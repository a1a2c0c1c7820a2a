/// The rules of a robots.txt for one user agent: the longest matching Allow/Disallow wins (RFC 9309).
public struct RobotsPolicy: Sendable {
    typealias Rule = (allow: Bool, pattern: String)

    var rules: [Rule]
    /// Crawl-delay for our agent, when the file sets one (seconds).
    public var crawlDelay: Double?

    /// A policy that allows everything (no robots.txt, or a 4xx for it).
    public static let allowAll = RobotsPolicy(parsing: "", userAgent: "")

    /// The most of a robots.txt that is fetched: a larger one is not fetched at all (and allows nothing).
    public static let maximumBytes = 512 * 1024
    /// The most rules kept for our agent (every URL is checked against each); a file with more allows nothing.
    public static let maximumRules = 2_000

    /// Why the file was not taken as written (too many rules), or nil.
    public var refusal: String?

    /// Reads robots.txt text for a user agent; the group naming our product token wins over `*`.
    public init(parsing text: String, userAgent: String) {
        let token = userAgent.split(separator: "/").first.map { $0.lowercased() } ?? userAgent.lowercased()
        var groups: [(agents: [String], rules: [Rule], delay: Double?)] = []
        var lastWasAgent = false
        for rawLine in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let key = parts[0].trimmingSpaces().lowercased()
            let value = String(parts[1].trimmingSpaces())
            switch key {
            case "user-agent":
                if lastWasAgent, !groups.isEmpty {
                    groups[groups.count - 1].agents.append(value.lowercased())
                } else {
                    groups.append(([value.lowercased()], [], nil))
                }
            case "allow", "disallow":
                // An empty Disallow allows everything; it adds no rule.
                guard !groups.isEmpty, !value.isEmpty else { break }
                groups[groups.count - 1].rules.append((key == "allow", value))
            case "crawl-delay":
                if !groups.isEmpty, let delay = Double(value) { groups[groups.count - 1].delay = delay }
            default:
                break
            }
            // Consecutive User-agent lines open one group.
            lastWasAgent = key == "user-agent"
        }
        let mine = groups.filter { $0.agents.contains { !$0.isEmpty && $0 != "*" && token.hasPrefix($0) } }
        let chosen = mine.isEmpty ? groups.filter { $0.agents.contains("*") } : mine
        rules = chosen.flatMap(\.rules)
        crawlDelay = chosen.compactMap(\.delay).max()
        if rules.count > Self.maximumRules {
            refusal = "robots.txt has \(rules.count) rules for this agent, more than \(Self.maximumRules); nothing is crawled"
            rules = [(false, "/")]
        }
    }

    /// Whether a path (with its query) may be fetched: the longest matching rule decides, Allow when two are as long.
    public func allows(_ pathAndQuery: String) -> Bool {
        let matches = rules.compactMap { rule in
            Self.match(rule.pattern, pathAndQuery).map { (length: $0, allow: rule.allow) }
        }
        return matches.max { ($0.length, $0.allow ? 1 : 0) < ($1.length, $1.allow ? 1 : 0) }?.allow ?? true
    }

    /// The pattern's length if a robots pattern (`*`, `$` anchor, else a prefix) matches. Backtracking only to the
    /// last star: O(pattern × path), so "*****…" cannot stall a crawl.
    static func match(_ pattern: String, _ path: String) -> Int? {
        let anchored = pattern.hasSuffix("$")
        var body = Array(anchored ? String(pattern.dropLast()) : pattern)
        // An unanchored rule matches a prefix: the same as a trailing star.
        if !anchored { body.append("*") }
        let target = Array(path)
        var p = 0, t = 0
        var star: Int?
        var starTarget = 0
        while t < target.count {
            if p < body.count, body[p] == "*" {
                star = p
                starTarget = t
                p += 1
            } else if p < body.count, body[p] == target[t] {
                p += 1
                t += 1
            } else if let lastStar = star {
                p = lastStar + 1
                starTarget += 1
                t = starTarget
            } else {
                return nil
            }
        }
        while p < body.count, body[p] == "*" { p += 1 }
        return p == body.count ? pattern.count : nil
    }
}

extension Substring {
    func trimmingSpaces() -> Substring {
        drop { $0 == " " || $0 == "\t" }.trimmingTrailingSpaces()
    }
}
