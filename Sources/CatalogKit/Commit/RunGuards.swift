/// A reason a run must not publish.
public enum GuardViolation: Sendable, Equatable, CustomStringConvertible {
    case failedPages(failed: Int, expected: Int)
    case tooFewCourses(found: Int, minimum: Int)
    case tooManyRemovals(removed: Int, previous: Int, maximumFraction: Double)
    case tooManyUnparsed(unparsed: Int, fetched: Int, maximumFraction: Double)

    /// Why, and how to override when the data is right after all.
    public var description: String {
        switch self {
        case let .failedPages(failed, expected):
            return "\(failed) of \(expected) pages could not be fetched, so the catalog may be incomplete; fix the fetch and run again, "
                + "or set guards.allowFailedPages to true to publish without them"
        case let .tooFewCourses(found, minimum):
            return "only \(found) course\(found == 1 ? "" : "s") found, fewer than guards.minimumCourses (\(minimum)); check the crawl, "
                + "or lower guards.minimumCourses if the catalog really shrank"
        case let .tooManyUnparsed(unparsed, fetched, maximum):
            return "\(unparsed) of \(fetched) fetched pages (\(Self.percent(Double(unparsed) / Double(max(fetched, 1))))) gave no course, "
                + "more than guards.maximumUnparsedFraction allows (\(Self.percent(maximum))): the site's layout may have changed; "
                + "see the parse gaps in the run report, and check one page with 'gvingest parse URL'"
        case let .tooManyRemovals(removed, previous, maximum):
            return "\(removed) of \(previous) courses (\(Self.percent(Double(removed) / Double(max(previous, 1))))) would be removed, "
                + "more than guards.maximumRemovalFraction allows (\(Self.percent(maximum))); if the removals are real, "
                + "accept them"
        }
    }

    /// What overrides it from the command line, when something does (the settings are named in the description).
    public var remedy: CatalogError.Remedy? {
        if case .tooManyRemovals = self { .acceptRemovals } else { nil }
    }

    static func percent(_ fraction: Double) -> String {
        let tenths = (fraction * 1000).rounded() / 10
        return "\(tenths.exactWholeNumber.map(String.init) ?? String(tenths)) %"
    }
}

/// The checks that keep a bad crawl from replacing a good catalog: they fail closed.
public enum RunGuards {
    /// Every violation of `settings` by a run; the removal guard waived by `acceptRemovals` and on a first run.
    public static func check(pages: PageCounts, courseCount: Int, previousCourseCount: Int?, removedCount: Int,
                             settings: GuardSettings, acceptRemovals: Bool) -> [GuardViolation] {
        var violations: [GuardViolation] = []
        if pages.failed > 0, !settings.allowFailedPages {
            violations.append(.failedPages(failed: pages.failed, expected: pages.expected))
        }
        if pages.fetched > 0, Double(pages.unparsed.count) / Double(pages.fetched) > settings.maximumUnparsedFraction {
            violations.append(.tooManyUnparsed(unparsed: pages.unparsed.count, fetched: pages.fetched,
                                               maximumFraction: settings.maximumUnparsedFraction))
        }
        if courseCount < settings.minimumCourses {
            violations.append(.tooFewCourses(found: courseCount, minimum: settings.minimumCourses))
        }
        if let previous = previousCourseCount, previous > 0, !acceptRemovals,
           Double(removedCount) / Double(previous) > settings.maximumRemovalFraction {
            violations.append(.tooManyRemovals(removed: removedCount, previous: previous, maximumFraction: settings.maximumRemovalFraction))
        }
        return violations
    }
}
