/// Why a compressed stream was not inflated.
///
/// ```swift
/// catch let error where error.isOverBudget { print(error) }  // "inflates beyond 16777216 bytes"
/// ```
package struct InflationError: Error, Sendable, Hashable, CustomStringConvertible {
    package enum Kind: Sendable, Hashable {
        case overBudget(limit: Int)
        case truncated
        case corrupt
        case unavailable
    }

    package let kind: Kind

    package init(_ kind: Kind) {
        self.kind = kind
    }

    /// Whether the stream inflates beyond what the budget had left: a decompression bomb, or
    /// simply too much for the limit.
    package var isOverBudget: Bool {
        if case .overBudget = kind { return true }
        return false
    }

    /// The budget's limit when the stream inflates beyond it.
    package var limit: Int? {
        if case .overBudget(let limit) = kind { return limit }
        return nil
    }

    package var description: String {
        switch kind {
        case .overBudget(let limit): "inflates beyond \(limit) bytes"
        case .truncated: "compressed data is truncated"
        case .corrupt: "compressed data is corrupt"
        case .unavailable: "zlib cannot start an inflater"
        }
    }
}
