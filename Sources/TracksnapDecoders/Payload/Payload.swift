import Foundation
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

/// The encodings analytics payloads come in: JSON, gzip, base64 (padded or not, URL-safe or
/// not) and form or query parameters.
enum Payload {
    /// The largest body inflated from gzip, as for a capture file's bodies.
    static let inflateLimit = 64 * 1024 * 1024

    /// Parses JSON, naming what was being read in the failure (`body is not JSON: …`).
    static func json(_ bytes: some Collection<UInt8>, what: String) throws(DecodeFailure) -> JSONValue {
        do {
            return try JSONDocument.parse(bytes, file: what, trackLocations: false).value
        } catch {
            throw DecodeFailure(
                "\(what) is not JSON: line \(error.location.line), column \(error.location.column): \(error.message)")
        }
    }

    /// JSON when it parses, else nil.
    static func jsonIfValid(_ text: String) -> JSONValue? {
        try? JSONDocument.parse(text.utf8, file: "", trackLocations: false).value
    }

    /// The body's bytes with a gzip wrapper undone: browsers send gzip bodies without a
    /// `Content-Encoding` header (PostHog's `compression=gzip-js`, RudderStack's beacon), so the
    /// capture keeps them compressed. Nil when there is no body.
    static func bodyBytes(_ request: CapturedRequest) throws(DecodeFailure) -> [UInt8]? {
        guard let bytes = request.bodyBytes, !bytes.isEmpty else { return nil }
        guard ContentDecoding.looksGzipped(bytes) else { return bytes }
        do {
            return try ContentDecoding.decode(bytes, encoding: "gzip", limit: inflateLimit)
        } catch {
            throw DecodeFailure("gzip body cannot be inflated: \(error.message)")
        }
    }

    /// The body as a JSON value, inflating gzip first; nil when there is no body.
    static func bodyJSON(_ request: CapturedRequest) throws(DecodeFailure) -> JSONValue? {
        guard let bytes = try bodyBytes(request) else { return nil }
        return try json(bytes, what: "body")
    }

    /// Decodes base64 in either alphabet (`+/` or `-_`), padded or not, ignoring whitespace;
    /// nil when it is not base64.
    static func base64(_ text: String) -> [UInt8]? {
        var normalized = ""
        normalized.reserveCapacity(text.utf8.count + 3)
        for character in text.unicodeScalars {
            switch character {
            case "-": normalized.unicodeScalars.append("+")
            case "_": normalized.unicodeScalars.append("/")
            case " ", "\n", "\r", "\t": continue
            default: normalized.unicodeScalars.append(character)
            }
        }
        while normalized.utf8.count % 4 != 0 { normalized += "=" }
        guard !normalized.isEmpty, let data = Data(base64Encoded: normalized) else { return nil }
        return Array(data)
    }

    /// A parameter holding JSON, as URL-decoded text or base64 of JSON; nil when it is neither.
    static func jsonOrBase64JSON(_ text: String) -> JSONValue? {
        let trimmed = text.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
        if trimmed.first == "{" || trimmed.first == "[" { return jsonIfValid(text) }
        guard let bytes = base64(text) else { return nil }
        return try? JSONDocument.parse(bytes, file: "", trackLocations: false).value
    }

    /// Name/value pairs as an object; a repeated name keeps its last value.
    static func object(_ pairs: [(name: String, value: String)]) -> [String: JSONValue] {
        var object: [String: JSONValue] = [:]
        object.reserveCapacity(pairs.count)
        for pair in pairs { object[pair.name] = .string(pair.value) }
        return object
    }

    /// A number as JSON when the text is one (`12.5`, `-3`, `1e6` kept as written; `+1`, `.5`
    /// normalised), else nil.
    static func number(_ text: String) -> JSONValue? {
        if isJSONNumber(text.utf8) { return .number(text) }
        guard let value = Double(text), value.isFinite,
            text.utf8.allSatisfy({
                ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E || $0 == 0x45 || $0 == 0x65
            })
        else { return nil }
        return .number(value)
    }

    /// Whether the bytes follow JSON's number grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    static func isJSONNumber(_ utf8: String.UTF8View) -> Bool {
        var index = utf8.startIndex
        func digit() -> Bool { index != utf8.endIndex && utf8[index] >= 0x30 && utf8[index] <= 0x39 }
        func skip(_ byte: UInt8) -> Bool {
            guard index != utf8.endIndex, utf8[index] == byte else { return false }
            index = utf8.index(after: index)
            return true
        }
        func digits() -> Bool {
            guard digit() else { return false }
            while digit() { index = utf8.index(after: index) }
            return true
        }
        _ = skip(UInt8(ascii: "-"))
        if skip(UInt8(ascii: "0")) {
            if digit() { return false }
        } else if !digits() {
            return false
        }
        if skip(UInt8(ascii: ".")), !digits() { return false }
        if skip(UInt8(ascii: "e")) || skip(UInt8(ascii: "E")) {
            _ = skip(UInt8(ascii: "+")) || skip(UInt8(ascii: "-"))
            if !digits() { return false }
        }
        return index == utf8.endIndex
    }
}
