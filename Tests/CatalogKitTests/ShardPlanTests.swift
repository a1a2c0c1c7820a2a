import Foundation
import Testing
@testable import CatalogKit

@Suite struct ShardPlanTests {
    static func catalog(_ id: String, _ urls: [String], group: String? = nil) -> CatalogConfig {
        CatalogConfig(id: id, name: id.uppercased(), system: .acalog, source: .http(startURLs: urls.compactMap(URL.init(string:))),
                      politenessGroup: group)
    }

    static let tenants = [
        catalog("a1", ["https://a.catalog.acalog.com/index.php"]),
        catalog("a2", ["https://b.catalog.acalog.com/index.php"]),
        catalog("x", ["https://catalog.x.edu/courses/"]),
        catalog("x2", ["https://catalog.x.edu/graduate/"]),
        catalog("y", ["http://127.0.0.1:8081/"]),
        catalog("z", ["http://127.0.0.1:8082/"]),
        catalog("w", ["https://courses.w.ac.uk/"]),
    ]

    @Test func catalogsOnOneHostShareAShardAndTheDomainJoinsTenantsWhenAsked() {
        var settings = FetchSettings()
        let byHost = ShardPlan(catalogs: Self.tenants, settings: settings, pages: [:], count: 7)
        let shardOf = { (plan: ShardPlan, id: String) in plan.shards.first { $0.catalogs.contains(id) }?.index }
        #expect(shardOf(byHost, "x") == shardOf(byHost, "x2"))
        #expect(shardOf(byHost, "a1") != shardOf(byHost, "a2"), "two Acalog tenants are two hosts")
        #expect(shardOf(byHost, "y") != shardOf(byHost, "z"), "another port of 127.0.0.1 is another host")
        #expect(byHost.shards.flatMap(\.catalogs).sorted() == Self.tenants.map(\.id).sorted())
        settings.politeness = .registeredDomain
        let byDomain = ShardPlan(catalogs: Self.tenants, settings: settings, pages: [:], count: 7)
        #expect(shardOf(byDomain, "a1") == shardOf(byDomain, "a2"))
        #expect(byDomain.shards.flatMap(\.groups).first { $0.catalogs.contains("a1") }?.key == "acalog.com")
        #expect(ShardPlan.keys(of: Self.tenants[6], settings: settings) == ["w.ac.uk"])
        #expect(ShardPlan.keys(of: Self.tenants[4], settings: settings) == ["127.0.0.1:8081"])
    }

    @Test func aGroupAndASharedHostTieCatalogsTogether() {
        let catalogs = [Self.catalog("p", ["https://one.example.org/"], group: "provider"),
                        Self.catalog("q", ["https://two.example.net/"], group: "provider"),
                        // r spans two hosts: each other catalog on either of them joins its group.
                        Self.catalog("r", ["https://three.example/", "https://four.example/"]),
                        Self.catalog("s", ["https://four.example/x"]), Self.catalog("t", ["https://three.example/y"])]
        let plan = ShardPlan(catalogs: catalogs, settings: FetchSettings(), pages: [:], count: 5)
        let groups = plan.shards.flatMap(\.groups).map(\.catalogs).sorted { $0[0] < $1[0] }
        #expect(groups == [["p", "q"], ["r", "s", "t"]])
        #expect(plan.shards.filter { $0.catalogs.isEmpty }.count == 3)
    }

    @Test func shardsAreBalancedByLastPagesWithTheMedianForCatalogsNeverRun() {
        let catalogs = (0..<6).map { Self.catalog("c\($0)", ["https://h\($0).example/"]) }
        // c5 never ran: it counts as the median of the others (400).
        let pages = ["c0": 900, "c1": 500, "c2": 400, "c3": 300, "c4": 100]
        let plan = ShardPlan(catalogs: catalogs, settings: FetchSettings(), pages: pages, count: 2)
        #expect(plan.shards.map(\.pages) == [1_300, 1_300])
        #expect(plan.shards[0].catalogs == ["c0", "c5"])
        #expect(plan.shards[1].catalogs == ["c1", "c2", "c3", "c4"])
        // The same input, in another order, gives the same plan.
        #expect(ShardPlan(catalogs: catalogs.reversed(), settings: FetchSettings(), pages: pages, count: 2).shards.map(\.catalogs)
                == plan.shards.map(\.catalogs))
    }

    @Test func aShardIsReadAsIOfN() {
        #expect(ShardPlan.parseShard("0/1")! == (0, 1))
        #expect(ShardPlan.parseShard("3/4")! == (3, 4))
        for bad in ["4/4", "-1/4", "1/0", "1", "a/b", "1/2/3", "/4"] { #expect(ShardPlan.parseShard(bad) == nil, "\(bad)") }
    }

    @Test func theConfigurationNamesGroupsPolitenessAndConcurrentHosts() throws {
        let config = try PipelineConfig.parse(Data("""
        {"schemaVersion": 1, "catalogs": [{"id": "a", "name": "A", "system": "acalog", "politenessGroup": "acalog",
          "source": {"http": {"startUrls": ["https://a.catalog.acalog.com/"]}}}],
         "fetch": {"politeness": "registeredDomain", "maxConcurrentHosts": 2}}
        """.utf8), file: PipelineConfigTests.base)
        #expect(config.catalogs[0].politenessGroup == "acalog")
        #expect(config.fetch.politeness == .registeredDomain)
        #expect(config.fetch.maximumConcurrentHosts == 2)
        let issues = PipelineConfigTests.issues("""
        {"schemaVersion": 1, "catalogs": [{"id": "a", "name": "A", "system": "acalog", "politenessGroup": "",
          "source": {"http": {"startUrls": ["https://a.example/"]}}}], "fetch": {"politeness": "domain", "maxConcurrentHosts": 0}}
        """)
        #expect(issues.contains { $0.hasPrefix("catalogs[0].politenessGroup: expected a non-empty string") }, "\(issues)")
        #expect(issues.contains { $0.hasPrefix("fetch.politeness: expected one of host, registeredDomain") }, "\(issues)")
        #expect(issues.contains { $0.hasPrefix("fetch.maxConcurrentHosts: expected an integer from 1 to 256") }, "\(issues)")
    }

    @Test func aCatalogOfAShardWritesIntoItsOwnFolderWithItsOwnFeed() throws {
        let config = try PipelineConfig.parse(Data("""
        {"schemaVersion": 1, "catalogs": [
          {"id": "a", "name": "A", "system": "gvsu", "source": {"directory": "a"}},
          {"id": "b", "name": "B", "system": "gvsu", "source": {"directory": "b"}}],
         "fetch": {"cacheDirectory": "cache"}, "outputs": {"directory": "out", "site": "site"}}
        """.utf8), file: PipelineConfigTests.base)
        let b = config.scoped(to: config.catalogs[1])
        #expect(b.catalogs.map(\.id) == ["b"])
        #expect(b.outputs.directory.path == "/project/out/b")
        #expect(b.outputs.store(for: "b").directory.path == "/project/out/snapshots/b")
        #expect(b.outputs.site?.path == "/project/site/b")
        #expect(b.fetch.cacheDirectory?.path == "/project/cache/b")
        #expect(b.news.feedID == "urn:gvingest:b:news")
        #expect(b.news.feedTitle == "B: new courses")
    }
}
