import Foundation
package import NIOCore
package import TracksnapTraffic
import TracksnapValidation

/// What the server answered a captured request: the collector's answer, what the upstream or
/// a cassette answered, a refusal. Kept for the inspector (`CaptureStore.answered`), not part
/// of a capture: exports and the journal hold requests only. The stream shows it as a
/// `RequestStream.Answer`, redacted.
///
/// The body is kept as the bytes that were written (the response's own buffer, not a copy) and
/// decoded only when it is shown: most answers are never looked at, and decoding each one as it
/// went out (gzip undone, JSON parsed for encoded layers) cost the collector a tenth of its time.
///
/// ```swift
/// answer.shown(id: "3", redactor: redactor)   // {"body":"{\"code\":200}","bodyEncoding":"text","headers":[…],"id":"3","status":200}
/// ```
package struct CapturedAnswer: Sendable, Hashable {
    /// The most bytes of an answer's body kept; the rest is cut (`shown`'s `truncated`).
    static let bodyLimit = 256 * 1024

    var status: Int
    var headers: [CapturedRequest.Header]
    /// The body as written, cut at `bodyLimit` bytes.
    private var bytes: ByteBuffer
    /// The body was longer than `bodyLimit`.
    private var cut: Bool

    package init(status: Int, headers: [CapturedRequest.Header], body: ByteBuffer) {
        self.status = status
        self.headers = headers
        cut = body.readableBytes > Self.bodyLimit
        // A cut body is copied, so that the kept answer does not hold the whole one.
        bytes = cut ? ByteBuffer(bytes: body.readableBytesView.prefix(Self.bodyLimit)) : body
    }

    /// About the bytes the answer holds in memory: its body and its headers.
    var size: Int {
        headers.reduce(bytes.readableBytes) { $0 + $1.name.utf8.count + $1.value.utf8.count }
    }

    /// The body, its content encoding undone; and whether it is shown cut: longer than
    /// `bodyLimit`, or inflating beyond it (then shown as it came).
    func decodedBody() -> (body: CapturedRequest.Body?, truncated: Bool) {
        let kept = Array(bytes.readableBytesView)
        guard !kept.isEmpty else { return (nil, cut) }
        // A cut gzip stream does not inflate: a cut answer is shown as it came.
        let coding = cut ? nil : headers.first { $0.name.lowercased() == "content-encoding" }?.value
        if let decoded = try? BodyDecoder(limit: Self.bodyLimit).body(kept, contentEncoding: coding) {
            return (decoded, cut)
        }
        let asItCame = String(validating: kept, as: UTF8.self).map { CapturedRequest.Body.text($0) }
        return (asItCame ?? .base64(Data(kept).base64EncodedString()), true)
    }

    /// The answer as the stream shows it, its secrets hidden as its request's are.
    func shown(id: String, redactor: Redactor) -> RequestStream.Answer {
        let (body, truncated) = decodedBody()
        return RequestStream.Answer(
            id: id, status: status, headers: redactor.redact(headers: headers), body: redactor.redact(body: body),
            truncated: truncated)
    }
}
