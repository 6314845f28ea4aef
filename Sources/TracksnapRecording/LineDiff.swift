/// A line diff of two texts, as `diff -u` prints it, for reviewing a pending snapshot.
///
/// ```swift
/// LineDiff.unified(old: "a\nb\n", new: "a\nc\n", oldName: "x.json", newName: "x.new.json")
/// // --- x.json
/// // +++ x.new.json
/// // @@ -1,2 +1,2 @@
/// //  a
/// // -b
/// // +c
/// ```
package enum LineDiff {
    /// Beyond this many line pairs the texts are shown as wholly replaced rather than aligned.
    static let limit = 4_000_000

    /// - Parameters:
    ///   - old: the text before.
    ///   - new: the text after.
    ///   - context: unchanged lines shown around each change.
    /// - Returns: the diff, empty when the texts have the same lines.
    package static func unified(old: String, new: String, oldName: String, newName: String, context: Int = 3) -> String
    {
        let a = lines(old)
        let b = lines(new)
        let script = edits(a, b)
        guard script.contains(where: { $0.kind != .same }) else { return "" }
        var out = ["--- \(oldName)", "+++ \(newName)"]
        var start = 0
        while let change = script[start...].firstIndex(where: { $0.kind != .same }) {
            var end = change
            // A hunk runs on while the next change is within twice the context.
            while let next = script[(end + 1)...].firstIndex(where: { $0.kind != .same }), next - end <= 2 * context {
                end = next
            }
            let low = max(change - context, start)
            let high = min(end + context + 1, script.count)
            let hunk = script[low..<high]
            let oldStart = hunk.first?.oldLine ?? 0
            let newStart = hunk.first?.newLine ?? 0
            let oldCount = hunk.filter { $0.kind != .added }.count
            let newCount = hunk.filter { $0.kind != .removed }.count
            out.append(
                "@@ -\(oldStart + (oldCount > 0 ? 1 : 0)),\(oldCount) +\(newStart + (newCount > 0 ? 1 : 0)),\(newCount) @@"
            )
            for edit in hunk {
                switch edit.kind {
                case .same: out.append(" " + edit.text)
                case .removed: out.append("-" + edit.text)
                case .added: out.append("+" + edit.text)
                }
            }
            start = high
            if start >= script.count { break }
        }
        return out.joined(separator: "\n") + "\n"
    }

    private struct Edit {
        enum Kind { case same, removed, added }
        var kind: Kind
        var text: String
        /// 0-based lines in each text where this edit stands.
        var oldLine: Int
        var newLine: Int
    }

    private static func lines(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// A shortest edit script by longest common subsequence.
    private static func edits(_ a: [String], _ b: [String]) -> [Edit] {
        let prefix = zip(a, b).prefix { $0 == $1 }.count
        let suffix = zip(a[prefix...].reversed(), b[prefix...].reversed()).prefix { $0 == $1 }.count
        let middleA = Array(a[prefix..<(a.count - suffix)])
        let middleB = Array(b[prefix..<(b.count - suffix)])
        var script = (0..<prefix).map { Edit(kind: .same, text: a[$0], oldLine: $0, newLine: $0) }
        let rows = middleA.count
        let cols = middleB.count
        if rows * cols > limit || rows == 0 || cols == 0 {
            script += middleA.enumerated().map { Edit(kind: .removed, text: $1, oldLine: prefix + $0, newLine: prefix) }
            script += middleB.enumerated().map {
                Edit(kind: .added, text: $1, oldLine: prefix + rows, newLine: prefix + $0)
            }
        } else {
            // lengths[i][j]: the longest common subsequence of middleA[i...] and middleB[j...].
            var lengths = [Int](repeating: 0, count: (rows + 1) * (cols + 1))
            for i in stride(from: rows - 1, through: 0, by: -1) {
                for j in stride(from: cols - 1, through: 0, by: -1) {
                    lengths[i * (cols + 1) + j] =
                        middleA[i] == middleB[j]
                        ? lengths[(i + 1) * (cols + 1) + j + 1] + 1
                        : max(lengths[(i + 1) * (cols + 1) + j], lengths[i * (cols + 1) + j + 1])
                }
            }
            var i = 0
            var j = 0
            while i < rows || j < cols {
                if i < rows, j < cols, middleA[i] == middleB[j] {
                    script.append(Edit(kind: .same, text: middleA[i], oldLine: prefix + i, newLine: prefix + j))
                    i += 1
                    j += 1
                } else if i < rows, j == cols || lengths[(i + 1) * (cols + 1) + j] >= lengths[i * (cols + 1) + j + 1] {
                    script.append(Edit(kind: .removed, text: middleA[i], oldLine: prefix + i, newLine: prefix + j))
                    i += 1
                } else {
                    script.append(Edit(kind: .added, text: middleB[j], oldLine: prefix + i, newLine: prefix + j))
                    j += 1
                }
            }
        }
        let shift = (a.count - suffix, b.count - suffix)
        script += (0..<suffix).map {
            Edit(kind: .same, text: a[shift.0 + $0], oldLine: shift.0 + $0, newLine: shift.1 + $0)
        }
        return script
    }
}
