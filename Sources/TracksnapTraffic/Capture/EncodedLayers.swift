import Foundation
package import Inflation
package import TracksnapJSON

/// The encodings a value hides another in — JSON text in a string, a form, a multipart form, a
/// URL's query, base64 or base64url, gzip inside base64, a form or JSON percent-encoded whole — read one way
/// for every use: `Secrets` looks into them for secret values, and `BodyDecoder` inflates every
/// one a body holds within the request's budget.
///
/// ```swift
/// var budget = InflationBudget(limit: 1 << 20)
/// try EncodedLayers.layer(in: "eyJ0b2tlbiI6ImFiYzEyMyJ9", budget: &budget)  // {"token": "abc123"}
/// ```
package enum EncodedLayers {
    /// How many encodings deep a value is read (JSON in a form field in base64 in gzip is four).
    package static let deepest = 6

    /// What a string holds inside an encoding, as JSON: parsed JSON text, a form's, a multipart
    /// form's or a URL query's fields, or the same for the text inside base64, base64url, gzip-in-base64 or
    /// percent-encoding.
    /// Nil when it is none of these (gzip that does not inflate is none).
    ///
    /// - Throws: `InflationError` only when gzip inflates beyond the budget.
    package static func layer(in text: String, budget: inout InflationBudget) throws(InflationError) -> JSONValue? {
        var encodings: [String] = []
        return try layer(in: text, budget: &budget, encodings: &encodings)
    }

    /// The same, naming the encodings read on the way, outermost first (`["base64", "gzip", "JSON"]`).
    private static func layer(
        in text: String, budget: inout InflationBudget, encodings: inout [String], percentDecoded: Bool = false
    ) throws(InflationError) -> JSONValue? {
        let trimmed = trimmingWhitespace(text)
        guard let first = trimmed.utf8.first else { return nil }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            if let parsed = try? JSONDocument.parse(Array(trimmed.utf8), file: "value", trackLocations: false).value {
                encodings.append("JSON")
                return parsed
            }
        }
        // A multipart form's body starts with its boundary line, `--` and all.
        if first == UInt8(ascii: "-"), let fields = MultipartForm.fields(in: trimmed) {
            encodings.append("multipart")
            return object(fields)
        }
        // Byte scans, not Character ones: a layer can be megabytes of inflated text.
        if let query = trimmed.utf8.firstIndex(of: UInt8(ascii: "?")), trimmed.utf8.firstRange(of: "://".utf8) != nil {
            let fields = FormEncoding.pairs(trimmed[trimmed.utf8.index(after: query)...])
            if !fields.isEmpty {
                encodings.append("query")
                return object(fields)
            }
        }
        // A form or JSON percent-encoded whole, as a query's value carries one once more
        // (`access_token%3Dtk-1%26mail%3Da%2540b.io`): read as what it decodes to. Once: each
        // decoding may shorten the text by two bytes only, so the depth is not bounded by its length.
        if !percentDecoded, !trimmed.utf8.contains(UInt8(ascii: "=")), trimmed.utf8.contains(UInt8(ascii: "%")),
            let decoded = trimmed.removingPercentEncoding, decoded != trimmed
        {
            var inner = ["percent-encoding"]
            if let layer = try layer(in: decoded, budget: &budget, encodings: &inner, percentDecoded: true) {
                encodings += inner
                return layer
            }
        }
        // Before forms: base64's padding (`eyJ…fQ==`) also reads as a form field.
        if let bytes = base64Bytes(trimmed) {
            var plain: [UInt8]? = bytes
            var inner = ["base64"]
            if Inflation.looksGzipped(bytes) {
                inner.append("gzip")
                do throws(InflationError) {
                    plain = try Inflation.inflate(bytes, format: .gzip, budget: &budget)
                } catch  where !error.isOverBudget {
                    plain = nil
                }
            }
            if let plain, let decoded = String(validating: plain, as: UTF8.self), decoded != trimmed,
                let layer = try layer(in: decoded, budget: &budget, encodings: &inner)
            {
                encodings += inner
                return layer
            }
        }
        guard FormEncoding.looksLikeForm(trimmed) else { return nil }
        encodings.append("form")
        return object(FormEncoding.pairs(Substring(trimmed)))
    }

    /// Inflates every layer a body holds, however deep (`deepest`), within the budget: gzip
    /// bytes, and every string of the JSON, form or query the body reads as.
    ///
    /// ```swift
    /// var budget = InflationBudget(limit: 16 << 20)
    /// try EncodedLayers.inflateAll(in: Array("data=H4sIA…".utf8), budget: &budget)
    /// ```
    /// - Throws: `InflationError` when they inflate beyond the budget.
    static func inflateAll(in bytes: [UInt8], budget: inout InflationBudget) throws(InflationError) {
        try inflateAll(in: bytes, depth: 0, budget: &budget)
    }

    private static func inflateAll(in bytes: [UInt8], depth: Int, budget: inout InflationBudget) throws(InflationError)
    {
        guard depth <= deepest else { return }
        if Inflation.looksGzipped(bytes) {
            let inner: [UInt8]
            do throws(InflationError) {
                inner = try Inflation.inflate(bytes, format: .gzip, budget: &budget)
            } catch  where !error.isOverBudget {
                return
            }
            try inflateAll(in: inner, depth: depth + 1, budget: &budget)
        } else if let text = String(validating: bytes, as: UTF8.self) {
            try visit(.string(text), depth: depth, budget: &budget)
        }
    }

    private static func visit(_ value: JSONValue, depth: Int, budget: inout InflationBudget) throws(InflationError) {
        guard depth <= deepest else { return }
        switch value {
        case .object(let members):
            for member in members.values { try visit(member, depth: depth, budget: &budget) }
        case .array(let items):
            for item in items { try visit(item, depth: depth, budget: &budget) }
        case .string(let text):
            if let layer = try layer(in: text, budget: &budget) {
                try visit(layer, depth: depth + 1, budget: &budget)
            } else if text.utf8.contains(UInt8(ascii: "\n")) {
                // A batch of lines (gtag, Universal Analytics), each a form of its own.
                for line in text.split(whereSeparator: \.isNewline) {
                    try visit(.string(String(line)), depth: depth + 1, budget: &budget)
                }
            }
        default:
            break
        }
    }

    /// Each layer a text hides, one step at a time, for a person to read: the text read (JSON,
    /// a form, base64…) at the pointer `""`, then every string inside it that is itself
    /// encoded, read in turn, at its pointer into the layer it is in (`/data` in a form whose
    /// `data` field is base64 JSON). At most `limit` steps, `deepest` deep, gzip in them
    /// inflating to at most `inflating` bytes in all.
    ///
    /// ```swift
    /// EncodedLayers.steps(in: "data=eyJldmVudCI6InZpZXcifQ==")
    /// // [("", ["form"], {"data": "eyJldmVudCI6InZpZXcifQ=="}), ("/data", ["base64", "JSON"], {"event": "view"})]
    /// ```
    /// Each step names the encodings it read, outermost first: `JSON`, `form`, `multipart`,
    /// `query`, `base64`, `gzip`, `percent-encoding`.
    package static func steps(in text: String, limit: Int = 20, inflating: Int = 1 << 20) -> [(
        at: String, encodings: [String], value: JSONValue
    )] {
        var budget = InflationBudget(limit: inflating)
        var steps: [(at: String, encodings: [String], value: JSONValue)] = []
        func read(_ text: String, at pointer: String, depth: Int) {
            var encodings: [String] = []
            guard depth <= deepest, steps.count < limit,
                let layer = try? layer(in: text, budget: &budget, encodings: &encodings)
            else {
                return
            }
            steps.append((pointer, encodings, layer))
            func walk(_ value: JSONValue, at pointer: String) {
                switch value {
                case .object(let members):
                    for key in members.keys.sorted() {
                        walk(members[key] ?? .null, at: JSONPointer.appending(pointer, key))
                    }
                case .array(let items):
                    for (index, item) in items.enumerated() { walk(item, at: JSONPointer.appending(pointer, index)) }
                case .string(let text):
                    read(text, at: pointer, depth: depth + 1)
                default:
                    break
                }
            }
            walk(layer, at: pointer)
        }
        read(text, at: "", depth: 0)
        return steps
    }

    private static func object(_ fields: [(name: String, value: String)]) -> JSONValue {
        var members: [String: JSONValue] = [:]
        for field in fields {
            members[field.name] =
                members[field.name].map { .array(($0.arrayValue ?? [$0]) + [.string(field.value)]) }
                ?? .string(field.value)
        }
        return .object(members)
    }

    /// The text without leading and trailing whitespace; the text itself, uncopied, when it
    /// has none (a large inflated layer usually).
    private static func trimmingWhitespace(_ text: String) -> String {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        guard let first = text.utf8.first, let last = text.utf8.last, isSpace(first) || isSpace(last) else {
            return text
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The bytes of base64 or base64url text (padded or not, in MIME's lines or not); nil for
    /// text that is not, or is too short to carry a key and a value.
    package static func base64Bytes(_ text: String) -> [UInt8]? {
        let utf8 = text.utf8
        guard utf8.count >= 12 else { return nil }
        var standard: [UInt8] = []
        standard.reserveCapacity(utf8.count + 3)
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="):
                standard.append(byte)
            case UInt8(ascii: "-"): standard.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): standard.append(UInt8(ascii: "/"))
            // MIME's line breaks (every 76 characters, as Python's `base64.encodebytes` writes).
            case 0x0A, 0x0D: continue
            default: return nil
            }
        }
        while standard.count % 4 != 0 { standard.append(UInt8(ascii: "=")) }
        return Data(base64Encoded: Data(standard)).map { Array($0) }
    }
}
