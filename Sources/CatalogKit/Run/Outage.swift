/// A source down for now is not bad data: a temporary failure, naming the cause, with no advice to loosen the guards.
public enum Outage {
    /// Why the source is unavailable, when every failed page failed for a passing reason and the guards would refuse.
    public static func cause(of loaded: CrawlReport, allowFailedPages: Bool) -> String? {
        guard !loaded.failures.isEmpty, loaded.failures.allSatisfy(\.temporary),
              !allowFailedPages || loaded.pagesFetched == 0 else { return nil }
        // The commonest reason stands for all (an unreachable host fails every page alike); ties go to the first URL.
        let counts = Dictionary(loaded.failures.map { ($0.reason, 1) }, uniquingKeysWith: +)
        guard let commonest = loaded.failures.max(by: { (counts[$0.reason, default: 0], $1.url) < (counts[$1.reason, default: 0], $0.url) })
        else { return nil }
        let reason = commonest.reason
        let others = loaded.failures.count - counts[reason, default: 0]
        let more = others > 0 ? " (\(others) other page\(others == 1 ? "" : "s") failed otherwise)" : ""
        return "source unavailable for now: \(reason)\(more); \(loaded.pagesFailed) of \(loaded.pagesExpected) pages not fetched, "
            + "nothing written; run again later"
    }
}
