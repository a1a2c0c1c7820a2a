import Foundation
import Testing
@testable import CatalogKit

/// Layouts met on catalogs the project had not seen, each written here in the smallest form that shows it.
@Suite struct UnseenLayoutTests {
    /// "CODE. Title. Credits": a heading that puts a period after its code closes its title with one too.
    @Test(arguments: [
        ("MATH 92. Beginning Algebra Review. 3 units", "Beginning Algebra Review", "3"),
        ("MATH 304. Vector Analysis.\n4 units", "Vector Analysis", "4"),
        ("S E 329.  Software Project Management.", "Software Project Management", nil),
        ("CS 5004. Object-Oriented Design. (4 Hours)", "Object-Oriented Design", "4 Hours"),
        ("HIST 300. Topics in the U.S. ... 3 units", "Topics in the U.S. ...", "3"),
        ("CIS 452 - Operating Systems Concepts.", "Operating Systems Concepts.", nil),
    ] as [(String, String, String?)])
    func aHeadingsOwnClosingPeriodIsNotTheTitles(_ text: String, _ title: String, _ credits: String?) throws {
        let heading = try #require(CourseHeading.parseSplittingCredits(text))
        #expect(heading.title == title)
        #expect(heading.credits == credits)
    }
}
