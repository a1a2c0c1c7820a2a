/// Parses prerequisite prose into a `Requisite` tree in four hand-written stages over its UTF-8 (no regexes, no
/// Foundation): `RequisiteLexer` (tokens) → `RequisiteScanner` (phrases: codes, qualifiers, standing, …) →
/// `RequisitePasses` (parentheses, notes, qualifier attachment, text runs) → `RequisiteTreeBuilder`. Every stage
/// consumes a token or item per step, so any input terminates; parenthesis depth is capped before the recursive stage.
public enum RequisiteParser {
    /// Prose (label removed) as a tree carrying every word of it (FuzzHarness's `missingWords(of:)`), nil for "None" or
    /// no words; codes come out under `aliases`' subjects, each `source` still compared with the code as written.
    public static func parse(_ text: String, renaming aliases: SubjectAliases? = nil) -> Requisite? {
        var text = text
        return text.withUTF8 { bytes in
            var tokens: [RequisiteToken] = []
            tokens.reserveCapacity(bytes.count / 4 + 4)
            RequisiteLexer.tokenize(bytes, into: &tokens)
            guard tokens.contains(where: { $0.isWord && $0.keyword != .none }) else { return nil }

            var scanner = RequisiteScanner(bytes: bytes, tokens: tokens)
            scanner.items.reserveCapacity(tokens.count)
            scanner.run()
            var items = scanner.items
            if scanner.sawGroupOrNote { items = RequisitePasses.resolveParenthesesAndNotes(items) }
            if scanner.sawQualifier { RequisitePasses.attachQualifiers(&items) }
            if items.contains(where: \.isWordLike) { items = RequisitePasses.gatherText(items) }

            var builder = RequisiteTreeBuilder(bytes: bytes, items: items, codes: scanner.codes, aliases: aliases)
            var sentences: [Requisite] = []
            while builder.index < items.count {
                if let part = builder.parseSentences() { sentences.append(part) }
                // A close whose open an aside's note took: the text goes on after it.
                if builder.index < items.count, items[builder.index].kind == .close { builder.index += 1 }
            }
            return RequisiteTreeBuilder.group(.all, sentences, connective: nil)
        }
    }

    /// The app's `prerequisiteString`: white space collapsed, each explicit code canonical ("cis162", "C S 235" give
    /// "CIS 162", "CS 235"); bare numbers after a list ("CIS 162 and 163") and other text stay as written.
    public static func canonicalText(_ source: String) -> String {
        var source = source
        return source.withUTF8 { bytes in
            var tokens: [RequisiteToken] = []
            RequisiteLexer.tokenize(bytes, into: &tokens)
            var scanner = RequisiteScanner(bytes: bytes, tokens: tokens)
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count)
            var k = 0
            while k < tokens.count {
                if !output.isEmpty, tokens[k].spaceBefore { output.append(UInt8(ascii: " ")) }
                scanner.index = k
                scanner.items.removeAll(keepingCapacity: true)
                if tokens[k].isWord, scanner.course(), let code = scanner.codes.last {
                    output.append(contentsOf: code.description.utf8)
                    k = scanner.index
                    continue
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[tokens[k].start..<tokens[k].end]))
                k += 1
            }
            return String(decoding: output, as: UTF8.self)
        }
    }
}
