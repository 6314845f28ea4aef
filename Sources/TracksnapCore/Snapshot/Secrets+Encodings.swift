import Foundation

extension Secrets {
    /// How many encodings deep a value is searched (JSON in a form field in base64 in gzip is four).
    static let deepestLayer = 6
    /// The largest inflated size of a gzip layer found inside a value.
    static let largestInflatedLayer = 4 << 20

    /// The secret values a value carries, at any depth of any encoding: the strings under a
    /// secret key (`writeKey`, `access_token`…), also where the key sits inside JSON text in a
    /// string, a form-encoded string, a URL's query, base64 or base64url text, or gzip bytes in
    /// base64; and, in text that none of these decodes, what follows a secret key and `=` or `:`.
    ///
    /// ```swift
    /// let data = Data(#"{"properties":{"token":"mp_abc123"}}"#.utf8).base64EncodedString()
    /// Secrets.values(in: ["data": .string(data)])  // ["mp_abc123"]
    /// ```
    public static func values(in value: JSONValue) -> Set<String> {
        var found: Set<String> = []
        collect(value, depth: 0, into: &found)
        return found
    }

    /// Shorter secrets are not searched for inside other text, nor hidden where they stand
    /// alone: they would match by chance.
    public static let shortestSearchedSecret = 6
    public static let shortestHiddenSecret = 4

    /// The secrets to cut out of a text before it leaves the process, longest first: those it
    /// carries (`values(in:)`) and the known ones it contains. Nil when it must be hidden whole:
    /// it is a known secret, or it carries one inside an encoding (base64, gzip) or too short to
    /// search for.
    ///
    /// ```swift
    /// Secrets.cuts(in: "/v1/wk_123456/track", known: ["wk_123456"])  // ["wk_123456"]
    /// Secrets.cuts(in: "eyJ0b2tlbiI6ImFiYzEyMyJ9", known: [])       // nil: base64 of {"token":"abc123"}
    /// ```
    public static func cuts(in text: String, known: Set<String>) -> [String]? {
        if text.count >= shortestHiddenSecret, known.contains(text) { return nil }
        let carried = values(in: .string(text))
        if carried.contains(where: { $0.count < shortestSearchedSecret || !text.contains($0) }) { return nil }
        let contained = known.filter { $0.count >= shortestSearchedSecret && text.contains($0) }
        return carried.union(contained).sorted { ($0.count, $0) > ($1.count, $1) }
    }

    private static func collect(_ value: JSONValue, depth: Int, into found: inout Set<String>) {
        guard depth <= deepestLayer else { return }
        switch value {
        case .object(let members):
            for (key, member) in members {
                if isSecret(key) { strings(in: member, into: &found) } else { collect(member, depth: depth, into: &found) }
            }
        case .array(let items):
            for item in items { collect(item, depth: depth, into: &found) }
        case .string(let text):
            if let layer = decodedLayer(text) {
                collect(layer, depth: depth + 1, into: &found)
            } else {
                found.formUnion(valuesAfterSecretKeys(in: text))
            }
        default:
            break
        }
    }

    private static func strings(in value: JSONValue, into found: inout Set<String>) {
        switch value {
        case .string(let text) where !text.isEmpty: found.insert(text)
        case .object(let members): for member in members.values { strings(in: member, into: &found) }
        case .array(let items): for item in items { strings(in: item, into: &found) }
        default: break
        }
    }

    /// What a string holds inside an encoding, as JSON: parsed JSON text, a form's or a URL
    /// query's fields, or the same for the text inside base64, base64url or gzip-in-base64.
    /// Nil when it is none of these.
    static func decodedLayer(_ text: String) -> JSONValue? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let first = trimmed.utf8.first else { return nil }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            if let parsed = try? JSONDocument.parse(Array(trimmed.utf8), file: "value", trackLocations: false).value { return parsed }
        }
        if let query = trimmed.firstIndex(of: "?"), trimmed.contains("://") {
            let fields = FormEncoding.pairs(trimmed[trimmed.index(after: query)...])
            if !fields.isEmpty { return object(fields) }
        }
        // Before forms: base64's padding (`eyJ…fQ==`) also reads as a form field.
        if let bytes = base64Bytes(trimmed) {
            let plain = ContentDecoding.looksGzipped(bytes)
                ? (try? ContentDecoding.decode(bytes, encoding: "gzip", limit: largestInflatedLayer)) : bytes
            if let plain, let decoded = String(validating: plain, as: UTF8.self), decoded != trimmed, let layer = decodedLayer(decoded) {
                return layer
            }
        }
        guard FormEncoding.looksLikeForm(trimmed) else { return nil }
        return object(FormEncoding.pairs(Substring(trimmed)))
    }

    private static func object(_ fields: [(name: String, value: String)]) -> JSONValue {
        var members: [String: JSONValue] = [:]
        for field in fields {
            members[field.name] = members[field.name].map { .array(($0.arrayValue ?? [$0]) + [.string(field.value)]) } ?? .string(field.value)
        }
        return .object(members)
    }

    /// The bytes of base64 or base64url text (padded or not); nil for text that is not, or is
    /// too short to carry a key and a value.
    private static func base64Bytes(_ text: String) -> [UInt8]? {
        guard text.utf8.count >= 12 else { return nil }
        var standard = ""
        standard.reserveCapacity(text.utf8.count + 2)
        for character in text.unicodeScalars {
            switch character {
            case "A"..."Z", "a"..."z", "0"..."9", "+", "/", "=": standard.unicodeScalars.append(character)
            case "-": standard += "+"
            case "_": standard += "/"
            default: return nil
            }
        }
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        return Data(base64Encoded: standard).map { Array($0) }
    }

    /// In text nothing decodes (a truncated body, a log line), the values written after a secret
    /// key: `writeKey=wk_1`, `"token": "abc"`, `api_key: k-9`.
    static func valuesAfterSecretKeys(in text: String) -> Set<String> {
        let bytes = Array(text.utf8)
        let lowered = bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        var found: Set<String> = []
        for marker in markers {
            let needle = Array(marker.utf8)
            var start = 0
            while start + needle.count <= lowered.count {
                guard let hit = firstIndex(of: needle, in: lowered, from: start) else { break }
                start = hit + needle.count
                if let value = value(after: start, in: bytes) { found.insert(value) }
            }
        }
        return found
    }

    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard needle.count <= haystack.count - start else { return nil }
        for i in start...(haystack.count - needle.count) where haystack[i] == needle[0] {
            if haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
        }
        return nil
    }

    /// The value after the rest of a key (`writeKey`'s `Key`), optional quotes, and `=` or `:`.
    private static func value(after index: Int, in bytes: [UInt8]) -> String? {
        func isKeyByte(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
        func isQuoteOrSpace(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\\")
        }
        var i = index
        while i < bytes.count, isKeyByte(bytes[i]) { i += 1 }
        while i < bytes.count, isQuoteOrSpace(bytes[i]) { i += 1 }
        guard i < bytes.count, bytes[i] == UInt8(ascii: "=") || bytes[i] == UInt8(ascii: ":") else { return nil }
        i += 1
        while i < bytes.count, isQuoteOrSpace(bytes[i]) { i += 1 }
        let start = i
        let delimiters: Set<UInt8> = Set("\"'&,; \t\r\n}])\\".utf8)
        while i < bytes.count, !delimiters.contains(bytes[i]) { i += 1 }
        guard i - start >= 4 else { return nil }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }
}
