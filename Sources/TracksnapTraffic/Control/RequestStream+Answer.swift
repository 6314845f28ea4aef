extension RequestStream {
    /// The `answer` event's data: what the server answered a captured request (the collector's
    /// answer, an upstream's, a cassette's, a refusal), its secrets hidden as its request's are
    /// (`StreamAnswer` in `Schemas/control-api.openapi.json`).
    ///
    /// ```json
    /// {"body": "{\"code\":200}", "bodyEncoding": "text", "headers": [{"name": "Content-Type",
    ///  "value": "application/json"}], "id": "3", "status": 200}
    /// ```
    package struct Answer: Sendable, Equatable, Codable {
        /// The id of the request answered.
        package var id: String
        package var status: Int
        package var headers: [CapturedRequest.Header]
        /// The body, its content encoding undone, cut when it was too long; nil when empty.
        package var body: CapturedRequest.Body?
        /// The body was cut, or shown as it came because it could not be decoded within the
        /// limit; written only when true.
        package var truncated: Bool

        package init(
            id: String, status: Int, headers: [CapturedRequest.Header], body: CapturedRequest.Body?, truncated: Bool
        ) {
            self.id = id
            self.status = status
            self.headers = headers
            self.body = body
            self.truncated = truncated
        }

        private enum CodingKeys: String, CodingKey {
            case id, status, headers, body, bodyEncoding, truncated
        }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            status = try container.decode(Int.self, forKey: .status)
            headers = try container.decode([NDJSONRecord.Header].self, forKey: .headers).map {
                CapturedRequest.Header(name: $0.name, value: $0.value)
            }
            let encoding = try container.decodeIfPresent(String.self, forKey: .bodyEncoding)
            guard let isBase64 = NDJSONRecord.isBase64(encoding) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .bodyEncoding, in: container,
                    debugDescription: NDJSONRecord.unknownEncoding(encoding))
            }
            body = try container.decodeIfPresent(String.self, forKey: .body).map { isBase64 ? .base64($0) : .text($0) }
            truncated = try container.decodeIfPresent(Bool.self, forKey: .truncated) ?? false
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(status, forKey: .status)
            try container.encode(headers.map(NDJSONRecord.Header.init), forKey: .headers)
            let written = NDJSONRecord.written(body)
            try container.encodeIfPresent(written.text, forKey: .body)
            try container.encodeIfPresent(written.encoding, forKey: .bodyEncoding)
            if truncated { try container.encode(true, forKey: .truncated) }
        }
    }
}
