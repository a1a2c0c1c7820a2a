import Foundation
import Testing
@testable import CatalogKit

@Suite struct ParseGapTests {
    static func pages(fetched: Int, unparsed: Int) -> PageCounts {
        PageCounts(expected: fetched, fetched: fetched, failed: 0,
                   unparsed: (0..<unparsed).map { ParseGap(url: "https://example.edu/c/\($0)", reason: "no course found") })
    }

    @Test func gapsUpToTheFractionPassAndMoreFailClosed() {
        let settings = GuardSettings()
        #expect(settings.maximumUnparsedFraction == 0.02)
        #expect(RunGuards.check(pages: Self.pages(fetched: 100, unparsed: 2), courseCount: 98, previousCourseCount: nil, removedCount: 0,
                                settings: settings, acceptRemovals: false).isEmpty)
        let refused = RunGuards.check(pages: Self.pages(fetched: 100, unparsed: 3), courseCount: 97, previousCourseCount: nil,
                                      removedCount: 0, settings: settings, acceptRemovals: false)
        #expect(refused == [.tooManyUnparsed(unparsed: 3, fetched: 100, maximumFraction: 0.02)])
        #expect(refused.first?.description.contains("3 of 100 fetched pages (3 %) gave no course") == true)
    }

    @Test func theGuardIsReadFromTheConfigurationWithItsRange() throws {
        let good = try PipelineConfig.parse(Data(#"{"schemaVersion": 1, "catalogs": [{"id": "x", "name": "X", "system": "acalog", "source": {"directory": "p"}}], "guards": {"maximumUnparsedFraction": 0.1}}"#.utf8), file: URL(fileURLWithPath: "/tmp/pipeline.json"))
        #expect(good.guards.maximumUnparsedFraction == 0.1)
        #expect(throws: (any Error).self) {
            try PipelineConfig.parse(Data(#"{"schemaVersion": 1, "catalogs": [{"id": "x", "name": "X", "system": "acalog", "source": {"directory": "p"}}], "guards": {"maximumUnparsedFraction": 2}}"#.utf8), file: URL(fileURLWithPath: "/tmp/pipeline.json"))
        }
    }

    @Test func snapshotsKeepTheirGaps() throws {
        let pages = Self.pages(fetched: 10, unparsed: 1)
        let (snapshot, _) = Snapshot.capture(catalogID: "x", source: .object([:]), pages: pages, courses: [], previous: nil,
                                             at: Date(timeIntervalSince1970: 0))
        let read = try Snapshot(bytes: snapshot.encoded())
        #expect(read.pages == pages)
    }
}
