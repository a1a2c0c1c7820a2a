/// The first of `names` nearest `word` in edit distance, if within `limit` edits: for did-you-mean hints.
public func closestName(to word: String, among names: [String], within limit: Int) -> String? {
    let distances = names.map { (name: $0, distance: editDistance($0, word)) }
    return distances.min { $0.distance < $1.distance }.flatMap { $0.distance <= limit ? $0.name : nil }
}

/// Levenshtein distance.
func editDistance(_ a: String, _ b: String) -> Int {
    let b = Array(b)
    var previous = Array(0...b.count)
    for (i, x) in a.enumerated() {
        var current = [i + 1]
        for (j, y) in b.enumerated() {
            current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
        }
        previous = current
    }
    return previous[b.count]
}
