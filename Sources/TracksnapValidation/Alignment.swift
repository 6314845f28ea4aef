package import TracksnapJSON
package import TracksnapSnapshot

/// Pairs expected entries with captured values before their fields are compared.
///
/// Strict order: the longest sequence of exact matches in order (Hunt–Szymanski over hashed
/// candidates), then, between those anchors, a sequence alignment that pairs near misses, so an
/// extra or missing event costs one finding instead of shifting every later comparison.
/// Any order: exact matches by hash, then an optimal assignment (least total mismatch) of what is
/// left. Both then explain what stays unpaired: an exact match found elsewhere is out of order,
/// and in strict order so is a near miss found elsewhere (one entry, its differences and its
/// place, not one missing and one unexpected); an extra copy of a matched entry is a count mismatch.
package struct Alignment {
    package var pairs: [(expected: Int, actual: Int)] = []
    package var missing: [Int] = []
    package var unexpected: [Int] = []
    /// Entries captured out of the expected order: exact matches, and near misses, which are in
    /// `pairs` too, so that their fields are compared.
    package var outOfOrder: [(expected: Int, actual: Int)] = []
    /// Captured values that repeat an expected entry already matched.
    package var duplicates: [(expected: Int, actual: Int)] = []
}

/// Prices pairings for `Alignment`, caching each comparison.
package final class Aligner {
    /// A pairing costing more than this is not a near miss unless the identity (method and URL,
    /// or vendor and name) matches.
    static let nearMissThreshold = 0.5
    /// Above this many cells a gap or residual is paired greedily rather than optimally.
    static let exactLimit = 250_000

    /// Candidates an entry is tried against in strict order: those nearest its expected place.
    static let strictWindow = 512

    private let expected: [Matcher]
    private let actual: [JSONValue]
    /// The fields that say which entry it is; nil for the elements of a `$unordered`, which
    /// pair by content alone.
    private let identities: [Matcher?]
    /// Entries with the same matcher share a class, so a comparison is made once per class.
    private let classOfExpected: [Int]
    private let index: CandidateIndex
    private let ignore: IgnoreRules
    private let strictObjects: Bool
    /// For the elements of a `$unordered`, the array's place in its entry; nil for entries.
    private let tokens: [String]?
    private let lenient: Bool
    private var costs: [Int: Double] = [:]
    private var identityCache: [Int: Bool] = [:]

    package convenience init(expected: [ExpectedEntry], actual: [JSONValue], ignore: IgnoreRules, strictObjects: Bool) {
        self.init(
            matchers: expected.map(\.matcher),
            identities: expected.map { entry in
                guard case .object(let members, _) = entry.matcher else { return entry.matcher }
                let keys = ExpectedEntry.identityKeys(entry.kind)
                return .object(members.filter { keys.contains($0.key) }, strict: false)
            }, actual: actual, ignore: ignore, strictObjects: strictObjects, tokens: nil, lenient: false)
    }

    /// Pairs the elements of a `$unordered` with those of a captured array by content.
    ///
    /// ```swift
    /// let alignment = Aligner(elements: items, of: array, ignore: rules, strictObjects: false, at: ["body"])
    ///     .align(order: .any)
    /// ```
    /// - Parameters:
    ///   - tokens: the array's place in its entry (`["body"]`), for the ignore rules; an element's
    ///     own token is its index in the captured array.
    ///   - lenient: the elements are compared by text (inside `parameters` or `headers`).
    package convenience init(
        elements: [Matcher], of actual: [JSONValue], ignore: IgnoreRules, strictObjects: Bool, at tokens: [String],
        lenient: Bool = false
    ) {
        self.init(
            matchers: elements, identities: elements.map { _ in nil }, actual: actual, ignore: ignore,
            strictObjects: strictObjects, tokens: tokens, lenient: lenient)
    }

    private init(
        matchers: [Matcher], identities: [Matcher?], actual: [JSONValue], ignore: IgnoreRules, strictObjects: Bool,
        tokens: [String]?, lenient: Bool
    ) {
        self.expected = matchers
        self.actual = actual
        self.ignore = ignore
        self.strictObjects = strictObjects
        self.tokens = tokens
        self.lenient = lenient
        self.identities = identities
        self.index = CandidateIndex(
            expected: matchers, actual: actual, ignore: ignore, tokens: tokens.map { $0 + ["*"] } ?? [],
            lenient: lenient)
        var classes: [Matcher: Int] = [:]
        self.classOfExpected = matchers.map { matcher in
            if let known = classes[matcher] { return known }
            classes[matcher] = classes.count
            return classes.count - 1
        }
    }

    /// 0 for an exact match, up to 1 when nothing matches.
    package func cost(_ e: Int, _ a: Int) -> Double {
        let key = classOfExpected[e] &* actual.count &+ a
        if let cached = costs[key] { return cached }
        var comparator = Comparator(ignore: ignore, strictObjects: strictObjects, explain: false, entry: "")
        if let tokens {
            comparator.compareElement(expected[e], actual[a], tokens: tokens + [String(a)], lenient: lenient)
        } else {
            comparator.compareEntry(expected[e], actual[a])
        }
        costs[key] = comparator.cost
        return comparator.cost
    }

    func isExact(_ e: Int, _ a: Int) -> Bool { cost(e, a) == 0 }

    /// Whether the two may be paired as a near miss.
    func mayPair(_ e: Int, _ a: Int) -> Bool {
        let key = e &* actual.count &+ a
        let sameIdentity =
            identityCache[key]
            ?? {
                let result = identities[e]?.accepts(actual[a]) ?? false
                identityCache[key] = result
                return result
            }()
        return sameIdentity || cost(e, a) <= Self.nearMissThreshold
    }

    package func align(order: Order) -> Alignment {
        var alignment = order == .strict ? alignStrict() : alignAny()
        explainLeftovers(&alignment, order: order)
        alignment.pairs.sort { $0.expected < $1.expected }
        return alignment
    }

    // MARK: strict order

    private func alignStrict() -> Alignment {
        var alignment = Alignment()
        var previous = (expected: -1, actual: -1)
        for anchor in exactAnchors() + [(expected.count, actual.count)] {
            pairGap(
                expected: (previous.expected + 1)..<anchor.0, actual: (previous.actual + 1)..<anchor.1, into: &alignment
            )
            if anchor.0 < expected.count { alignment.pairs.append((anchor.0, anchor.1)) }
            previous = (anchor.0, anchor.1)
        }
        return alignment
    }

    /// The longest in-order chain of exact matches (Hunt–Szymanski: a longest increasing
    /// subsequence over the candidate pairs).
    private func exactAnchors() -> [(Int, Int)] {
        var tails: [Int] = []  // tails[k]: smallest actual index ending a chain of length k+1
        var tailNodes: [Int] = []
        var nodes: [(e: Int, a: Int, previous: Int)] = []
        let scale = Double(actual.count) / Double(max(expected.count, 1))
        for e in expected.indices {
            let candidates = index.candidates(forExpected: e)
            let center = Int(Double(e) * scale)
            let low = candidates.partitionPoint { $0 < center - Self.strictWindow }
            let high = candidates.partitionPoint { $0 <= center + Self.strictWindow }
            for a in candidates[low..<high].reversed() where isExact(e, a) {
                let low = tails.partitionPoint { $0 < a }
                nodes.append((e, a, low > 0 ? tailNodes[low - 1] : -1))
                if low == tails.count {
                    tails.append(a)
                    tailNodes.append(nodes.count - 1)
                } else {
                    tails[low] = a
                    tailNodes[low] = nodes.count - 1
                }
            }
        }
        var chain: [(Int, Int)] = []
        var node = tailNodes.last ?? -1
        while node >= 0 {
            chain.append((nodes[node].e, nodes[node].a))
            node = nodes[node].previous
        }
        return chain.reversed()
    }

    /// Pairs near misses between two anchors by a sequence alignment (each unpaired side costs ½).
    private func pairGap(expected es: Range<Int>, actual as_: Range<Int>, into alignment: inout Alignment) {
        if es.isEmpty || as_.isEmpty {
            alignment.missing += es
            alignment.unexpected += as_
            return
        }
        guard es.count * as_.count <= Self.exactLimit else {
            pairGreedily(Array(es), Array(as_), inOrder: true, into: &alignment)
            return
        }
        let rows = es.count
        let cols = as_.count
        var table = [Double](repeating: 0, count: (rows + 1) * (cols + 1))
        func at(_ i: Int, _ j: Int) -> Int { i * (cols + 1) + j }
        for i in 0...rows { table[at(i, 0)] = Double(i) / 2 }
        for j in 0...cols { table[at(0, j)] = Double(j) / 2 }
        for i in 1...rows {
            for j in 1...cols {
                var best = min(table[at(i - 1, j)], table[at(i, j - 1)]) + 0.5
                let e = es.lowerBound + i - 1
                let a = as_.lowerBound + j - 1
                if mayPair(e, a) { best = min(best, table[at(i - 1, j - 1)] + cost(e, a)) }
                table[at(i, j)] = best
            }
        }
        var i = rows
        var j = cols
        var pairs: [(Int, Int)] = []
        while i > 0 || j > 0 {
            let e = es.lowerBound + i - 1
            let a = as_.lowerBound + j - 1
            if i > 0, j > 0, mayPair(e, a), table[at(i, j)] == table[at(i - 1, j - 1)] + cost(e, a) {
                pairs.append((e, a))
                i -= 1
                j -= 1
            } else if i > 0, table[at(i, j)] == table[at(i - 1, j)] + 0.5 {
                alignment.missing.append(e)
                i -= 1
            } else {
                alignment.unexpected.append(a)
                j -= 1
            }
        }
        alignment.pairs += pairs.reversed()
    }

    // MARK: any order

    private func alignAny() -> Alignment {
        var alignment = Alignment()
        var used = [Bool](repeating: false, count: actual.count)
        var paired = [Bool](repeating: false, count: expected.count)
        // The most constrained entries first, so a pattern does not take what only a literal fits.
        let byConstraint = expected.indices.map { ($0, index.candidates(forExpected: $0)) }.sorted {
            $0.1.count < $1.1.count
        }
        for (e, candidates) in byConstraint {
            if let a = candidates.first(where: { !used[$0] && isExact(e, $0) }) {
                used[a] = true
                paired[e] = true
                alignment.pairs.append((e, a))
            }
        }
        let restE = expected.indices.filter { !paired[$0] }
        let restA = actual.indices.filter { !used[$0] }
        if restE.isEmpty || restA.isEmpty || restE.count * restA.count > Self.exactLimit {
            pairGreedily(restE, restA, inOrder: false, into: &alignment)
            return alignment
        }
        let flipped = restE.count > restA.count
        let rows = flipped ? restA : restE
        let cols = flipped ? restE : restA
        let assignment = Assignment.minimumCost(rows: rows.count, columns: cols.count) { r, c in
            let (e, a) = flipped ? (cols[c], rows[r]) : (rows[r], cols[c])
            return mayPair(e, a) ? cost(e, a) : 1
        }
        var pairedE = Set<Int>()
        var pairedA = Set<Int>()
        for (r, c) in assignment.enumerated() {
            let (e, a) = flipped ? (cols[c], rows[r]) : (rows[r], cols[c])
            guard mayPair(e, a), cost(e, a) < 1 else { continue }
            alignment.pairs.append((e, a))
            pairedE.insert(e)
            pairedA.insert(a)
        }
        alignment.missing += restE.filter { !pairedE.contains($0) }
        alignment.unexpected += restA.filter { !pairedA.contains($0) }
        return alignment
    }

    /// For inputs too large to pair optimally: each entry takes the cheapest pairable value among
    /// the next few (in order) or any few (any order) still free.
    private func pairGreedily(_ es: [Int], _ as_: [Int], inOrder: Bool, into alignment: inout Alignment) {
        let window = 64
        var used = Set<Int>()
        var start = 0
        for e in es {
            var best: (position: Int, cost: Double)?
            var looked = 0
            var position = start
            while position < as_.count, looked < window {
                defer { position += 1 }
                guard !used.contains(as_[position]) else { continue }
                looked += 1
                let a = as_[position]
                if mayPair(e, a), cost(e, a) < (best?.cost ?? 1) { best = (position, cost(e, a)) }
            }
            if let best {
                used.insert(as_[best.position])
                alignment.pairs.append((e, as_[best.position]))
                if inOrder { start = best.position + 1 }
            } else {
                alignment.missing.append(e)
            }
        }
        alignment.unexpected += as_.filter { !used.contains($0) }
    }

    // MARK: leftovers

    private func explainLeftovers(_ alignment: inout Alignment, order: Order) {
        var unexpected = Set(alignment.unexpected)
        if order == .strict {
            var stillMissing: [Int] = []
            for e in alignment.missing {
                if let a = index.candidates(forExpected: e).first(where: { unexpected.contains($0) && isExact(e, $0) })
                {
                    unexpected.remove(a)
                    alignment.outOfOrder.append((e, a))
                } else {
                    stillMissing.append(e)
                }
            }
            // A near miss out of order: the cheapest one left that may pair (the same event, or
            // half its values alike), as `align(order: .any)` would have paired it.
            alignment.missing = stillMissing.filter { e in
                let nearest = unexpected.filter { mayPair(e, $0) }.min { (cost(e, $0), $0) < (cost(e, $1), $1) }
                guard let a = nearest else { return true }
                unexpected.remove(a)
                alignment.pairs.append((e, a))
                alignment.outOfOrder.append((e, a))
                return false
            }
        }
        let matched = Set(
            alignment.pairs.filter { isExact($0.expected, $0.actual) }.map(\.expected)
                + alignment.outOfOrder.map(\.expected))
        for a in unexpected.sorted() {
            if let e = index.candidates(forActual: a).first(where: { matched.contains($0) && isExact($0, a) }) {
                unexpected.remove(a)
                alignment.duplicates.append((e, a))
            }
        }
        alignment.missing.sort()
        alignment.unexpected = unexpected.sorted()
    }
}

extension Array {
    /// The index of the first element for which `belongs` is false, in an array partitioned so
    /// that it is true for a prefix (binary search).
    func partitionPoint(_ belongs: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let mid = (low + high) / 2
            if belongs(self[mid]) { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
