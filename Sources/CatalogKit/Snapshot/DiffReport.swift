/// Renders a catalog diff as JSON, as text for a terminal, and as a Markdown changelog.
public enum DiffReport {
    /// One object of lists of `{id, name, title}`, with `changes`; for renumberings `from`, `to` and `fromId`, for
    /// returns `lastEdition` (the label of the last edition that listed the course before the gap), when known.
    public static func json(_ diff: CatalogDiff) -> JSONValue {
        func entry(_ course: some NamedCourse, _ changes: [FieldChange]? = nil, _ more: [String: String] = [:]) -> JSONValue {
            let texts = ["id": course.id, "name": course.name, "title": course.title].merging(more) { $1 }
            var object = texts.mapValues(JSONValue.string)
            object["changes"] = changes.map { list in
                .object(Dictionary(list.map { ($0.field, .object(["old": $0.old, "new": $0.new])) }) { _, last in last })
            }
            return .object(object)
        }
        return .object([
            "added": .array(diff.added.map { entry($0) }),
            "returned": .array(diff.returned.map { entry($0, nil, $0.lastEdition.map { ["lastEdition": $0] } ?? [:]) }),
            "removed": .array(diff.removed.map { entry($0) }),
            "changed": .array(diff.changed.map { entry($0, $0.changes) }),
            "renumbered": .array(diff.renumbered.map {
                entry($0.to, $0.changes, ["from": $0.from.name, "to": $0.to.name, "fromId": $0.from.id])
            }),
        ])
    }

    /// A line per course, by kind, its field changes below; `colors`: removed in red, added in green.
    public static func human(_ diff: CatalogDiff, old: String, new: String, colors: Bool) -> String {
        let style = TerminalStyle(enabled: colors)
        var lines = ["\(style.bold("Comparing")) \(old) → \(new)"]
        func section(_ title: String, _ entries: [[String]]) {
            if !entries.isEmpty { lines.append(style.bold("\(title) (\(entries.count))")) }
            lines += entries.joined()
        }
        func changeLines(_ changes: [FieldChange]) -> [String] {
            changes.map { change in
                let excerpt = ChangeExcerpt(old: change.old.displayText(none: "(none)"),
                                            new: change.new.displayText(none: "(none)"))
                let removed = excerpt.removed.isEmpty ? "" : style.red("[-\(excerpt.removed)-]")
                let inserted = excerpt.inserted.isEmpty ? "" : style.green("{+\(excerpt.inserted)+}")
                return "      \(label(change.field)): \(excerpt.prefix)\(removed)\(inserted)\(excerpt.suffix)"
            }
        }
        section("Added", diff.added.map { [style.green("  + \($0.name)  \($0.title)")] })
        section("Back in the catalog", diff.returned.map { [style.green("  + \($0.name)  \($0.title)") + lastListed($0, prefix: "  (", suffix: ")")] })
        section("Removed", diff.removed.map { [style.red("  - \($0.name)  \($0.title)")] })
        section("Renumbered", diff.renumbered.map { item in
            let codes = "  ~ \(style.red(item.from.name)) → \(style.green(item.to.name))  \(item.to.title)"
            return [codes] + changeLines(item.changes)
        })
        section("Changed", diff.changed.map { ["  * \($0.name)  \($0.title)"] + changeLines($0.changes) })
        lines.append(summary(diff))
        return lines.joined(separator: "\n") + "\n"
    }

    /// "2 added, 1 removed, 0 renumbered, 3 changed" ("2 added, 1 returned, 1 removed, …" when courses came back), or "no changes".
    public static func summary(_ diff: CatalogDiff) -> String {
        guard !diff.isEmpty else { return "no changes" }
        return "\(diff.added.count) added, " + (diff.returned.isEmpty ? "" : "\(diff.returned.count) returned, ")
            + "\(diff.removed.count) removed, \(diff.renumbered.count) renumbered, \(diff.changed.count) changed"
    }

    /// "last listed in 2021-2022 Undergraduate Catalog", "last listed on 1 Aug 2024", between `prefix` and `suffix`;
    /// empty when the history does not say.
    static func lastListed(_ course: ReturnedCourse, prefix: String = "", suffix: String = "") -> String {
        guard let label = course.lastEdition else { return "" }
        let shown = EditionLabel.shown(label)
        return prefix + "last listed \(shown == label ? "in" : "on") \(shown)" + suffix
    }

    /// A Markdown changelog: heading, counts, a section per kind; removed text struck through, catalog text escaped.
    public static func markdown(_ diff: CatalogDiff, old: String, new: String) -> String {
        var lines = ["## Catalog changes: \(MarkupEscaping.markdown(old)) → \(MarkupEscaping.markdown(new))", ""]
        lines.append(diff.isEmpty ? "No changes." : summary(diff).prefix(1).uppercased() + summary(diff).dropFirst() + ".")
        func course(_ course: some NamedCourse) -> String {
            "**\(MarkupEscaping.markdown(course.name))** — \(MarkupEscaping.markdown(course.title))"
        }
        func section(_ title: String, _ items: [String]) {
            guard !items.isEmpty else { return }
            lines += ["", "### \(title) (\(items.count))", ""]
            lines += items
        }
        section("Added", diff.added.map { "- " + course($0) })
        section("Back in the catalog", diff.returned.map { "- " + course($0) + MarkupEscaping.markdown(lastListed($0, prefix: " (", suffix: ")")) })
        section("Removed", diff.removed.map { "- " + course($0) })
        section("Renumbered", diff.renumbered.map { item in
            (["- **\(MarkupEscaping.markdown(item.from.name))** → " + course(item.to)] + markdownChanges(item.changes))
                .joined(separator: "\n")
        })
        section("Changed", diff.changed.map { item in
            (["- " + course(item)] + markdownChanges(item.changes)).joined(separator: "\n")
        })
        return lines.joined(separator: "\n") + "\n"
    }

    /// Nested bullets, one a field change: "Credits: ~~3~~ 4", long texts cut to the part that differs.
    static func markdownChanges(_ changes: [FieldChange], indent: String = "  ") -> [String] {
        changes.map { change in
            let excerpt = ChangeExcerpt(old: change.old.displayText(none: "(none)"),
                                        new: change.new.displayText(none: "(none)"))
            let removed = excerpt.removed.isEmpty ? "" : "~~\(MarkupEscaping.markdown(excerpt.removed))~~ "
            return "\(indent)- \(MarkupEscaping.markdown(label(change.field))): \(MarkupEscaping.markdown(excerpt.prefix))"
                + "\(removed)\(MarkupEscaping.markdown(excerpt.inserted))\(MarkupEscaping.markdown(excerpt.suffix))"
        }
    }

    /// How a compared field is named for people: "Prerequisites", "Credits", a labelled field's own label.
    public static func label(_ field: String) -> String {
        if let name = CourseRecord.compared.first(where: { $0.key == field })?.label { return name }
        return field.hasPrefix(ComparableCourse.labelledPrefix) ? String(field.dropFirst(ComparableCourse.labelledPrefix.count)) : field
    }
}

/// The part of a text change worth showing, with a little context, so a one-word edit reads as that one word.
struct ChangeExcerpt: Equatable {
    var prefix: String
    var removed: String
    var inserted: String
    var suffix: String

    /// Context kept either side of the change, in characters (whole words).
    static let context = 30

    init(old: String, new: String) {
        let before = Array(old), after = Array(new)
        // The common prefix, then the common suffix of what follows it.
        var start = zip(before, after).prefix { $0 == $1 }.count
        var end = zip(before[start...].reversed(), after[start...].reversed()).prefix { $0 == $1 }.count
        // Widen the change to whole words so "ecology" → "ecosystem" does not show as "logy" → "system".
        while start > 0, !before[start - 1].isWhitespace { start -= 1 }
        while end > 0, !before[before.count - end].isWhitespace { end -= 1 }
        let prefixText = String(before[..<start]), suffixText = String(before[(before.count - end)...])
        prefix = prefixText.count > Self.context ? "…" + Self.trimmedStart(prefixText) : prefixText
        suffix = suffixText.count > Self.context ? Self.trimmedEnd(suffixText) + "…" : suffixText
        removed = String(before[start..<(before.count - end)])
        inserted = String(after[start..<(after.count - end)])
    }

    private static func trimmedStart(_ text: String) -> String {
        let tail = text.suffix(context)
        guard let space = tail.firstIndex(where: \.isWhitespace) else { return String(tail) }
        return String(tail[space...])
    }

    private static func trimmedEnd(_ text: String) -> String {
        let head = text.prefix(context)
        guard let space = head.lastIndex(where: \.isWhitespace) else { return String(head) }
        return String(head[...space])
    }
}

/// ANSI styling that is a no-op when disabled (not a terminal, or `NO_COLOR`).
struct TerminalStyle {
    var enabled: Bool

    func bold(_ text: String) -> String { wrap(text, "1") }
    func red(_ text: String) -> String { wrap(text, "31") }
    func green(_ text: String) -> String { wrap(text, "32") }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
