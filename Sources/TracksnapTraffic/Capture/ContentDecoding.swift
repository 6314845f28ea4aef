package import Inflation

/// Undoes a body's content encoding (gzip, deflate) within an inflation budget, so that a small
/// compressed body cannot become gigabytes (a gzip bomb).
///
/// ```swift
/// var budget = InflationBudget(limit: 16 << 20)
/// let plain = try ContentDecoding.decode(bytes, encoding: "gzip", budget: &budget)
/// ```
package enum ContentDecoding {
    package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        package let message: String
        /// Set when the body inflates beyond the budget: a bomb, not a corrupt body.
        package let inflation: InflationError?
        package var description: String { message }
        /// Whether the body inflates beyond the budget.
        package var isOverBudget: Bool { inflation?.isOverBudget == true }

        init(_ message: String, inflation: InflationError? = nil) {
            self.message = message
            self.inflation = inflation
        }
    }

    /// Whether `decode` understands this `Content-Encoding` value.
    package static func isSupported(_ encoding: String) -> Bool {
        codings(encoding).allSatisfy { ["gzip", "x-gzip", "deflate", "identity", ""].contains($0) }
    }

    /// - Parameters:
    ///   - bytes: the body as sent.
    ///   - encoding: the `Content-Encoding` header (`gzip`, `deflate`, or `identity`); several
    ///     comma-separated codings are undone from last to first.
    ///   - budget: what every layer's output together may spend.
    /// - Throws: `Failure` for corrupt data, an unknown coding, or output beyond the budget.
    package static func decode(_ bytes: [UInt8], encoding: String, budget: inout InflationBudget) throws(Failure)
        -> [UInt8]
    {
        var data = bytes
        for coding in codings(encoding).reversed() {
            switch coding {
            case "", "identity": continue
            case "gzip", "x-gzip", "deflate": break
            default: throw Failure("unsupported content encoding \"\(coding)\"")
            }
            do throws(InflationError) {
                if coding != "deflate" {
                    data = try Inflation.inflate(data, format: .gzip, budget: &budget)
                } else {
                    // "deflate" is meant to be zlib-wrapped, but some clients send raw deflate. A
                    // failed attempt spends nothing; one beyond the budget is final.
                    do throws(InflationError) {
                        data = try Inflation.inflate(data, format: .zlibOrGzip, budget: &budget)
                    } catch  where !error.isOverBudget {
                        data = try Inflation.inflate(data, format: .raw, budget: &budget)
                    }
                }
            } catch {
                let message =
                    switch error.kind {
                    case .overBudget(let limit): "decompressed body inflates beyond \(limit) bytes"
                    case .truncated: "compressed body is truncated"
                    case .corrupt, .unavailable: "compressed body is corrupt"
                    }
                throw Failure(message, inflation: error)
            }
        }
        return data
    }

    /// `decode` with a budget of its own.
    package static func decode(_ bytes: [UInt8], encoding: String, limit: Int) throws(Failure) -> [UInt8] {
        var budget = InflationBudget(limit: limit)
        return try decode(bytes, encoding: encoding, budget: &budget)
    }

    /// Whether the bytes start with gzip's magic number.
    package static func looksGzipped(_ bytes: [UInt8]) -> Bool {
        Inflation.looksGzipped(bytes)
    }

    private static func codings(_ encoding: String) -> [String] {
        encoding.split(separator: ",").map { String($0).lowercased().trimmingSpaces }
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
