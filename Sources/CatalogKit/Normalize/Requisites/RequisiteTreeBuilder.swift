/// Builds the tree from the final item list by precedence, loosest first: sentences (".") → semicolon lists → comma
/// lists → "and" → "or" → juxtaposition → "/" → leaves and parenthesized groups.
///
/// Lists ("A, B, and C"; "A; and B or C") take their operator from their last connective: the one opening the last
/// segment, else the top operator inside the last segment, else the last one opening any segment; else "all".
///
/// Parentheses are depth-limited before this runs, so recursion is bounded; an unmatched close ends `parseSentences`.
struct RequisiteTreeBuilder {
    enum Operator { case all, any }

    /// A parsed operand and the operator that joined its top level (nil for leaves, groups and juxtaposition).
    struct Parsed {
        var node: Requisite
        var joinedBy: Operator? = nil
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let items: [RequisiteItem]
    let codes: [CourseCode]
    let aliases: SubjectAliases?
    var index = 0
    /// Nesting of "one of" lists, which recurse like parentheses.
    var countDepth = 0

    /// Sentences of the whole text or of one parenthesized group (stops at its ")").
    mutating func parseSentences() -> Requisite? {
        var parts: [Requisite] = []
        while index < items.count {
            let kind = items[index].kind
            if kind == .close { break }
            if kind == .period {
                index += 1
                continue
            }
            let before = index
            if let list = parseList(semicolons: true) { parts.append(list.node) }
            if index == before {
                // Nothing could start here (a connective with nothing before it): keep its words.
                if items[index].isConnective { parts.append(.text(text(of: items[index]))) }
                index += 1
            }
        }
        return RequisiteTreeBuilder.group(.all, parts, connective: nil)
    }

    /// A semicolon list of comma lists, or a comma list of "and" expressions.
    mutating func parseList(semicolons: Bool) -> Parsed? {
        let separator: RequisiteItem.Kind = semicolons ? .semicolon : .comma
        let head = semicolons ? parseList(semicolons: false) : parseAnd()
        guard index < items.count, items[index].kind == separator else { return head }
        // Segments with the index of the connective opening them (-1 for none).
        var segments: [(connective: Int, parsed: Parsed)] = []
        if let head { segments.append((-1, head)) }
        while index < items.count, items[index].kind == separator {
            index += 1
            var pending = -1
            if index < items.count, items[index].kind == .and || items[index].kind == .or {
                pending = index
                index += 1
            }
            if let segment = semicolons ? parseList(semicolons: false) : parseAnd() {
                segments.append((pending, segment))
            } else if pending >= 0 {
                segments.append((-1, Parsed(node: .text(text(of: items[pending])))))
            }
        }
        // A connective with nothing before it (", and X" at the start) joins nothing: keep it as text.
        if let opening = segments.first, opening.connective >= 0 {
            segments[0].connective = -1
            segments.insert((-1, Parsed(node: .text(text(of: items[opening.connective])))), at: 0)
        }
        guard let first = segments.first else { return nil }
        if segments.count == 1 { return first.parsed }
        var decider = segments.last { $0.connective >= 0 }.map { items[$0.connective].kind } ?? .and
        if let last = segments.last, last.connective < 0, let joined = last.parsed.joinedBy {
            decider = joined == .all ? .and : .or
        }
        // A segment without a connective of its own takes the next one written after it
        // ("A, B, and C": B joins by "and"); those after the last connective take the decider.
        var steps: [Step] = []
        steps.reserveCapacity(segments.count - 1)
        var following = decider
        for k in stride(from: segments.count - 1, through: 1, by: -1) {
            let connective = segments[k].connective
            if connective >= 0 { following = items[connective].kind }
            let word = connective >= 0 ? text(of: items[connective]) : nil
            steps.append(Step(op: following == .or ? .any : .all, node: segments[k].parsed.node, connective: word))
        }
        steps.reverse()
        return Parsed(node: RequisiteTreeBuilder.fold(first.parsed.node, steps), joinedBy: steps.last?.op ?? first.parsed.joinedBy)
    }

    /// "A and B and C" (also "both A and B", "plus", "&") of operands "A or B" (also "either A or B").
    mutating func parseAnd() -> Parsed? {
        parseChain(joiner: .and, opener: .both) { builder in
            builder.parseChain(joiner: .or, opener: .either) { $0.parseJuxtaposition() }
        }
    }

    private mutating func parseChain(joiner: RequisiteItem.Kind, opener: RequisiteItem.Kind,
                                     operand: (inout RequisiteTreeBuilder) -> Parsed?) -> Parsed? {
        var openerItem: RequisiteItem?
        if index < items.count, items[index].kind == opener {
            openerItem = items[index]
            index += 1
        }
        let head = operand(&self)
        if openerItem == nil, index >= items.count || items[index].kind != joiner { return head }
        var operands = head.map { [$0] } ?? []
        var connective: String?
        while index + 1 < items.count, items[index].kind == joiner, items[index + 1].startsOperand, !operands.isEmpty {
            let position = index
            let word = items[index]
            index += 1
            guard let next = operand(&self) else {
                // Nothing joinable ("X and both", "X or ()"): leave the connective to the fallback, which keeps its
                // words; back to the connective itself, as the operand may have consumed items (an empty group).
                index = position
                break
            }
            connective = RequisiteTreeBuilder.mergeConnective(connective, text(of: word))
            operands.append(next)
        }
        if let openerItem {
            let word = text(of: openerItem)
            if operands.count >= 2 {
                connective = RequisiteTreeBuilder.mergeConnective(word, connective)
            } else {
                // "both" with nothing to pair: keep the word as text.
                operands.insert(Parsed(node: .text(word)), at: 0)
                return RequisiteTreeBuilder.group(.all, operands.map(\.node), connective: nil).map { Parsed(node: $0) }
            }
        }
        guard !operands.isEmpty else { return nil }
        if operands.count == 1 { return operands[0] }
        let op: Operator = joiner == .and ? .all : .any
        if op == .all, let hoisted = hoistTrailingPermission(operands, connective: connective) { return hoisted }
        let steps = operands.dropFirst().map { RequisiteTreeBuilder.Step(op: op, node: $0.node, connective: connective) }
        return Parsed(node: RequisiteTreeBuilder.fold(operands[0].node, steps), joinedBy: op)
    }

    /// "A and B or consent of instructor": the permission is an alternative to the whole chain.
    private func hoistTrailingPermission(_ operands: [Parsed], connective: String?) -> Parsed? {
        guard let last = operands.last, last.joinedBy == .any,
              case .any(var alternatives, let orWord) = last.node,
              let permission = alternatives.last, case .permission = permission else { return nil }
        alternatives.removeLast()
        var required = operands.dropLast().map(\.node)
        if let rest = RequisiteTreeBuilder.group(.any, alternatives, connective: alternatives.count > 1 ? orWord : nil) {
            required.append(rest)
        }
        guard let chain = RequisiteTreeBuilder.group(.all, required, connective: connective) else { return nil }
        let hoisted = RequisiteTreeBuilder.group(.any, [chain, permission], connective: orWord) ?? chain
        return Parsed(node: hoisted, joinedBy: .any)
    }

    /// Operands written side by side ("CIS 553 CIS 375", "majors: A grade of …"): all required.
    mutating func parseJuxtaposition() -> Parsed? {
        var head: Requisite?
        if index < items.count, items[index].startsPrimary {
            head = parseSlash()
            // One operand alone (the usual case) makes no array.
            if index >= items.count || !(items[index].startsPrimary || items[index].kind == .colon) {
                return head.map { Parsed(node: $0) }
            }
        }
        var parts = head.map { [$0] } ?? []
        while index < items.count {
            if items[index].kind == .colon {
                index += 1
                continue
            }
            guard items[index].startsPrimary else { break }
            let before = index
            if let part = parseSlash() { parts.append(part) }
            if index == before { break }
        }
        return RequisiteTreeBuilder.group(.all, parts, connective: nil).map { Parsed(node: $0) }
    }

    /// "STA 215/312", "COSC 1336/1136": alternatives.
    mutating func parseSlash() -> Requisite? {
        let head = parsePrimary()
        guard index < items.count, items[index].kind == .slash else { return head }
        var parts = head.map { [$0] } ?? []
        while index < items.count, items[index].kind == .slash {
            index += 1
            guard index < items.count, items[index].startsPrimary else { break }
            if let next = parsePrimary() { parts.append(next) }
        }
        return RequisiteTreeBuilder.group(.any, parts, connective: nil)
    }

    mutating func parsePrimary() -> Requisite? {
        guard index < items.count else { return nil }
        let item = items[index]
        switch item.kind {
        case .open:
            index += 1
            let inner = parseSentences()
            if index < items.count, items[index].kind == .close { index += 1 }
            return inner
        case .atLeast:
            index += 1
            let marker = text(of: item)
            guard countDepth < RequisitePasses.maxGroupDepth else { return .text(marker) }
            countDepth += 1
            defer { countDepth -= 1 }
            guard let list = parseList(semicolons: false) else { return .text(marker) }
            switch list.node {
            case .all(let children, let connective) where list.joinedBy != nil,
                 .any(let children, let connective) where list.joinedBy != nil:
                return .atLeast(item.count, of: children, connective: RequisiteTreeBuilder.mergeConnective(marker, connective))
            default:
                return .atLeast(item.count, of: [list.node], connective: marker)
            }
        case .both, .either:
            index += 1
            return .text(text(of: item))
        default:
            guard item.isLeaf else { return nil }
            index += 1
            return leaf(item)
        }
    }

    func leaf(_ item: RequisiteItem) -> Requisite {
        let source = text(of: item)
        switch item.kind {
        case .course:
            guard item.codeIndex >= 0, item.codeIndex < codes.count else { return .text(source) }
            let code = codes[item.codeIndex]
            let grade = item.hasGrade ? slice(item.valueStart, item.valueEnd) : nil
            let canonical = code.description
            return .course(CourseRequirement(code: aliases?.renaming(code) ?? code, minGrade: grade,
                                             concurrent: item.concurrent, source: source == canonical ? nil : source))
        case .standing:
            let value = item.keyword.rawValue
            return .standing(value, source: source == value ? nil : source)
        case .program:
            let value = slice(item.valueStart, item.valueEnd)
            return .program(value, source: source == value ? nil : source)
        case .permission:
            let value = lowercased(item.valueStart, item.valueEnd)
            return .permission(value, source: source == value ? nil : source)
        case .exam:
            let name = slice(item.valueStart, item.valueEnd)
            let score = item.scoreEnd > item.scoreStart ? slice(item.scoreStart, item.scoreEnd) : nil
            let bare = score == nil && item.valueStart == item.start && item.valueEnd == item.end
            return .exam(name, score: score, source: bare ? nil : source)
        default:
            return .text(source)
        }
    }

    func slice(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    func text(of item: RequisiteItem) -> String { slice(item.start, item.end) }

    /// Roles are common nouns ("Department Chair" = "department chair"); only ASCII is folded.
    func lowercased(_ start: Int, _ end: Int) -> String {
        String(decoding: bytes[start..<end].map { RequisiteLexer.isASCIIUpper($0) ? RequisiteLexer.lowercased($0) : $0 },
               as: UTF8.self)
    }

    /// An operator node with same-operator children merged and a single child collapsed.
    static func group(_ op: Operator, _ children: [Requisite], connective: String?) -> Requisite? {
        guard !children.isEmpty else { return nil }
        if children.count == 1, connective == nil { return children[0] }
        var flat: [Requisite] = []
        flat.reserveCapacity(children.count)
        var merged = connective
        for child in children { flatten(child, into: &flat, op: op, word: &merged) }
        return close((op, flat, merged))
    }

    /// One step of a left fold: the operator, the operand on the right and its connective word.
    struct Step {
        var op: Operator
        var node: Requisite
        var connective: String?
    }

    /// `first` grouped with each step's node in turn, as `group` of the two would, in time linear in the operands:
    /// a group is built up in place while the operator stays the same, where combining one at a time copied
    /// (flattened) every child so far for each new one, quadratic for a list of thousands of courses.
    static func fold(_ first: Requisite, _ steps: [Step]) -> Requisite {
        var open: (op: Operator, children: [Requisite], word: String?)?
        var closed = first
        for step in steps {
            if var group = open, group.op == step.op {
                open = nil  // the only reference to the children, so appending copies nothing
                // As `group` merges: this step's word first, then the group's, then the operand's.
                var merged = mergeConnective(step.connective, group.word)
                flatten(step.node, into: &group.children, op: step.op, word: &merged)
                group.word = merged
                open = group
            } else {
                if let group = open { closed = close(group) }
                var children: [Requisite] = []
                var merged = step.connective
                flatten(closed, into: &children, op: step.op, word: &merged)
                flatten(step.node, into: &children, op: step.op, word: &merged)
                open = (step.op, children, merged)
            }
        }
        return open.map(close) ?? closed
    }

    /// Adds a child to a group of `op`: a group of the same operator gives its children and its connective word.
    private static func flatten(_ child: Requisite, into children: inout [Requisite], op: Operator, word: inout String?) {
        switch (op, child) {
        case (.all, .all(let inner, let inherited)), (.any, .any(let inner, let inherited)):
            children.append(contentsOf: inner)
            word = mergeConnective(word, inherited)
        default:
            children.append(child)
        }
    }

    private static func close(_ group: (op: Operator, children: [Requisite], word: String?)) -> Requisite {
        var children = group.children
        // Cannot happen for well-formed lists; keep the connective's words rather than drop them.
        if children.count == 1, let word = group.word { children.append(.text(word)) }
        return group.op == .all ? .all(children, connective: group.word) : .any(children, connective: group.word)
    }

    /// Distinct connective words in order of appearance ("both" + "and" = "both and").
    static func mergeConnective(_ a: String?, _ b: String?) -> String? {
        guard let a else { return b }
        guard let b, a != b else { return a }
        var result = a
        for word in b.split(separator: " ") {
            let present = result.split(separator: " ").contains { $0.lowercased() == word.lowercased() }
            if !present { result += " " + word }
        }
        return result
    }
}

extension RequisiteItem {
    var isConnective: Bool { kind == .and || kind == .or || kind == .both || kind == .either }

    /// Items that can begin a leaf or group.
    var startsPrimary: Bool { isLeaf || kind == .open || kind == .atLeast }

    /// Items that can begin an operand of a connective.
    var startsOperand: Bool { startsPrimary || kind == .both || kind == .either }
}
