import Foundation
public import TracksnapTraffic

extension Interaction.Response {
    /// The most bytes a stored body is inflated to, to tell whether it is still encoded or to
    /// serve it decoded: beyond it, a body that inflates so far is taken as encoded, and served so.
    static let largestDecodedBody = 256 << 20

    /// The `Content-Encoding` recorded with the answer (several, joined with commas), if any.
    public var contentEncoding: String? {
        let codings = headers.filter { $0.name.lowercased() == "content-encoding" }.map(\.value)
        return codings.isEmpty ? nil : codings.joined(separator: ", ")
    }

    /// Whether the stored body is still in the `Content-Encoding` recorded with it, as Ruby VCR
    /// (`base64_string`), vcrpy (`!!binary`) and tracksnap's proxy store a compressed answer;
    /// false when the body was stored decoded though the header was kept, as DVR, Vinyl, HAR
    /// and tracksnap's in-process capture store it.
    ///
    /// A coding tracksnap undoes (`gzip`, `deflate`) is still there when the body decodes as
    /// it; one it does not (`br`, `zstd`) when the body is bytes, not text. HAR bodies are
    /// decoded by the format's definition, and its reader keeps no `Content-Encoding`.
    public var isBodyEncoded: Bool {
        guard let coding = contentEncoding, let body else { return false }
        let codings = coding.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if codings.allSatisfy({ $0.isEmpty || $0 == "identity" }) { return false }
        guard ContentDecoding.isSupported(coding) else {
            if case .binary = body { return true }
            return false
        }
        do throws(ContentDecoding.Failure) {
            _ = try ContentDecoding.decode(body.bytes, encoding: coding, limit: Self.largestDecodedBody)
            return true
        } catch {
            return error.isOverBudget
        }
    }

    /// The answer as a recording stores it: a body still in a coding tracksnap undoes (gzip,
    /// deflate) decoded, without its `Content-Encoding` and `Content-Length`, as vcrpy's
    /// `decode_compressed_response` stores it, so that the recording can hide the secrets the
    /// body holds and a reader sees them hidden. Served, it is what a server answers a client
    /// that accepts no coding. A body that does not decode within `limit` bytes is kept as it came.
    package func decodedForRecording(limit: Int) -> Self {
        guard isBodyEncoded, let coding = contentEncoding, ContentDecoding.isSupported(coding),
            let decoded = try? ContentDecoding.decode(body?.bytes ?? [], encoding: coding, limit: limit)
        else { return self }
        let framing: Set<String> = ["content-encoding", "content-length"]
        let kept = headers.filter { !framing.contains($0.name.lowercased()) }
        return Self(status: status, headers: kept, bytes: decoded)
    }

    /// What is served for a request: the answer as recorded, with `Content-Encoding` kept when
    /// the body is still in it, and dropped when it was stored decoded. A body still encoded in
    /// a coding the request does not accept (`Accept-Encoding`; none, as curl without
    /// `--compressed` and a URLProtocol's requests send) is served decoded when tracksnap can
    /// undo the coding (gzip, deflate), as a server that negotiates would. `Content-Length` and
    /// `Transfer-Encoding` are never served as recorded: the server or URLSession frames what
    /// is served, and `Content-Length` given here is the length of `body`.
    ///
    /// ```swift
    /// let (headers, body) = answer.served(acceptEncoding: request.header("Accept-Encoding"))
    /// ```
    public func served(acceptEncoding: String?) -> (headers: [CapturedRequest.Header], body: [UInt8]) {
        let framing: Set<String> = ["content-length", "transfer-encoding"]
        var headers = headers.filter { !framing.contains($0.name.lowercased()) }
        var bytes = body?.bytes ?? []
        let encoded = isBodyEncoded
        if encoded, let coding = contentEncoding, !Self.accepts(acceptEncoding, coding),
            ContentDecoding.isSupported(coding),
            let decoded = try? ContentDecoding.decode(bytes, encoding: coding, limit: Self.largestDecodedBody)
        {
            bytes = decoded
            headers.removeAll { $0.name.lowercased() == "content-encoding" }
        } else if !encoded {
            headers.removeAll { $0.name.lowercased() == "content-encoding" }
        }
        headers.append(CapturedRequest.Header(name: "Content-Length", value: String(bytes.count)))
        return (headers, bytes)
    }

    /// Whether an `Accept-Encoding` value accepts every coding of a `Content-Encoding` value
    /// (RFC 9110 §12.5.3: by name or `*`, with a weight above 0).
    static func accepts(_ acceptEncoding: String?, _ contentEncoding: String) -> Bool {
        guard let acceptEncoding else { return false }
        var weights: [String: Bool] = [:]
        for item in acceptEncoding.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let name = parts.first, !name.isEmpty else { continue }
            let weight = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            weights[name] = weight > 0
        }
        return contentEncoding.split(separator: ",").allSatisfy { coding in
            let name = coding.trimmingCharacters(in: .whitespaces).lowercased()
            if name.isEmpty || name == "identity" { return true }
            let alias = name == "x-gzip" ? "gzip" : name
            return weights[name] ?? weights[alias] ?? weights["*"] ?? false
        }
    }
}
