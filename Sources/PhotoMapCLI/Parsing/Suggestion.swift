// SPDX-License-Identifier: Apache-2.0
/// The nearest of the words a command line accepts to one it does not, for "Did you mean 'places'?",
/// as git, cargo and rclone suggest: by edit distance, a swap of two neighbours counting one edit.
enum Suggestion {
    /// The candidate nearest `word`, if one is near enough to be a typo of it: at most one edit in
    /// three characters (and at least one), the first candidate winning a tie.
    static func nearest(to word: String, in candidates: [String]) -> String? {
        let allowed = max(1, word.count / 3)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where candidate != word {
            let distance = editDistance(word.lowercased(), candidate.lowercased())
            if distance <= allowed, distance < best?.distance ?? .max { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// The optimal-string-alignment distance: insertions, deletions, substitutions and swaps of two
    /// neighbouring characters, one edit each ("plcaes" is one edit from "places").
    static func editDistance(_ first: String, _ second: String) -> Int {
        let a = Array(first), b = Array(second)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        // Three rows of the table: two back (for swaps), the previous, and the one being filled.
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }

    /// " Did you mean 'places'?" when a candidate is near, else "".
    static func phrase(for word: String, in candidates: [String], quoted: Bool = true) -> String {
        guard let nearest = nearest(to: word, in: candidates) else { return "" }
        return quoted ? ". Did you mean '\(nearest)'?" : ". Did you mean \(nearest)?"
    }
}
