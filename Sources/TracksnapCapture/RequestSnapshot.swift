import Foundation
import TracksnapTraffic

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a URLProtocol can see of a request: turns a `URLRequest` into a `CapturedRequest`.
enum RequestSnapshot {
    /// The body bytes the request carries: `httpBody`, or `httpBodyStream` read to its end.
    ///
    /// A stream can be read only once, so the caller must forward the returned bytes as
    /// `httpBody` instead of the spent stream.
    static func bodyBytes(of request: URLRequest) -> [UInt8]? {
        if let body = request.httpBody { return [UInt8](body) }
        guard let stream = request.httpBodyStream else { return nil }
        return drain(stream)
    }

    static func drain(_ stream: InputStream) -> [UInt8] {
        stream.open()
        defer { stream.close() }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let read = stream.read(&buffer, maxLength: buffer.count)
            guard read > 0 else { break }
            bytes.append(contentsOf: buffer[0..<read])
        }
        return bytes
    }

    /// The request as tracksnap records it.
    ///
    /// Headers come from `allHTTPHeaderFields`, a dictionary: URLRequest does not keep their
    /// order, so they are sorted by name to make a capture reproducible. The configuration's
    /// additional headers are added where the request does not set the same name, as
    /// URLSession does when it sends the request.
    /// - Parameters:
    ///   - request: the request the protocol was given.
    ///   - body: its body bytes, as sent (gzip or deflate is undone here, by `BodyDecoder`).
    ///   - id: the id in its capture.
    ///   - session: the capture session's name, if any.
    ///   - additionalHeaders: the configuration's `httpAdditionalHeaders`.
    static func capture(
        _ request: URLRequest, body: [UInt8]?, id: String, session: String?, additionalHeaders: [String: String]
    ) -> CapturedRequest {
        var fields = request.allHTTPHeaderFields ?? [:]
        let present = Set(fields.keys.map { $0.lowercased() })
        for (name, value) in additionalHeaders where !present.contains(name.lowercased()) { fields[name] = value }
        let headers =
            fields
            .sorted { ($0.key.lowercased(), $0.key) < ($1.key.lowercased(), $1.key) }
            .map { CapturedRequest.Header(name: $0.key, value: $0.value) }
        var captured = CapturedRequest(
            id: id, time: timestamp(Date()), method: request.httpMethod ?? "GET",
            url: request.url?.absoluteString ?? "", headers: headers, session: session)
        if let body, !body.isEmpty {
            do throws(BodyDecoder.Refusal) {
                captured.body = try BodyDecoder(limit: maximumBodySize).body(
                    body, contentEncoding: captured.header("Content-Encoding"))
            } catch {
                captured.refused = error.description
            }
        }
        return captured
    }

    /// The most a captured body may inflate to, all its layers together, as a capture file's
    /// body; beyond it the request is recorded as refused, without its body.
    static let maximumBodySize = CaptureFile.defaultMaximumBodySize

    /// An RFC 3339 timestamp in UTC with milliseconds, as the NDJSON format's `time`.
    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
