import Foundation
import Inflation

/// The one decoder of request bodies, used by the capture server, the in-process capture and
/// the capture file readers: undoes the content encoding, keeps the body as text when it is
/// UTF-8 (else base64), and refuses a body that inflates beyond the limit.
///
/// ```swift
/// let body = try BodyDecoder(limit: 16 << 20).body(bytes, contentEncoding: "gzip")
/// ```
///
/// The limit bounds everything one request inflates to, every layer counted together: the
/// body once its content encoding is undone (every coding's output, when there are several),
/// and each gzip layer found inside it — a gzip body with no `Content-Encoding` (PostHog's
/// `gzip-js`), gzip in base64 in a form field or a JSON string, however deep — which is what
/// decoders and secret searches inflate later. A body with no coding counts its own size.
/// Inflation stops at the first byte beyond the limit, so a bomb costs at most the limit.
package struct BodyDecoder: Sendable {
    /// The body inflates beyond the limit.
    package struct Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        package let limit: Int
        package var description: String { "the body inflates beyond the limit of \(limit) bytes" }
    }

    /// The most bytes one request's body may decode to, all layers together.
    package let limit: Int

    package init(limit: Int) {
        self.limit = limit
    }

    /// The body as recorded.
    ///
    /// - Parameters:
    ///   - bytes: the body as sent.
    ///   - contentEncoding: the `Content-Encoding` header, if any. A coding that is unknown or
    ///     does not decode (corrupt, truncated) leaves the body as sent rather than lost.
    /// - Throws: `Refusal` when the body and the layers inside it inflate beyond the limit.
    package func body(_ bytes: [UInt8], contentEncoding: String? = nil) throws(Refusal) -> CapturedRequest.Body {
        var budget = InflationBudget(limit: limit)
        var decoded = bytes
        var inflated = false
        if let contentEncoding, ContentDecoding.isSupported(contentEncoding) {
            do throws(ContentDecoding.Failure) {
                decoded = try ContentDecoding.decode(bytes, encoding: contentEncoding, budget: &budget)
                inflated = budget.spent > 0 || decoded.count != bytes.count
            } catch {
                if error.inflation?.isOverBudget == true { throw Refusal(limit: limit) }
            }
        }
        do throws(InflationError) {
            if !inflated { try budget.spend(decoded.count) }
            try EncodedLayers.inflateAll(in: decoded, budget: &budget)
        } catch {
            throw Refusal(limit: limit)
        }
        if let text = String(validating: decoded, as: UTF8.self) { return .text(text) }
        return .base64(Data(decoded).base64EncodedString())
    }
}
