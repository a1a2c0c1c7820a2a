import Foundation

/// Which catalogs of a configuration each of N workers runs. Catalogs that share a politeness key (a host, a
/// registered domain, or a `politenessGroup`) always land in one shard, so no two workers crawl one server at once;
/// the shards are balanced by pages, and the same catalogs, settings and page counts always give the same plan.
public struct ShardPlan: Sendable, Equatable {
    public struct Shard: Sendable, Equatable {
        public var index: Int
        /// The shard's politeness keys, each with its catalogs' ids in configuration order.
        public var groups: [Group]
        /// The pages its catalogs had at their last snapshots (the median for a catalog never run).
        public var pages: Int

        public var catalogs: [String] { groups.flatMap(\.catalogs) }
    }

    /// Catalogs crawled one after another because they share a key.
    public struct Group: Sendable, Equatable, Codable {
        /// The smallest of the keys its catalogs share (a catalog on several hosts joins each host's group).
        public var key: String
        public var catalogs: [String]
        public var pages: Int
    }

    public var shards: [Shard]

    /// Plans `count` shards: groups by key, then the heaviest group first to the lightest shard (ties by key, then
    /// by shard index), which keeps the slowest shard within one group of the best split.
    public init(catalogs: [CatalogConfig], settings: FetchSettings, pages: [String: Int], count: Int) {
        let known = pages.values.sorted()
        let median = known.isEmpty ? 1 : known[known.count / 2]
        let weight = { (id: String) in max(1, pages[id] ?? median) }
        // Union–find over the keys: a catalog with start URLs on two hosts ties those hosts together.
        var parent: [String: String] = [:]
        func root(_ key: String) -> String {
            var key = key
            while let up = parent[key], up != key { key = up }
            return key
        }
        let keysOf = catalogs.map { Self.keys(of: $0, settings: settings) }
        for keys in keysOf {
            for key in keys where parent[key] == nil { parent[key] = key }
            for key in keys.dropFirst() {
                let (a, b) = (root(keys[0]), root(key))
                if a != b { parent[max(a, b)] = min(a, b) }
            }
        }
        var members: [String: [Int]] = [:]
        for (position, keys) in keysOf.enumerated() { members[root(keys[0]), default: []].append(position) }
        var groups = members.map { key, positions in
            Group(key: key, catalogs: positions.map { catalogs[$0].id }, pages: positions.map { weight(catalogs[$0].id) }.reduce(0, +))
        }
        groups.sort { ($0.pages, $1.key) > ($1.pages, $0.key) }
        var shards = (0..<max(1, count)).map { Shard(index: $0, groups: [], pages: 0) }
        for group in groups {
            let lightest = shards.indices.min { (shards[$0].pages, $0) < (shards[$1].pages, $1) } ?? 0
            shards[lightest].groups.append(group)
            shards[lightest].pages += group.pages
        }
        for index in shards.indices { shards[index].groups.sort { $0.key < $1.key } }
        self.shards = shards
    }

    /// The keys a catalog's politeness is bound to: its group's name, else each start URL's host (with a port that is
    /// not the scheme's) or registered domain. A catalog read from files has a key of its own.
    public static func keys(of catalog: CatalogConfig, settings: FetchSettings) -> [String] {
        if let group = catalog.politenessGroup { return ["group:\(group)"] }
        guard case let .http(urls) = catalog.source else { return ["catalog:\(catalog.id)"] }
        let keys = urls.compactMap(Origin.init).map { origin -> String in
            let port = Origin.defaultPorts[origin.scheme] == origin.port ? "" : ":\(origin.port)"
            switch settings.politeness {
            case .host: return origin.host + port
            case .registeredDomain: return registeredDomain(origin.host) + port
            }
        }
        let unique = Array(Set(keys)).sorted()
        return unique.isEmpty ? ["catalog:\(catalog.id)"] : unique
    }

    /// Second-level labels that country registries sell under (`ac.uk`, `edu.au`): a domain under one keeps three labels.
    static let countrySecondLevels: Set<String> = ["ac", "co", "com", "edu", "gov", "net", "org", "sch"]

    /// The domain a registrant holds: the last two labels, or three under a country's `ac`, `co`, `edu`… (a short
    /// list, not the Public Suffix List); an IP address is its own.
    public static func registeredDomain(_ host: String) -> String {
        let labels = host.split(separator: ".")
        if labels.allSatisfy({ $0.allSatisfy(\.isNumber) }) || host.contains(":") || labels.count <= 2 { return host }
        let keep = labels.last?.count == 2 && countrySecondLevels.contains(String(labels[labels.count - 2])) ? 3 : 2
        return labels.suffix(keep).joined(separator: ".")
    }

    /// Each catalog's pages at its last snapshot, for those that have one that can be read.
    public static func lastPageCounts(_ config: PipelineConfig) -> [String: Int] {
        var counts: [String: Int] = [:]
        for catalog in config.catalogs {
            if let latest = try? config.scoped(to: catalog).outputs.store(for: catalog.id).latestHeader() {
                counts[catalog.id] = latest.header.pages.expected
            }
        }
        return counts
    }

    /// Reads "I/N" (shard I of N, from 0).
    public static func parseShard(_ text: String) -> (index: Int, count: Int)? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, count <= 10_000,
              (0..<count).contains(index) else { return nil }
        return (index, count)
    }
}

extension PipelineConfig {
    /// The configuration one catalog of a shard runs with: its outputs, site and response cache in folders of its own
    /// named by its id (under the configured ones), so each keeps its own lock, report and guards; the feed's default
    /// title and id name it rather than the first catalog.
    public func scoped(to catalog: CatalogConfig) -> PipelineConfig {
        var scoped = self
        scoped.catalogs = [catalog]
        scoped.outputs.directory = outputs.directory.appendingPathComponent(catalog.id)
        scoped.outputs.site = outputs.site?.appendingPathComponent(catalog.id)
        scoped.fetch.cacheDirectory = fetch.cacheDirectory?.appendingPathComponent(catalog.id)
        if let first = catalogs.first {
            if news.feedTitle == "\(first.name): new courses" { scoped.news.feedTitle = "\(catalog.name): new courses" }
            if news.feedID == "urn:gvingest:\(first.id):news" { scoped.news.feedID = "urn:gvingest:\(catalog.id):news" }
        }
        return scoped
    }
}
