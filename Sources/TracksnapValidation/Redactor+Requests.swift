import Foundation
import TracksnapJSON
import TracksnapSnapshot
package import TracksnapTraffic

extension Redactor {
    /// The request with its secrets hidden and everything else as it was sent, so that what the
    /// control API answers (and exports as NDJSON or HAR) can still be decoded and validated:
    /// secret headers' values, values under secret keys in the URL's query, form and JSON
    /// bodies (also inside JSON text, a form or base64 in a field), and every copy of a captured
    /// secret, are replaced with `[redacted]`.
    ///
    /// ```swift
    /// let redactor = Redactor(requests: captured)
    /// let safe = captured.map(redactor.redact)
    /// // Authorization: [redacted]; {"writeKey": "[redacted]", "event": "Order Completed"}
    /// ```
    ///
    /// A value is rewritten only when it carries a secret, and then in its own encoding (a JSON
    /// body stays JSON, a base64 field stays base64, of the redacted text); one that cannot be
    /// taken apart (gzip inside a field, a secret split across an encoding) is hidden whole.
    /// A binary body keeps its bytes but for the captured secrets it contains.
    package func redact(_ request: CapturedRequest) -> CapturedRequest {
        var request = request
        request.url = redact(url: request.url)
        request.headers = redact(headers: request.headers)
        request.body = redact(body: request.body)
        return request
    }

    /// Headers with the secret ones (`Authorization`, `Cookie`, `Set-Cookie`, `X-Partner-Key`…:
    /// `Secrets.isSecretHeader`) hidden whole, a URL's (`Location`, `Content-Location`) redacted
    /// as a URL (an OAuth `code` in its query), as is each URL in another's value (`Refresh: 0;
    /// url=…`, `Link: <…>; rel=next`), and the known and shaped secrets cut from the rest.
    package func redact(headers: [CapturedRequest.Header]) -> [CapturedRequest.Header] {
        headers.map { header in
            if Secrets.isSecretHeader(header.name) {
                return CapturedRequest.Header(name: header.name, value: Secrets.placeholderText)
            }
            let name = header.name.lowercased()
            let value =
                name == "location" || name == "content-location"
                ? redact(url: header.value) : redact(urlsIn: header.value)
            return CapturedRequest.Header(name: header.name, value: value)
        }
    }

    /// A text with each `http(s)://` URL in it redacted as a URL, up to a space, `>` or a
    /// quote, and the text around them as text.
    private func redact(urlsIn text: String) -> String {
        guard text.contains("://") else { return redact(text: text) }
        var result = ""
        var rest = Substring(text)
        while let scheme = rest.range(of: "https://", options: .caseInsensitive)
            ?? rest.range(of: "http://", options: .caseInsensitive)
        {
            let end = rest[scheme.lowerBound...].firstIndex { " >\"'".contains($0) } ?? rest.endIndex
            result +=
                redact(text: String(rest[..<scheme.lowerBound])) + redact(url: String(rest[scheme.lowerBound..<end]))
            rest = rest[end...]
        }
        return result + redact(text: String(rest))
    }

    /// A body with its secrets hidden in its own encoding (see `redact(_:)`).
    package func redact(body: CapturedRequest.Body?) -> CapturedRequest.Body? {
        switch body {
        case .text(let text): .text(redact(encoded: text))
        case .base64(let encoded): .base64(redact(binary: encoded))
        case nil: nil
        }
    }

    /// A URL with secrets cut from its path and fragment, and its query redacted field by field.
    /// Its delimiters are found on UTF-8 bytes (`FormEncoding.pieces`), as the URL is read.
    package func redact(url: String) -> String {
        let utf8 = url.utf8
        let queryStart = utf8.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? url.endIndex
        let hierarchy = url[..<queryStart]
        var out: String
        if let separator = Self.firstSchemeSeparator(in: hierarchy) {
            // The authority's user info would carry a password.
            let afterScheme = hierarchy[separator.upperBound...]
            let authorityEnd = afterScheme.utf8.firstIndex(of: UInt8(ascii: "/")) ?? afterScheme.endIndex
            var authority = String(afterScheme[..<authorityEnd])
            if let at = authority.utf8.lastIndex(of: UInt8(ascii: "@")) {
                authority = Secrets.placeholderText + authority[at...]
            }
            out = hierarchy[..<separator.upperBound] + authority + redact(path: afterScheme[authorityEnd...])
        } else {
            out = redact(path: hierarchy)
        }
        var rest = url[queryStart...]
        if rest.utf8.first == UInt8(ascii: "?") {
            rest = rest[rest.utf8.index(after: rest.startIndex)...]
            let queryEnd = rest.utf8.firstIndex(of: UInt8(ascii: "#")) ?? rest.endIndex
            out += "?" + redact(form: rest[..<queryEnd], depth: 0, query: true)
            rest = rest[queryEnd...]
        }
        return rest.isEmpty ? out : out + redact(text: String(rest))
    }

    /// Where the first `://` is (a byte scan: the generic `firstRange(of:)` was a tenth of a log line).
    private static func firstSchemeSeparator(in text: Substring) -> Range<String.Index>? {
        let utf8 = text.utf8
        let slash = UInt8(ascii: "/")
        var from = utf8.startIndex
        while let colon = utf8[from...].firstIndex(of: UInt8(ascii: ":")) {
            from = utf8.index(after: colon)
            guard from != utf8.endIndex, utf8[from] == slash else { continue }
            let second = utf8.index(after: from)
            if second != utf8.endIndex, utf8[second] == slash { return colon..<utf8.index(after: second) }
        }
        return nil
    }

    private func redact(path: Substring) -> String {
        FormEncoding.pieces(of: path, separatedBy: UInt8(ascii: "/")).map { redact(text: String($0)) }.joined(
            separator: "/")
    }

    /// Text with its secrets hidden in its own encoding: JSON, a form, base64 of either.
    package func redact(encoded text: String, depth: Int = 0) -> String {
        if isPlainAndUnknown(text) { return text }
        guard let cuts = Secrets.cuts(in: text, known: secrets) else {
            return checked(restructured(text, depth: depth)) ?? Secrets.placeholderText
        }
        // Personal data found by its field (an `idfa` in a query) has no shape to find it by here.
        if cuts.isEmpty,
            !masksPersonalData
                || (PersonalData.hits(in: .string(text)).isEmpty
                    && !personalData.keys.contains { $0.utf8.count >= 4 && text.contains($0) })
        {
            return text
        }
        return checked(restructured(text, depth: depth)) ?? redact(text: text)
    }

    /// The redacted text, or nil when a secret is still in it, so that it is hidden whole: a
    /// captured secret (a token that is itself base64 of JSON comes back re-encoded, not
    /// hidden), or a value under a secret key in an encoding this redaction did not take apart.
    private func checked(_ text: String?) -> String? {
        guard let text else { return nil }
        let known = secrets.contains { secret in
            secret == text || (secret.utf8.count >= Secrets.shortestSearchedSecret && text.contains(secret))
        }
        let carried = Secrets.values(in: .string(text)).contains { !$0.contains("redacted") }
        let personal = masksPersonalData && !PersonalData.hits(in: .string(text)).isEmpty
        return known || carried || personal ? nil : text
    }

    /// The text taken apart, redacted piece by piece, and put back in the same encoding; nil
    /// when it is none of the encodings that can be put back.
    private func restructured(_ text: String, depth: Int) -> String? {
        guard depth < EncodedLayers.deepest else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.first == "{" || trimmed.first == "[",
            let value = try? JSONDocument.parse(Array(trimmed.utf8), file: "body", trackLocations: false).value
        {
            return redact(json: value, depth: depth + 1).serialized()
        }
        // Before forms: base64's padding (`eyJ…fQ==`) also reads as a form field.
        if let bytes = EncodedLayers.base64Bytes(trimmed), let plain = String(validating: bytes, as: UTF8.self),
            plain != trimmed,
            let inner = restructured(plain, depth: depth + 1)
        {
            var encoded = Data(inner.utf8).base64EncodedString()
            if trimmed.contains(where: { $0 == "-" || $0 == "_" }) {
                encoded = encoded.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            }
            if !trimmed.hasSuffix("=") { encoded = String(encoded.prefix { $0 != "=" }) }
            return encoded
        }
        if FormEncoding.looksLikeForm(trimmed) {
            return redact(form: Substring(trimmed), depth: depth)
        }
        return nil
    }

    private func redact(json value: JSONValue, depth: Int) -> JSONValue {
        switch value {
        case .object(let members):
            .object(
                members.reduce(into: [:]) {
                    $0[$1.key] =
                        Secrets.isSecret($1.key)
                        ? Secrets.placeholder : masked(member: $1.key, $1.value) ?? redact(json: $1.value, depth: depth)
                })
        case .array(let items):
            .array(items.map { redact(json: $0, depth: depth) })
        case .string(let text):
            .string(redact(encoded: text, depth: depth))
        default:
            value
        }
    }

    /// `a=1&b=2` with each field's value redacted (a secret key's value hidden; in a URL's
    /// `query`, an OAuth `code` too), its encoding kept where nothing changed.
    private func redact(form: Substring, depth: Int, query: Bool = false) -> String {
        FormEncoding.pieces(of: form, separatedBy: UInt8(ascii: "&")).map { piece -> String in
            guard let equals = piece.utf8.firstIndex(of: UInt8(ascii: "=")) else { return redact(text: String(piece)) }
            let name = FormEncoding.decode(piece[..<equals])
            let raw = piece[piece.utf8.index(after: equals)...]
            if query ? Secrets.isSecretQueryField(name) : Secrets.isSecret(name) {
                return piece[...equals] + FormEncoding.encode(Secrets.placeholderText)
            }
            let value = FormEncoding.decode(raw)
            let redacted = redact(encoded: value, depth: depth + 1)
            return redacted == value ? String(piece) : piece[...equals] + FormEncoding.encode(redacted)
        }.joined(separator: "&")
    }

    /// A binary body's bytes with every captured secret they contain replaced.
    private func redact(binary encoded: String) -> String {
        guard var bytes = Data(base64Encoded: encoded) else { return encoded }
        var changed = false
        for secret in secrets where secret.utf8.count >= Secrets.shortestSearchedSecret {
            let needle = Data(secret.utf8)
            let placeholder = Data(Secrets.placeholderText.utf8)
            while let range = bytes.range(of: needle) {
                bytes.replaceSubrange(range, with: placeholder)
                changed = true
            }
        }
        return changed ? bytes.base64EncodedString() : encoded
    }
}
