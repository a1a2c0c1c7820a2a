import Foundation

extension CatalogSite {
    /// The "what changed" pages, newest first.
    func changesIndex() -> Data {
        let pairs = zip(input.snapshots, input.snapshots.dropFirst()).reversed().map { old, new in
            let diff = Self.diff(old, new)
            return "<li><a href=\"\(Self.changesPath(new))\">\(esc(Self.between(old, new)))</a>: \(esc(DiffReport.summary(diff)))</li>"
        }
        let body = "<h1>What changed</h1>\n" + (pairs.isEmpty ? "<p>One snapshot so far: the next run compares with it.</p>"
            : "<p>Each run's catalog compared with the one before.</p>\n<ul>\(pairs.joined(separator: "\n"))</ul>")
        return page("What changed", up: false, body)
    }

    /// Two snapshots as people name them: "2021-2022 Undergraduate Catalog (1 Aug 2021) → 2022-2023 Undergraduate
    /// Catalog (1 Aug 2022)"; runs of one edition by their days, "2024-2025 Undergraduate Catalog: 1 Aug 2024 → 2 Aug 2024".
    static func between(_ old: Snapshot, _ new: Snapshot) -> String {
        let day = { (snapshot: Snapshot) in Timestamp.day(snapshot.capturedAt) ?? snapshot.capturedAt }
        guard old.editionLabel == new.editionLabel, Timestamp.day(new.editionLabel) == nil else { return "\(old.shownName) → \(new.shownName)" }
        return "\(new.editionLabel): \(day(old)) → \(day(new))"
    }

    static func diff(_ old: Snapshot, _ new: Snapshot) -> CatalogDiff {
        var diff = CatalogDiff.between(old: old.courses.map(ComparableCourse.init), new: new.courses.map(ComparableCourse.init))
        diff.markReturns(old.retired)
        return diff
    }

    /// One pair of snapshots: added, back in the catalog, removed, renumbered, and changed field by field.
    func changesPage(_ old: Snapshot, _ new: Snapshot) -> Data {
        let diff = Self.diff(old, new)
        func section(_ title: String, _ items: [String]) -> String {
            items.isEmpty ? "" : "<section><h2>\(title) (\(items.count))</h2>\n<ul class=\"changes\">\(items.joined(separator: "\n"))</ul></section>\n"
        }
        func course(_ course: some NamedCourse) -> String { "\(courseLink(id: course.id, name: course.name, up: true)) \(esc(course.title))" }
        func changes(_ list: [FieldChange]) -> String {
            guard !list.isEmpty else { return "" }
            return "<table><thead><tr><th scope=\"col\">Field</th><th scope=\"col\">Before</th><th scope=\"col\">After</th></tr></thead><tbody>"
                + list.map { "<tr><th scope=\"row\">\(esc(DiffReport.label($0.field)))</th><td><del>\(esc($0.old.displayText(none: "(none)")))</del></td>"
                    + "<td><ins>\(esc($0.new.displayText(none: "(none)")))</ins></td></tr>" }.joined() + "</tbody></table>"
        }
        let body = "<h1>What changed: \(esc(Self.between(old, new)))</h1>\n<p>\(esc(DiffReport.summary(diff))).</p>\n"
            + section("Added", diff.added.map { "<li>\(course($0))</li>" })
            + section("Back in the catalog", diff.returned.map { "<li>\(course($0))\(esc(DiffReport.lastListed($0, prefix: " (", suffix: ")")))</li>" })
            + section("Removed", diff.removed.map { "<li>\(esc($0.name)) \(esc($0.title))</li>" })
            + section("Renumbered", diff.renumbered.map { "<li>\(esc($0.from.name)) → \(course($0.to))\(changes($0.changes))</li>" })
            + section("Changed", diff.changed.map { "<li>\(course($0))\(changes($0.changes))</li>" })
        return page("What changed", up: true, body)
    }

    /// The fields whose coverage the health page counts, by what a course must have to count.
    static let coverage: [(label: String, has: @Sendable (CourseRecord) -> Bool)] = [
        ("Description", { !$0.description.isEmpty }), ("Credits", { $0.creditsLabel != nil }),
        ("Prerequisites", { $0.prerequisiteString != nil }), ("Level", { $0.level != nil }),
    ]

    /// "normalize: listed again at … with the same title": a warning without its course code, URLs and numbers.
    static func warningKind(_ warning: String) -> String {
        var parts = warning.components(separatedBy: ": ")
        if parts.count > 2, parts[1].count <= 16, parts[1].contains(where: \.isNumber) { parts.remove(at: 1) }
        return parts.joined(separator: ": ").split(separator: " ").map { word in
            word.contains("://") || word.contains(where: \.isNumber) ? "…" : String(word)
        }.joined(separator: " ")
    }

    /// For maintainers: the pages, the run, its warnings by kind, and how many courses of each subject have each field.
    func health() -> Data {
        guard let latest = input.snapshots.last else { return page("Health", up: false, "<h1>Health</h1>\n<p>No snapshot yet.</p>") }
        let pages = latest.pages, report = input.report
        func examples(_ title: String, _ lines: [String]) -> String {
            lines.isEmpty ? "" : "<h3>\(title) (\(lines.count))</h3>\n<ul>" + lines.prefix(20).map { "<li>\(esc($0))</li>" }.joined()
                + (lines.count > 20 ? "<li>and \(lines.count - 20) more</li>" : "") + "</ul>\n"
        }
        var body = "<h1>Health</h1>\n<h2>Pages</h2>\n<p>Snapshot of \(esc(latest.shownName)): \(pages.expected) expected, \(pages.fetched) fetched, "
            + "\(pages.failed) failed, \(pages.unparsed.count) fetched but not read (parse gaps).</p>\n"
            + examples("Not read", pages.unparsed.map { "\($0.url): \($0.reason)" })
        body += "<h2>The last run</h2>\n"
        if let report {
            // Counts, not timings: the same run gives the same page (run-report.json has the seconds).
            let stages = report.stages.map { stage in
                "<tr><td>\(esc(stage.name))</td><td>"
                    + esc(stage.counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")) + "</td></tr>"
            }
            body += "<p>Started \(esc(Timestamp.dayAndTime(report.startedAt))); outcome: \(esc(report.outcome)) (exit status \(report.exitStatus)).</p>\n"
                + "<table><thead><tr><th scope=\"col\">Stage</th><th scope=\"col\">Counts</th></tr></thead><tbody>"
                + stages.joined() + "</tbody></table>\n"
                + examples("Failed pages", report.failedPages.map { "\($0.url): \($0.reason)" })
                + examples("Not fetched when the deadline came", report.unfetchedAtDeadline)
            let kinds = Dictionary(grouping: report.warnings, by: Self.warningKind).sorted { ($1.value.count, $0.key) < ($0.value.count, $1.key) }
            body += "<h2>Warnings by kind</h2>\n" + (kinds.isEmpty ? "<p>None.</p>\n" : kinds.map { kind, list in
                "<details><summary>\(list.count) × \(esc(kind))</summary><ul>" + list.prefix(5).map { "<li>\(esc($0))</li>" }.joined() + "</ul></details>"
            }.joined(separator: "\n"))
        } else {
            body += "<p>No run-report.json beside the outputs.</p>\n"
        }
        let previous = input.snapshots.dropLast().last
        let before = Dictionary(grouping: previous?.courses ?? [], by: \.subject)
        let rows = subjects.map { subject, list in
            let old = before[subject] ?? []
            let cells = Self.coverage.map { field in
                let now = list.filter(field.has).count, then = old.filter(field.has).count
                let drop = previous != nil && now < then
                return "<td\(drop ? " class=\"drop\"" : "")>\(now)\(previous == nil || now == then ? "" : " (was \(then))")</td>"
            }
            return "<tr><th scope=\"row\"><a href=\"\(Self.subjectPath(subject))\">\(esc(subject))</a></th><td>\(list.count)\(previous == nil || old.count == list.count ? "" : " (was \(old.count))")</td>"
                + cells.joined() + "</tr>"
        }
        body += "<h2>Fields by subject</h2>\n<p>How many courses of each subject have each field"
            + (previous.map { ", against the snapshot of \(esc($0.shownName)); a fall is marked" } ?? "") + ".</p>\n"
            + "<div class=\"wide\"><table><thead><tr><th scope=\"col\">Subject</th><th scope=\"col\">Courses</th>"
            + Self.coverage.map { "<th scope=\"col\">\($0.label)</th>" }.joined() + "</tr></thead><tbody>\n" + rows.joined(separator: "\n")
            + "</tbody></table></div>"
        return page("Health", up: false, body)
    }
}
