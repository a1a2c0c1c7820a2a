import Foundation

extension CatalogSite {
    /// The terms a course may be offered in, by the letter the search index gives each.
    static let terms: [(letter: Character, word: String)] = [("F", "fall"), ("W", "winter"), ("S", "spring"), ("U", "summer")]

    /// "FS" for "Fall and Spring": the terms `offered` names, in the order of `terms`.
    static func termLetters(_ offered: String?) -> String {
        guard let text = offered?.lowercased() else { return "" }
        return String(terms.filter { text.contains($0.word) }.map(\.letter))
    }

    /// The search page's other filters and its order: the terms courses are offered in, a number range, and sorting.
    func browseControls() -> String {
        let offered = Set(courses.flatMap { Self.termLetters($0.offered) })
        let terms = Self.terms.filter { offered.contains($0.letter) }.map { "<option value=\"\($0.letter)\">\($0.word)</option>" }.joined()
        return """
        <label for="term">Offered</label> <select id="term" name="term"><option value="">any term</option>\(terms)</select>
        <span class="range"><label for="from">Numbers from</label> <input id="from" name="from" type="number" min="0" inputmode="numeric">
        <label for="to">to</label> <input id="to" name="to" type="number" min="0" inputmode="numeric"></span>
        <label for="sort">Sort by</label> <select id="sort" name="sort"><option value="">relevance</option><option value="code">code</option>\
        <option value="title">title</option><option value="credits">credits</option></select>
        """
    }

    /// `GV_INDEX` as a script that builds it (not JSON read by `fetch`, which browsers refuse on `file://`): one array a
    /// course, [path, code, title, subject, level, credits, description key words, term letters, number, code key, title
    /// key], in code order. The keys are `SearchKeys`', folded here, so the browser ranks what `gvingest search` ranks;
    /// the description's key is its distinct words, which match a query's words as the whole key does. It is sent
    /// compact and unpacked in the browser: the levels as indexes into one list, each description as the base-36
    /// indexes of its words in one vocabulary (the commonest first, so the shortest), the keys only where they are not
    /// the code's or title's lower case, and the path and subject only where the code does not give them.
    func compactSearchIndex() -> String {
        let ordered = courses.sorted(by: CourseRecord.inCodeOrder)
        let keys = ordered.map(SearchKeys.init)
        let words = keys.map { key in
            var seen = Set<Substring>()
            return key.description.split(separator: " ").filter { seen.insert($0).inserted }.map(String.init)
        }
        let levels = Array(Set(ordered.compactMap(\.level))).sorted()
        let frequency = words.reduce(into: [String: Int]()) { counts, list in for word in list { counts[word, default: 0] += 1 } }
        let vocabulary = frequency.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map(\.key)
        let number = Dictionary(uniqueKeysWithValues: vocabulary.enumerated().map { ($0.element, String($0.offset, radix: 36)) })
        let rows: [JSONValue] = zip(ordered, zip(keys, words)).map { course, keyed in
            let (key, list) = keyed
            let subject = course.name.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
            let path = course.name.lowercased().replacingOccurrences(of: " ", with: "-")
            var row: [String] = [key.code == course.name.lowercased() ? "" : key.code, key.title == course.title.lowercased() ? "" : key.title,
                                 subject == course.subject ? "" : course.subject, Self.fileName(course.id) == path ? "" : Self.fileName(course.id)]
            while row.last == "" { row.removeLast() }
            return .array([.string(course.name), .string(course.title), .int(course.level.flatMap { levels.firstIndex(of: $0) } ?? -1),
                           .string(course.creditsLabel ?? ""), .string(Self.termLetters(course.offered)),
                           .string(list.compactMap { number[$0] }.joined(separator: " "))] + row.map(JSONValue.string))
        }
        let data = JSONValue.object(["levels": .array(levels.map(JSONValue.string)), "vocabulary": .string(vocabulary.joined(separator: " ")),
                                     "rows": .array(rows)])
        // "</" would end a script element in an HTML parser; JSON allows "<\/" for it.
        let json = String(decoding: JSONFile.encoded(data, pretty: false), as: UTF8.self).replacingOccurrences(of: "</", with: "<\\/")
        return """
        // Unpacks the compact index (CatalogSite.compactSearchIndex) into one array a course.
        window.GV_INDEX = (function (d) {
          "use strict";
          var vocabulary = d.vocabulary.split(" ");
          return d.rows.map(function (r) {
            var code = r[0], space = code.indexOf(" ");
            var words = r[5] ? r[5].split(" ").map(function (n) { return vocabulary[parseInt(n, 36)]; }).join(" ") : "";
            return [r[9] || code.toLowerCase().replace(/ /g, "-"), code, r[1], r[8] || code.slice(0, space), d.levels[r[2]] || "", r[3], words,
                    r[4], parseInt(code.slice(space + 1), 10), r[6] || code.toLowerCase(), r[7] || r[1].toLowerCase()];
          });
        })(\(json));

        """
    }
}
