import Foundation
package import TracksnapTraffic
import TracksnapValidation

/// What the server answered a captured request: the collector's answer, what the upstream or
/// a cassette answered, a refusal. Kept for the inspector (`CaptureStore.answered`), not part
/// of a capture: exports and the journal hold requests only. The stream shows it as a
/// `RequestStream.Answer`, redacted.
///
/// ```swift
/// answer.shown(id: "3", redactor: redactor)   // {"body":"{\"code\":200}","bodyEncoding":"text","headers":[…],"id":"3","status":200}
/// ```
package struct CapturedAnswer: Sendable, Hashable {
    /// The most bytes of an answer's body kept; the rest is cut (`truncated`).
    static let bodyLimit = 256 * 1024

    var status: Int
    var headers: [CapturedRequest.Header]
    /// The body, its content encoding undone, cut at `bodyLimit` bytes.
    var body: CapturedRequest.Body?
    /// The body was longer than `bodyLimit`, or could not be decoded within it.
    var truncated: Bool

    package init(status: Int, headers: [CapturedRequest.Header], bytes: [UInt8]) {
        self.status = status
        self.headers = headers
        truncated = bytes.count > Self.bodyLimit
        let kept = Array(bytes.prefix(Self.bodyLimit))
        guard !kept.isEmpty else { return }
        // A cut gzip stream does not inflate: a cut answer is shown as it came.
        let coding = truncated ? nil : headers.first { $0.name.lowercased() == "content-encoding" }?.value
        if let decoded = try? BodyDecoder(limit: Self.bodyLimit).body(kept, contentEncoding: coding) {
            body = decoded
        } else {
            // It inflates beyond the limit: shown as it came.
            body =
                String(validating: kept, as: UTF8.self).map { .text($0) } ?? .base64(Data(kept).base64EncodedString())
            truncated = true
        }
    }

    /// About the bytes the answer holds in memory: its body and its headers.
    var size: Int {
        let body: Int
        switch self.body {
        case .text(let text): body = text.utf8.count
        case .base64(let encoded): body = encoded.utf8.count
        case nil: body = 0
        }
        return headers.reduce(body) { $0 + $1.name.utf8.count + $1.value.utf8.count }
    }

    /// The answer as the stream shows it, its secrets hidden as its request's are.
    func shown(id: String, redactor: Redactor) -> RequestStream.Answer {
        RequestStream.Answer(
            id: id, status: status, headers: redactor.redact(headers: headers), body: redactor.redact(body: body),
            truncated: truncated)
    }
}
