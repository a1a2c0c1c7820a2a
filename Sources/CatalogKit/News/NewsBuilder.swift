/// Turns a diff between two snapshots into news items, as the settings ask. A pure function of its inputs.
public enum NewsBuilder {
    /// The items from `previous` to `current`: added, then returned, renumbered, changed and removed courses, each by id.
    public static func items(diff: CatalogDiff, previous: Snapshot, current: Snapshot, settings: NewsSettings) -> [NewsItem] {
        let now = Dictionary(current.courses.map { ($0.id, $0) }) { _, last in last }
        let before = Dictionary(previous.courses.map { ($0.id, $0) }) { _, last in last }
        let baseline = Timestamp.compact(previous.capturedAt)
        func item(_ kind: DiffKind, _ course: CourseRecord, title: String, description: String, content: String, featured: Bool = false) -> NewsItem {
            NewsItem(id: "\(current.catalogID):\(kind.rawValue):\(course.id):\(baseline)", title: title, description: description,
                     content: content, featured: featured, createdAt: current.capturedAt, kind: kind, courseId: course.id,
                     link: catalogLink(course))
        }

        var items: [NewsItem] = []
        for added in diff.added {
            guard let course = now[added.id] else { continue }
            let level = course.level.flatMap { CourseLevel(rawValue: $0.lowercased()) }
            items.append(item(.added, course, title: "New course: \(heading(added))",
                              description: firstSentence(course.description) ?? "\(heading(added)) is new in the catalog.",
                              content: content(of: course), featured: settings.isFeatured(subject: course.subject, level: level)))
        }
        if settings.announceReturns {
            for back in diff.returned {
                guard let course = now[back.id] else { continue }
                let level = course.level.flatMap { CourseLevel(rawValue: $0.lowercased()) }
                let when = DiffReport.lastListed(back)
                let sentence = "\(heading(back)) is back in the catalog" + (when.isEmpty ? "." : ", \(when).")
                items.append(item(.returned, course, title: "Back in the catalog: \(heading(back))",
                                  description: when.isEmpty ? sentence : when.prefix(1).uppercased() + when.dropFirst() + ".",
                                  content: MarkupEscaping.markdown(sentence, inline: false) + "\n\n" + content(of: course),
                                  featured: settings.isFeatured(subject: course.subject, level: level)))
            }
        }
        if settings.announceChanged {
            for pair in diff.renumbered {
                guard let course = now[pair.to.id] else { continue }
                let sentence = "\(pair.from.name) is now \(pair.to.name)."
                items.append(item(.renumbered, course, title: "Course renumbered: \(pair.from.name) is now \(heading(pair.to))",
                                  description: sentence, content: changeContent(sentence, pair.changes, course)))
            }
            for change in diff.changed {
                guard let course = now[change.id] else { continue }
                let fields = change.changes.map { DiffReport.label($0.field) }.joined(separator: ", ")
                items.append(item(.changed, course, title: "Course updated: \(heading(change))", description: "Changed: \(fields).",
                                  content: changeContent("What changed in \(heading(change)):", change.changes, course)))
            }
        }
        if settings.announceRemoved {
            for removed in diff.removed {
                guard let course = before[removed.id] else { continue }
                let sentence = "\(heading(removed)) is no longer in the catalog."
                items.append(item(.removed, course, title: "Course removed: \(heading(removed))", description: sentence,
                                  content: MarkupEscaping.markdown(sentence, inline: false)))
            }
        }
        return items
    }

    /// "CIS 367 — Computer Graphics".
    static func heading(_ course: some NamedCourse) -> String { "\(course.name) — \(course.title)" }

    /// A new course's content: its description, its facts (credits, level, requisites, offered), its catalog link.
    static func content(of course: CourseRecord) -> String {
        let paragraphs = course.description.components(separatedBy: "\n\n")
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        var facts: [String] = []
        func nonEmpty(_ text: String?) -> String? { text?.isEmpty == false ? text : nil }
        func fact(_ label: String, _ markdown: String?, else text: String? = nil) {
            if let markdown = nonEmpty(markdown) ?? nonEmpty(text).map({ MarkupEscaping.markdown($0) }) {
                facts.append("- **\(label):** \(markdown)")
            }
        }
        fact("Credits", nil, else: course.creditsPhrase)
        fact("Level", nil, else: course.level)
        fact("Prerequisites", course.prerequisiteMarkdown, else: course.prerequisiteString)
        fact("Corequisites", course.corequisiteMarkdown, else: course.corequisiteString)
        fact("Offered", nil, else: course.offered)
        let text = paragraphs.map { MarkupEscaping.markdown($0, inline: false) }
        return withLink(text + [facts.joined(separator: "\n")], course)
    }

    static func changeContent(_ lead: String, _ changes: [FieldChange], _ course: CourseRecord) -> String {
        let list = DiffReport.markdownChanges(changes, indent: "").joined(separator: "\n")
        return withLink([MarkupEscaping.markdown(lead, inline: false), list], course)
    }

    /// The non-empty blocks as Markdown paragraphs, then a link to the course's catalog page when it has one.
    static func withLink(_ blocks: [String], _ course: CourseRecord) -> String {
        let link = catalogLink(course).map {
            "[\(MarkupEscaping.markdown(course.name)) in the catalog](\(MarkupEscaping.markdownLinkTarget($0)))"
        }
        return (blocks + [link ?? ""]).filter { !$0.isEmpty }.joined(separator: "\n\n")
    }

    /// The course's page on the catalog's web site; a local file is no link for readers.
    static func catalogLink(_ course: CourseRecord) -> String? {
        course.url.hasPrefix("https://") || course.url.hasPrefix("http://") ? course.url : nil
    }

    /// Words that end in a full stop without ending a sentence.
    static let abbreviations: Set<String> = ["e.g", "i.e", "etc", "vs", "cf", "approx", "incl", "dr", "st", "mr", "ms", "mrs",
                                             "no", "nos", "dept", "u.s", "ph.d", "m.a", "b.s", "b.a", "jr", "sr", "prof", "min", "hrs"]

    /// The description's first sentence: up to the first ".", "!" or "?" that is followed by white space
    /// and then a capital, a digit or the end, and does not close an abbreviation ("e.g.") or an initial
    /// ("J."); a paragraph break ends it too. Nil for empty text.
    public static func firstSentence(_ text: String) -> String? {
        let characters = Array(text.trimmingCharacters(in: .whitespacesAndNewlines))
        guard !characters.isEmpty else { return nil }
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "\n", index + 1 < characters.count, characters[index + 1] == "\n" { break }
            if ".!?".contains(character) {
                var next = index + 1
                while next < characters.count, "\"'”’)".contains(characters[next]) { next += 1 }
                let atEnd = next == characters.count
                let followedBySpace = !atEnd && characters[next].isWhitespace
                var start = next
                while start < characters.count, characters[start].isWhitespace { start += 1 }
                let nextStarts = start < characters.count && (characters[start].isUppercase || characters[start].isNumber)
                if atEnd || (followedBySpace && nextStarts && !(character == "." && endsAbbreviation(characters, before: index))) {
                    return TextCleaner.cleanLine(String(characters[..<next]))
                }
            }
            index += 1
        }
        return TextCleaner.cleanLine(String(characters[..<index]))
    }

    /// Whether the word before position `index` (a full stop) is an abbreviation or a single-letter initial.
    private static func endsAbbreviation(_ characters: [Character], before index: Int) -> Bool {
        var start = index
        while start > 0, !characters[start - 1].isWhitespace, characters[start - 1] != "(" { start -= 1 }
        let word = String(characters[start..<index]).lowercased()
        return (word.count == 1 && word.first?.isLetter == true) || abbreviations.contains(word)
    }
}
