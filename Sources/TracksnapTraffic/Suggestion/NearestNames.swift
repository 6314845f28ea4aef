/// The valid names nearest to a mistyped one, for "did you mean …?": one rule for subcommands,
/// profile names, `--intercept` keywords and the other words a user types.
///
/// ```swift
/// NearestNames.to("segmnet", among: ["default", "segment", "snowplow"])        // ["segment"]
/// NearestNames.didYouMean("analytcs", among: ["all", "analytics"])             // "did you mean analytics?"
/// NearestNames.didYouMean("frobnicate", among: ["validate", "lint"])           // nil
/// ```
///
/// Nearness is the edit distance without regard to case, a swap of two neighbouring letters
/// counting as one edit, and a name is near when at most a third of the word's letters (at least
/// 1, at most 3) must change: `lnt` finds `lint`, `segmnet` finds `segment`, and a word of
/// another meaning (`frobnicate`) finds nothing.
package enum NearestNames {
    /// The names at the smallest distance from `word` that is near enough, in the order given;
    /// empty when none is near, or when `word` is itself one of them.
    package static func to(_ word: String, among names: some Sequence<String>) -> [String] {
        let typed = Array(word.lowercased())
        let limit = max(1, min(3, typed.count / 3))
        var best: [String] = []
        var bestDistance = limit
        for name in names where !best.contains(name) {
            let distance = editDistance(typed, Array(name.lowercased()))
            if distance == 0 { return [] }
            if distance > bestDistance { continue }
            if distance < bestDistance || best.isEmpty {
                best = [name]
                bestDistance = distance
            } else if distance == bestDistance {
                best.append(name)
            }
        }
        return best
    }

    /// `did you mean segment?`, or `did you mean segment or snowplow?`; nil when no name is near.
    package static func didYouMean(_ word: String, among names: some Sequence<String>) -> String? {
        let nearest = to(word, among: names)
        guard let last = nearest.last else { return nil }
        let alternatives = nearest.count == 1 ? last : nearest.dropLast().joined(separator: ", ") + " or " + last
        return "did you mean \(alternatives)?"
    }

    /// The optimal string alignment distance: insertions, deletions, substitutions and swaps of
    /// neighbours, each one edit.
    static func editDistance(_ source: [Character], _ target: [Character]) -> Int {
        guard !source.isEmpty else { return target.count }
        guard !target.isEmpty else { return source.count }
        // Three rows of the table suffice: a swap looks two rows back.
        var previous2 = [Int](repeating: 0, count: target.count + 1)
        var previous = Array(0...target.count)
        var current = [Int](repeating: 0, count: target.count + 1)
        for i in 1...source.count {
            current[0] = i
            for j in 1...target.count {
                let cost = source[i - 1] == target[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, source[i - 1] == target[j - 2], source[i - 2] == target[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[target.count]
    }
}
