/// Rewrites of the scanned item list that need to see neighbours on both sides: parenthesis balancing, notes, attaching
/// grade/concurrency qualifiers to courses, and gathering leftover words into text leaves. Each pass is linear in the
/// item count (qualifier chains aside, which stop at the first item that is not part of a course list).
enum RequisitePasses {
    /// Deeper parentheses are read as plain punctuation, which bounds recursion in the tree builder.
    static let maxGroupDepth = 24

    /// Drops unmatched and too-deep parentheses and those of "(or equivalent)", and turns notes ("formerly …",
    /// "… recommended", "may not …") into single word items or folds them into the course they follow.
    static func resolveParenthesesAndNotes(_ items: [RequisiteItem]) -> [RequisiteItem] {
        let count = items.count
        var partner = [Int](repeating: -1, count: count)
        var enclosing = [Int](repeating: -1, count: count)
        var dropped = [Bool](repeating: false, count: count)
        var stack: [Int] = []
        var overflow = 0
        var hasNotes = false
        for k in 0..<count {
            enclosing[k] = stack.last ?? -1
            switch items[k].kind {
            case .open:
                if stack.count >= maxGroupDepth {
                    overflow += 1
                    dropped[k] = true
                } else {
                    stack.append(k)
                }
            case .close:
                if overflow > 0 {
                    overflow -= 1
                    dropped[k] = true
                } else if let open = stack.popLast() {
                    partner[open] = k
                    partner[k] = open
                    // "(or equivalent)" continues the surrounding list rather than forming a group.
                    if items[open + 1].kind == .or || items[open + 1].kind == .and {
                        (dropped[open], dropped[k]) = (true, true)
                    }
                } else {
                    dropped[k] = true
                }
            default:
                if items[k].note != .none { hasNotes = true }
            }
        }
        for open in stack { dropped[open] = true }

        // Note regions: [first, last] item ranges that become one note.
        var regionEnd = [Int](repeating: -1, count: count)
        if hasNotes {
            var k = 0
            while k < count {
                let note = items[k].note
                guard note != .none, !dropped[k] else {
                    k += 1
                    continue
                }
                var first = k
                var last = k
                let open = note == .aside ? enclosing[k] : ((0..<k).last { !dropped[$0] } ?? -1)
                if open >= 0, items[open].kind == .open, !dropped[open], partner[open] > k {
                    first = open
                    last = partner[open]
                } else if note == .aside {
                    // The whole clause is advice: up to the surrounding periods or semicolons.
                    while first > 0, items[first - 1].kind != .period, items[first - 1].kind != .semicolon { first -= 1 }
                    while last + 1 < count, items[last + 1].kind != .period, items[last + 1].kind != .semicolon { last += 1 }
                } else {
                    while last + 1 < count, ![.comma, .semicolon, .period, .close].contains(items[last + 1].kind) {
                        last += 1
                    }
                }
                // A region may start before earlier, already-claimed items (a sentence-wide note).
                var s = first
                while s <= last {
                    let claimedEnd = regionEnd[s]
                    regionEnd[s] = -1
                    s = max(s, claimedEnd) + 1
                }
                regionEnd[first] = last
                k = last + 1
            }
        }

        var output: [RequisiteItem] = []
        output.reserveCapacity(count)
        var k = 0
        while k < count {
            if regionEnd[k] >= 0 {
                let last = regionEnd[k]
                let start = items[k].start
                let end = items[last].end
                k = last + 1
                // A note right after a course (or after its comma) annotates that course.
                if output.count >= 2, output[output.count - 1].kind == .comma, output[output.count - 2].kind == .course {
                    output.removeLast()
                }
                if output.last?.kind == .course {
                    output[output.count - 1].end = end
                } else {
                    output.append(RequisiteItem(.word, start, end))
                }
                continue
            }
            if dropped[k] {
                k += 1
                continue
            }
            var item = items[k]
            item.note = .none
            // "THEA 1332 : Fundamentals of Theatre" — a title after the code belongs to the course.
            if item.kind == .course, k + 2 < count, items[k + 1].kind == .colon, items[k + 2].isWordLike, regionEnd[k + 2] < 0 {
                var last = k + 2
                while last + 1 < count, items[last + 1].isWordLike, regionEnd[last + 1] < 0 { last += 1 }
                item.end = items[last].end
                output.append(item)
                k = last + 1
                continue
            }
            output.append(item)
            k += 1
        }
        return output
    }

    /// Applies grade, concurrency and completion qualifiers to the courses they govern, their words joining a course's
    /// span (one governing none becomes a word): a prefix ("A grade of C- or better in") governs the run of courses
    /// after it across connectives, commas, slashes and parentheses; a chain suffix ("with a grade of C or better",
    /// "may be taken concurrently") such a run before it; an immediate suffix ("Minimum Grade of D-") its course only.
    static func attachQualifiers(_ items: inout [RequisiteItem]) {
        let count = items.count
        var attached = [Bool](repeating: false, count: count)
        for k in 0..<count {
            switch items[k].kind {
            case .gradePrefix, .concurrentPrefix, .creditPrefix:
                var m = k + 1
                while m < count, items[m].kind == .open || items[m].kind.isPrefix { m += 1 }
                guard m < count, items[m].kind == .course else {
                    items[k].kind = .word
                    continue
                }
                applyAlongList(items[k], to: &items, from: m, step: 1)
                items[m].start = min(items[m].start, items[k].start)
                attached[k] = true
            case .gradeSuffixChain, .gradeSuffixImmediate, .concurrentSuffixChain:
                // "ACCT 3367, with minimum grade of C": a comma may stand between.
                var m = k - 1
                while m >= 0, items[m].kind == .close || items[m].kind == .comma || (attached[m] && items[m].kind.isSuffix) { m -= 1 }
                guard m >= 0, items[m].kind == .course else {
                    items[k].kind = .word
                    continue
                }
                if items[k].kind == .gradeSuffixImmediate {
                    apply(items[k], to: &items[m])
                } else {
                    applyAlongList(items[k], to: &items, from: m, step: -1)
                }
                items[m].end = max(items[m].end, items[k].end)
                attached[k] = true
            default:
                continue
            }
        }
        if attached.contains(true) { items = items.indices.filter { !attached[$0] }.map { items[$0] } }
    }

    /// Applies `qualifier` to each course of the list around `items[start]`, walking by `step` while the list lasts.
    private static func applyAlongList(_ qualifier: RequisiteItem, to items: inout [RequisiteItem], from start: Int,
                                       step: Int) {
        var c = start
        while c >= 0, c < items.count {
            switch items[c].kind {
            case .course: apply(qualifier, to: &items[c])
            case .and, .or, .comma, .slash, .open, .close, .both, .either: break
            default: return
            }
            c += step
        }
    }

    private static func apply(_ qualifier: RequisiteItem, to course: inout RequisiteItem) {
        switch qualifier.kind {
        case .gradePrefix, .gradeSuffixChain, .gradeSuffixImmediate:
            if !course.hasGrade { (course.valueStart, course.valueEnd) = (qualifier.valueStart, qualifier.valueEnd) }
        case .concurrentPrefix, .concurrentSuffixChain:
            course.concurrent = true
        default:
            break
        }
    }

    /// Makes each run of leftover words a text leaf; fillers alone ("with the") join the leaf after them, else before.
    static func gatherText(_ items: [RequisiteItem]) -> [RequisiteItem] {
        var output: [RequisiteItem] = []
        output.reserveCapacity(items.count)
        let count = items.count
        var k = 0
        while k < count {
            guard items[k].isWordLike else {
                output.append(items[k])
                k += 1
                continue
            }
            let e = items[k...].firstIndex { !$0.isWordLike } ?? count
            let fillersOnly = !items[k..<e].contains { $0.kind == .word }
            let start = items[k].start
            let end = items[e - 1].end
            if fillersOnly {
                if e < count, items[e].isLeaf {
                    var next = items[e]
                    next.start = start
                    output.append(next)
                    k = e + 1
                    continue
                }
                if let last = output.last, last.isLeaf {
                    output[output.count - 1].end = end
                    k = e
                    continue
                }
            }
            output.append(RequisiteItem(.text, start, end))
            k = e
        }
        return output
    }
}
