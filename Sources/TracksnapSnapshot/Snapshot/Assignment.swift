/// The assignment problem: pair every row with a distinct column at the least total cost.
///
/// One home for pairing by content: validation's alignment of entries (any order) and the
/// elements of a `$unordered` array both use it.
package enum Assignment {
    /// The Hungarian algorithm with potentials, O(rows² · columns).
    ///
    /// - Parameters:
    ///   - rows: how many rows; must not exceed `columns`.
    ///   - cost: the cost of pairing row `r` with column `c`.
    /// - Returns: for each row, the column it is paired with.
    package static func minimumCost(rows: Int, columns: Int, cost: (Int, Int) -> Double) -> [Int] {
        precondition(rows <= columns, "Assignment needs rows <= columns")
        let n = rows
        let m = columns
        var u = [Double](repeating: 0, count: n + 1)
        var v = [Double](repeating: 0, count: m + 1)
        var rowOfColumn = [Int](repeating: 0, count: m + 1)
        var way = [Int](repeating: 0, count: m + 1)
        var matrix = [Double](repeating: 0, count: n * m)
        for r in 0..<n { for c in 0..<m { matrix[r * m + c] = cost(r, c) } }
        for i in 1...max(n, 1) where n > 0 {
            rowOfColumn[0] = i
            var j0 = 0
            var minv = [Double](repeating: .infinity, count: m + 1)
            var used = [Bool](repeating: false, count: m + 1)
            repeat {
                used[j0] = true
                let i0 = rowOfColumn[j0]
                var delta = Double.infinity
                var j1 = 0
                for j in 1...m where !used[j] {
                    let current = matrix[(i0 - 1) * m + (j - 1)] - u[i0] - v[j]
                    if current < minv[j] {
                        minv[j] = current
                        way[j] = j0
                    }
                    if minv[j] < delta {
                        delta = minv[j]
                        j1 = j
                    }
                }
                for j in 0...m {
                    if used[j] {
                        u[rowOfColumn[j]] += delta
                        v[j] -= delta
                    } else {
                        minv[j] -= delta
                    }
                }
                j0 = j1
            } while rowOfColumn[j0] != 0
            repeat {
                let j1 = way[j0]
                rowOfColumn[j0] = rowOfColumn[j1]
                j0 = j1
            } while j0 != 0
        }
        var result = [Int](repeating: -1, count: n)
        for j in 1...max(m, 1) where m > 0 && rowOfColumn[j] > 0 { result[rowOfColumn[j] - 1] = j - 1 }
        return result
    }
}
