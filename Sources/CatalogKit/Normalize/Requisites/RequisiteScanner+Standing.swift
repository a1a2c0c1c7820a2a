/// Standing, admission to a program, and permission of someone.
extension RequisiteScanner {
    /// "junior standing", "sophomore standing or above", "graduate standing", "junior or senior standing".
    mutating func standing() -> Bool {
        let level = keyword(index)
        guard level.isClassStanding else { return false }
        func isStandingNoun(_ k: Int) -> Bool { [.standing, .classification, .status].contains(keyword(k)) }
        var j = index + 1
        if isStandingNoun(j) {
            j += 1
            j = afterComparative(j)
        } else {
            // "junior or senior standing": this class word is a leaf of its own.
            var k = j
            while k < index + 8, keyword(k) == .or || keyword(k) == .and || keyword(k).isClassStanding
                    || isPunct(k, UInt8(ascii: ",")) || isPunct(k, UInt8(ascii: "/")) {
                k += 1
            }
            guard k < index + 8, isStandingNoun(k) else { return false }
        }
        var item = RequisiteItem(.standing, tokens[index].start, tokens[j - 1].end)
        item.keyword = level
        return append(item, next: j)
    }

    static let admissionPrepositions = phrases("to|into|in|as|for [the|a|an]")

    /// "admission to the CIS major", "Admitted to CIS major", "admission to the BAS IT:CSD program".
    mutating func admissionProgram() -> Bool {
        guard var j = match(Self.admissionPrepositions, from: index + 1) else { return false }
        let valueFirst = j
        var valueLast = -1
        var words = 0
        while j < tokens.count, words < 8 {
            let t = tokens[j]
            if t.isWord {
                let w = t.keyword
                if w == .and || w == .or || w == .plus || w.isPermissionWord || w == .by || w == .with { break }
                words += 1
                valueLast = j
                j += 1
                if w.isProgramNoun {
                    if isPunct(j, UInt8(ascii: "/")), keyword(j + 1).isProgramNoun {
                        valueLast = j + 1
                        j += 2
                    }
                    break
                }
            } else if (t.punct == UInt8(ascii: ":") || t.punct == UInt8(ascii: "-") || t.punct == UInt8(ascii: "'") || t.punct == UInt8(ascii: "&")), isWord(j + 1), !tokens[j + 1].spaceBefore {
                j += 1
            } else {
                break
            }
        }
        guard valueLast >= valueFirst else { return false }
        var last = valueLast
        if keyword(last + 1) == .standing { last += 1 }
        return emit(.program, from: index, through: last, value: (valueFirst, valueLast))
    }

    /// "CIS major standing", "declared business major", "CIS major/minor standing", "minor in Computer Science".
    mutating func programNoun() -> Bool {
        // "major faculty", "program director": people, not programs.
        if keyword(index + 1).isRole { return false }
        let first = startOfWords(before: items.count, atMost: 3)
        var last = index
        if isPunct(last + 1, UInt8(ascii: "/")), keyword(last + 2).isProgramNoun { last += 2 }
        if keyword(last + 1) == .in, isCapitalized(last + 2), keyword(last + 2) == .unknown {
            last += 2
            while last + 1 < tokens.count, last < index + 7, isCapitalized(last + 1), keyword(last + 1) == .unknown || keyword(last + 1) == .and && isCapitalized(last + 2) {
                last += 1
            }
            if keyword(last) == .and { last -= 1 }
        }
        let valueLast = last
        if keyword(last + 1) == .standing { last += 1 }
        return emitTakingWords(.program, from: first, through: last, valueThrough: valueLast)
    }

    /// End (exclusive) of a role phrase at `j` ("department chair", "Department Chair or designee"), or `j` if none.
    func rolePhraseEnd(from j: Int) -> Int {
        var k = j
        var end = j
        while k < tokens.count {
            var m = k
            var qualifiers = 0
            // "program director", "ARCH college advisor": qualifiers only count when a role follows.
            while qualifiers < 2, !keyword(m).isRole, keyword(m).isRoleQualifier || (isCapitalized(m) && keyword(m) == .unknown) {
                m += 1
                qualifiers += 1
            }
            guard keyword(m).isRole else { break }
            m += 1
            while keyword(m).isRole { m += 1 }
            end = m
            if isPunct(m, UInt8(ascii: "/")) || keyword(m) == .or || keyword(m) == .and {
                k = m + 1
                continue
            }
            break
        }
        return end
    }

    static let permissionPrepositions = phrases("of|from|by [the|a|an]")

    /// "permission of instructor", "consent of the department chair", "approval from the director".
    mutating func permission() -> Bool {
        let afterPreposition = match(Self.permissionPrepositions, from: index + 1)
        let j = afterPreposition ?? index + 1
        var roleEnd = rolePhraseEnd(from: j)
        if roleEnd == j, afterPreposition != nil {
            // A named office: "consent of Honors College".
            while roleEnd < tokens.count, roleEnd < j + 4, isCapitalized(roleEnd), keyword(roleEnd) == .unknown { roleEnd += 1 }
        }
        // "Dean of the College of Technology".
        if roleEnd > j, keyword(roleEnd) == .of {
            var k = roleEnd + 1
            if keyword(k) == .the { k += 1 }
            let named = k
            while k < tokens.count, k < named + 4, isCapitalized(k), keyword(k) == .unknown || keyword(k).isRole { k += 1 }
            if k > named { roleEnd = k }
        }
        // With no one named, the permission word alone is the leaf and its value.
        guard roleEnd > j else { return emit(.permission, from: index, through: index, value: (index, index)) }
        return emit(.permission, from: index, through: roleEnd - 1, value: (j, roleEnd - 1))
    }

    /// "instructor approval", "advisor approval", "instructor's permission", "departmental approval".
    mutating func rolePermission() -> Bool {
        let roleEnd = rolePhraseEnd(from: index)
        guard roleEnd > index else { return false }
        var k = roleEnd
        if isQuote(k), keyword(k + 1) == .unknown, isWord(k + 1), tokens[k + 1].length == 1 { k += 2 }
        guard keyword(k).isPermissionWord else { return false }
        return emit(.permission, from: index, through: k, value: (index, roleEnd - 1))
    }
}
