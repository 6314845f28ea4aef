import Foundation
public import TracksnapJSON

extension CapturedRequest {
    /// The body as text: a text body, or a base64 body whose bytes are valid UTF-8; else nil.
    ///
    /// ```swift
    /// CapturedRequest(id: "1", method: "POST", url: "https://x.test/", body: .base64("aGk=")).bodyText  // "hi"
    /// ```
    public var bodyText: String? {
        switch body {
        case .text(let text): text
        case .base64(let encoded): Data(base64Encoded: encoded).flatMap { String(validating: $0, as: UTF8.self) }
        case nil: nil
        }
    }

    /// The body's bytes; nil when there is no body or its base64 is invalid.
    public var bodyBytes: [UInt8]? {
        switch body {
        case .text(let text): Array(text.utf8)
        case .base64(let encoded): Data(base64Encoded: encoded).map { Array($0) }
        case nil: nil
        }
    }

    /// The `Content-Type` header's media type, lowercased, without parameters.
    ///
    /// ```swift
    /// // Content-Type: Application/JSON; charset=utf-8
    /// request.mediaType  // "application/json"
    /// ```
    public var mediaType: String? {
        guard let contentType = header("Content-Type") else { return nil }
        let type = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let trimmed = type.trimmingCharacters(in: .whitespaces).lowercased()
        return trimmed.isEmpty ? nil : trimmed
    }

    /// Whether the media type says JSON: `application/json`, `text/json`, or a `+json` type
    /// (`application/vnd.api+json`).
    public var hasJSONMediaType: Bool {
        guard let type = mediaType else { return false }
        return type == "application/json" || type == "text/json" || type.hasSuffix("+json")
    }

    /// The body as JSON, or nil when it is not JSON: any JSON value (RFC 8259: `2`, `true`,
    /// `null` and `"x"` too) when the media type says JSON, else an object or an array, which no
    /// other text is.
    ///
    /// ```swift
    /// // Content-Type: application/json, body "2"
    /// request.bodyJSON  // .number("2")
    /// ```
    public var bodyJSON: JSONValue? {
        guard let text = bodyText, !text.isEmpty else { return nil }
        if !hasJSONMediaType {
            let first = text.utf8.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
            guard first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return nil }
        }
        return try? JSONDocument.parse(Array(text.utf8), file: "body", trackLocations: false).value
    }

    /// The body's form fields, decoded, in order; empty when the body is not a form.
    ///
    /// ```swift
    /// // Content-Type: application/x-www-form-urlencoded, body "v=1&t=event&ea=buy+now"
    /// request.formItems  // [("v", "1"), ("t", "event"), ("ea", "buy now")]
    /// ```
    ///
    /// A body is a form when its media type is `application/x-www-form-urlencoded`, or when it
    /// has no media type or `text/plain` and reads as `a=b&c=d` on one line (see
    /// `FormEncoding.looksLikeForm`): `navigator.sendBeacon` with a string always sends
    /// `text/plain`, and Universal Analytics and single-event gtag beacons send forms that way.
    /// JSON, free text and multi-line gtag batches are not forms.
    public var formItems: [(name: String, value: String)] {
        guard let text = bodyText, !text.isEmpty else { return [] }
        switch mediaType {
        case "application/x-www-form-urlencoded":
            return FormEncoding.pairs(Substring(text))
        case nil, "text/plain":
            return FormEncoding.looksLikeForm(text) ? FormEncoding.pairs(Substring(text)) : []
        default:
            return []
        }
    }

    /// The fields of a `multipart/form-data` body, split at its header's boundary, in order;
    /// empty when the body is not one.
    ///
    /// ```swift
    /// // Content-Type: multipart/form-data; boundary=xYz
    /// request.multipartItems  // [("event", "CUSTOM_APP_EVENTS"), ("format", "json")]
    /// ```
    package var multipartItems: [(name: String, value: String)] {
        guard mediaType == "multipart/form-data", let contentType = header("Content-Type"),
            let boundary = MultipartForm.boundary(inContentType: contentType), let text = bodyText
        else { return [] }
        return MultipartForm.fields(in: text, boundary: boundary) ?? []
    }

    /// The query's items, then the form body's, as snapshots compare `parameters`.
    public var parameters: [(name: String, value: String)] { parameters(in: URLParts(url)) }

    /// The same, from a URL already read.
    func parameters(in parts: URLParts) -> [(name: String, value: String)] {
        Self.queryItems(in: parts) + formItems
    }

    /// Name/value pairs as the `parameters` a snapshot compares (`validationView`): a name
    /// given more than once holds an array of its values, in order.
    package static func parametersObject(_ pairs: [(name: String, value: String)]) -> [String: JSONValue] {
        var parameters: [String: JSONValue] = [:]
        for item in pairs {
            switch parameters[item.name] {
            case nil: parameters[item.name] = .string(item.value)
            case .array(let values)?: parameters[item.name] = .array(values + [.string(item.value)])
            case let first?: parameters[item.name] = .array([first, .string(item.value)])
            }
        }
        return parameters
    }
}

extension CapturedRequest.Body {
    /// The size of the body's bytes, without decoding base64.
    var byteCount: Int {
        switch self {
        case .text(let text):
            return text.utf8.count
        case .base64(let encoded):
            let utf8 = encoded.utf8
            let padding = utf8.reversed().prefix(2).prefix { $0 == UInt8(ascii: "=") }.count
            return utf8.count / 4 * 3 + max(0, utf8.count % 4 - 1) - padding
        }
    }
}
