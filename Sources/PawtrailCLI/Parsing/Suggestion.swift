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
        let allowed = min(3, max(1, input.count / 3))
        var best: (String, Int)?
        for c in candidates {
            let d = c.hasPrefix(input) && input.count >= 3 ? 0 : editDistance(input, c)
            if d <= allowed, best.map({ d < $0.1 }) ?? true { best = (c, d) }
        }
        return best?.0
    }

    /// Levenshtein distance over characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
