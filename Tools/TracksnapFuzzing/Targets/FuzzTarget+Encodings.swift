import TracksnapSnapshot
import TracksnapTraffic

extension FuzzTarget {
    /// Query strings and form bodies: pairs and decoding never fail, and encoding then decoding
    /// gives the text back.
    static let form = FuzzTarget(
        "form", "FormEncoding.pairs, decode and looksLikeForm; decode(encode(text)) == text",
        seeds: ["Tests/TracksnapDecodersTests/Fixtures"]
    ) { bytes throws(PropertyViolation) in
        let text = Input.text(bytes)
        _ = FormEncoding.pairs(text[...])
        _ = FormEncoding.looksLikeForm(text)
        let request = CapturedRequest(
            id: "0", method: "POST", url: "https://t.example/p?\(text)",
            headers: [.init(name: "Content-Type", value: "application/x-www-form-urlencoded")], body: .text(text))
        _ = request.parameters
        let decoded = FormEncoding.decode(FormEncoding.encode(text)[...])
        guard decoded == text else {
            throw PropertyViolation(
                target: "form",
                "encoding then decoding changed the text: \(text.debugDescription) became \(decoded.debugDescription)")
        }
    }

    /// The `Content-Encoding` codings a body is sent with.
    static let codings = ["gzip", "deflate", "gzip, deflate", "deflate, gzip", "x-gzip", "identity", "br"]

    /// Content decoding and the body decoder: the first byte picks a coding, the rest is the
    /// body; the output never exceeds the limit.
    static let content = FuzzTarget(
        "content",
        "BodyDecoder.body and ContentDecoding.decode; the first byte picks the Content-Encoding, the output stays under the limit"
    ) { bytes throws(PropertyViolation) in
        guard let first = bytes.first else { return }
        let coding = codings[Int(first) % codings.count]
        let limit = 1 << 20
        _ = ContentDecoding.looksGzipped(Array(bytes.dropFirst()))
        if let body = try? BodyDecoder(limit: limit).body(Array(bytes.dropFirst()), contentEncoding: coding),
            let size = CapturedRequest(id: "0", method: "POST", url: "", body: body).bodyBytes?.count, size > limit
        {
            throw PropertyViolation(
                target: "content", "BodyDecoder kept a \(coding) body of \(size) bytes, over the limit of \(limit)")
        }
        guard let decoded = try? ContentDecoding.decode(Array(bytes.dropFirst()), encoding: coding, limit: limit) else {
            return
        }
        guard decoded.count <= limit else {
            throw PropertyViolation(
                target: "content", "\(coding) decoded to \(decoded.count) bytes, over the limit of \(limit)")
        }
    }
}
