import Foundation
import Testing
@testable import CatalogKit

/// The `outputs`, `news` and `guards` sections of pipeline.json.
@Suite struct OutputConfigTests {
    static let catalog = #""catalogs": [{"id": "gv", "name": "GV Catalog", "system": "gvsu", "source": {"directory": "pages"}}]"#

    static func config(_ sections: String) throws -> PipelineConfig {
        try PipelineConfig.parse(Data("{\"schemaVersion\": 1, \(catalog)\(sections.isEmpty ? "" : ", " + sections)}".utf8),
                                 file: PipelineConfigTests.base)
    }

    static func issues(_ sections: String) -> [String] {
        PipelineConfigTests.issues("{\"schemaVersion\": 1, \(catalog), \(sections)}")
    }

    @Test func defaultsNameTheFirstCatalogAndLiveUnderOut() throws {
        let config = try Self.config("")
        #expect(config.outputs.directory == URL(fileURLWithPath: "/project/out"))
        #expect(config.outputs.snapshots == URL(fileURLWithPath: "/project/out/snapshots"))
        #expect(config.outputs.keepSnapshots == 10)
        #expect(config.outputs.site == nil)
        #expect(config.outputs.store(for: "gv").directory == URL(fileURLWithPath: "/project/out/snapshots/gv"))
        #expect(config.news == NewsSettings(feedTitle: "GV Catalog: new courses", feedID: "urn:gvingest:gv:news"))
        #expect(config.guards == GuardSettings(minimumCourses: 1, maximumRemovalFraction: 0.1, allowFailedPages: false))
    }

    @Test func everyKeyIsRead() throws {
        let config = try Self.config("""
        "outputs": {"directory": "public", "snapshots": "state/snapshots", "keepSnapshots": 4, "site": "public/site"},
        "news": {"featured": {"subjects": ["cis", "MTH"], "levels": ["graduate"]}, "announceRemoved": true,
                 "announceChanged": true, "feedTitle": "New at GV", "feedId": "https://example.edu/news.atom"},
        "guards": {"minimumCourses": 500, "maximumRemovalFraction": 0.25, "allowFailedPages": true}
        """)
        #expect(config.outputs == OutputSettings(directory: URL(fileURLWithPath: "/project/public"),
                                                 snapshots: URL(fileURLWithPath: "/project/state/snapshots"), keepSnapshots: 4,
                                                 site: URL(fileURLWithPath: "/project/public/site")))
        #expect(config.news == NewsSettings(featuredSubjects: ["CIS", "MTH"], featuredLevels: [.graduate], announceRemoved: true,
                                            announceChanged: true, feedTitle: "New at GV", feedID: "https://example.edu/news.atom"))
        #expect(config.guards == GuardSettings(minimumCourses: 500, maximumRemovalFraction: 0.25, allowFailedPages: true))
        // A whole number is a fraction too.
        #expect(try Self.config(#""guards": {"maximumRemovalFraction": 1}"#).guards.maximumRemovalFraction == 1)
    }

    @Test func wrongValuesNameTheirPathAndTheExpectedForm() {
        let found = Self.issues("""
        "outputs": {"directory": "/var/www", "snapshots": "../state", "keepSnapshots": 1, "site": "../www"},
        "news": {"featured": {"subjects": ["C1S"], "levels": ["masters"]}, "announceRemoved": "yes", "feedId": "not an iri"},
        "guards": {"minimumCourses": -1, "maximumRemovalFraction": 1.5, "allowFailedPages": 0}
        """)
        for expected in [
            "outputs.directory: expected a path inside /project (no \"..\", not absolute), got \"/var/www\"",
            "outputs.snapshots: expected a path inside /project (no \"..\", not absolute), got \"../state\"",
            "outputs.keepSnapshots: expected an integer from 2 to 1000, got 1",
            "outputs.site: expected a path inside /project (no \"..\", not absolute), got \"../www\"",
            "news.featured.subjects[0]: expected a subject code of 1 to 6 letters, got \"C1S\"",
            "news.featured.levels[0]: expected one of developmental, undergraduate, graduate, doctoral, got \"masters\"",
            "news.announceRemoved: expected true or false, got \"yes\"",
            "news.feedId: expected an absolute IRI such as \"urn:gvingest:gvsu:news\" or \"https://…\", got \"not an iri\"",
            "guards.minimumCourses: expected an integer from 0 to 1000000, got -1",
            "guards.maximumRemovalFraction: expected a number from 0.0 to 1.0, got 1.5",
            "guards.allowFailedPages: expected true or false, got 0",
        ] {
            #expect(found.contains(expected), "missing: \(expected)\nin: \(found)")
        }
    }

    @Test func unknownKeysGetADidYouMean() {
        let found = Self.issues(#""output": {}, "outputs": {"keepSnapshot": 3}, "news": {"featured": {"subject": []}, "annouceChanged": true}, "guards": {"allowFailedPage": true}"#)
        for expected in ["output: unknown key (did you mean \"outputs\"?)", "outputs.keepSnapshot: unknown key (did you mean \"keepSnapshots\"?)",
                         "news.featured.subject: unknown key (did you mean \"subjects\"?)",
                         "news.annouceChanged: unknown key (did you mean \"announceChanged\"?)",
                         "guards.allowFailedPage: unknown key (did you mean \"allowFailedPages\"?)"] {
            #expect(found.contains { $0.hasPrefix(expected) }, "missing: \(expected)\nin: \(found)")
        }
    }

    @Test func theRepositoryConfigurationsHaveTheNewSections() throws {
        let root = try PipelineConfig.load(TestPaths.packageRoot.appendingPathComponent("pipeline.json"))
        #expect(root.outputs.directory == TestPaths.packageRoot.appendingPathComponent("out").standardizedFileURL)
        #expect(root.news.featuredSubjects == ["CIS"])
        #expect(root.news.feedID == "urn:gvingest:gvsu:news")
        #expect(root.guards.minimumCourses == 50)
        let fixture = try PipelineConfig.load(TestPaths.fixtures.appendingPathComponent("pipeline.json"))
        #expect(fixture.outputs.snapshots == TestPaths.fixtures.appendingPathComponent("out/snapshots").standardizedFileURL)
        #expect(fixture.outputs.keepSnapshots == 3)
    }

    @Test func featuringNeedsEveryListGiven() {
        let both = NewsSettings(featuredSubjects: ["CIS"], featuredLevels: [.graduate])
        #expect(both.isFeatured(subject: "CIS", level: .graduate))
        #expect(!both.isFeatured(subject: "CIS", level: .undergraduate))
        #expect(!both.isFeatured(subject: "MTH", level: .graduate))
        #expect(NewsSettings(featuredSubjects: ["CIS"]).isFeatured(subject: "cis", level: nil))
        #expect(NewsSettings(featuredLevels: [.doctoral]).isFeatured(subject: "BIO", level: .doctoral))
        #expect(!NewsSettings().isFeatured(subject: "CIS", level: .graduate))
    }
}
