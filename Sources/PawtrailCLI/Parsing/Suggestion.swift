/// "Did you mean" for mistyped commands and options.
enum Suggestion {
    /// The candidate closest to `input`, if one is close enough to be a likely typo.
    ///
    /// - Parameters:
    ///   - input: What the user typed.
    ///   - candidates: The valid spellings.
    /// - Returns: The best candidate, or `nil` when none is within a third of the input's length (at least 1,
    ///   at most 3 edits), or a prefix of it.
    static func closest(to input: String, among candidates: [String]) -> String? {
        // A name longer than every candidate by more than the edits allowed is no typo of any: answered without
        // counting its characters (a line of `exec` may carry a megabyte of name).
        let longest = candidates.map(\.utf8.count).max() ?? 0
        guard input.utf8.count <= longest + 3 else { return nil }
        let typed = Array(input)
        let allowed = min(3, max(1, typed.count / 3))
        var best: (String, Int)?
        for c in candidates {
            let d = c.hasPrefix(input) && typed.count >= 3 ? 0 : editDistance(typed, Array(c), atMost: allowed)
            if d <= allowed, best.map({ d < $0.1 }) ?? true { best = (c, d) }
        }
        return best?.0
    }

    /// Edit distance over characters where swapping two neighbours counts as one edit (optimal string
    /// alignment), since transposed letters (`--josn`) are the most common typo.
    static func editDistance(_ a: String, _ b: String) -> Int {
        editDistance(Array(a), Array(b), atMost: .max)
    }

    /// The distance, or more than `bound` as soon as it must be (lengths too far apart).
    static func editDistance(_ a: [Character], _ b: [Character], atMost bound: Int) -> Int {
        if abs(a.count - b.count) > bound { return bound == .max ? abs(a.count - b.count) : bound + 1 }
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
