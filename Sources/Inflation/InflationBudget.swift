/// How many bytes the decoding of one request may still produce, shared by every layer it
/// inflates: gzip in gzip, gzip in base64 in a form field, a decoder's own inflation.
///
/// ```swift
/// var budget = InflationBudget(limit: 16 << 20)
/// let outer = try Inflation.inflate(body, format: .gzip, budget: &budget)
/// let inner = try Inflation.inflate(outer, format: .gzip, budget: &budget)  // counted with `outer`
/// ```
package struct InflationBudget: Sendable, Hashable {
    /// The most bytes all layers together may produce.
    package let limit: Int
    /// The bytes produced so far.
    package private(set) var spent = 0

    package init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// What is left to spend.
    package var remaining: Int { limit - spent }

    /// Counts bytes a layer produced.
    ///
    /// - Throws: `InflationError.overBudget` when they take the total beyond the limit; the
    ///   budget is then spent to its limit.
    package mutating func spend(_ count: Int) throws(InflationError) {
        guard count <= remaining else {
            spent = limit
            throw InflationError(.overBudget(limit: limit))
        }
        spent += count
    }
}
