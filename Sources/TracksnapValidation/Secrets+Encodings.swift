import Foundation
import Inflation
public import TracksnapJSON
import TracksnapTraffic

extension Secrets {
    /// The most bytes the gzip layers inside one value may inflate to, all together, while it
    /// is searched.
    static let largestInflation = 4 << 20

    /// The secret values a value carries, at any depth of any encoding: the strings under a
    /// secret key (`writeKey`, `access_token`…), also where the key sits inside JSON text in a
    /// string, a form-encoded string, a URL's query, base64 or base64url text, or gzip bytes in
    /// base64; in text that none of these decodes, what follows a secret key and `=` or `:`; and
    /// in any text, the credentials its shape gives away (`shapedCredentials(in:)`).
    ///
    /// ```swift
    /// let data = Data(#"{"properties":{"token":"mp_abc123"}}"#.utf8).base64EncodedString()
    /// Secrets.values(in: ["data": .string(data)])  // ["mp_abc123"]
    /// ```
    public static func values(in value: JSONValue) -> Set<String> {
        if case .string(let text) = value, isPlain(text) { return [] }
        var found: Set<String> = []
        var budget = InflationBudget(limit: largestInflation)
        collect(value, depth: 0, budget: &budget, into: &found)
        return found
    }

    /// Shorter secrets are not searched for inside other text, nor hidden where they stand
    /// alone: they would match by chance.
    public static let shortestSearchedSecret = 6
    public static let shortestHiddenSecret = 4

    /// The secrets to cut out of a text before it leaves the process, longest first: those it
    /// carries (`values(in:)`) and the known ones it contains. Nil when it must be hidden whole:
    /// it is a known secret, or it carries one, or a known one, inside an encoding (base64,
    /// gzip), or one too short to search for.
    ///
    /// ```swift
    /// Secrets.cuts(in: "/v1/wk_123456/track", known: ["wk_123456"])  // ["wk_123456"]
    /// Secrets.cuts(in: "eyJ0b2tlbiI6ImFiYzEyMyJ9", known: [])       // nil: base64 of {"token":"abc123"}
    /// ```
    public static func cuts(in text: String, known: Set<String>) -> [String]? {
        if text.count >= shortestHiddenSecret, known.contains(text) { return nil }
        var carried: Set<String> = []
        var encodesKnown = false
        if !isPlain(text) {
            var budget = InflationBudget(limit: largestInflation)
            // One search finds what the text carries and a known secret inside an encoding it is
            // (a header's token in base64 JSON), which cannot be cut out as it stands.
            collect(.string(text), depth: 0, budget: &budget, into: &carried) { inner, path in
                guard !encodesKnown, !known.isEmpty, !path.isEmpty else { return }
                encodesKnown = known.contains { secret in
                    secret.count >= shortestHiddenSecret && !text.contains(secret)
                        && (inner == secret || (secret.count >= shortestSearchedSecret && inner.contains(secret)))
                }
            }
        }
        // A value already hidden is no secret to cut again.
        carried.remove(placeholderText)
        if encodesKnown || carried.contains(where: { $0.count < shortestSearchedSecret || !text.contains($0) }) {
            return nil
        }
        var contained = known.filter { $0.count >= shortestSearchedSecret && text.contains($0) }
        // A copy percent-encoded as a URL writes it (`tk%2Fa%2Bb` in a path).
        if text.utf8.contains(UInt8(ascii: "%")) {
            for secret in known where secret.count >= shortestSearchedSecret {
                contained.formUnion(Redactor.writtenForms(of: secret).dropFirst().filter { text.contains($0) })
            }
        }
        return carried.union(contained).sorted { ($0.count, $0) > ($1.count, $1) }
    }

    /// The secret values under `value` (`values(in:)`), each string the search meets also given
    /// to `observe` with its path.
    private static func collect(
        _ value: JSONValue, depth: Int, budget: inout InflationBudget, into found: inout Set<String>,
        observe: (_ text: String, _ path: [String]) -> Void = { _, _ in }
    ) {
        search(value, budget: &budget) { key, member, _ in
            guard isSecret(key) else { return false }
            strings(in: member, into: &found)
            return true
        } text: { text, path, decoded in
            found.formUnion(shapedCredentials(in: text))
            // Percent-encoded where no encoding is read (`Bearer%20eyJ…` in a path): what decodes
            // is searched too; a credential's shapes hold no escaped byte, so it stands in the text.
            if text.utf8.contains(UInt8(ascii: "%")), let plain = text.removingPercentEncoding, plain != text {
                found.formUnion(shapedCredentials(in: plain).filter { text.contains($0) })
            }
            if !decoded { found.formUnion(valuesAfterSecretKeys(in: text)) }
            observe(text, path)
        }
    }

    /// The one search of a value at any depth of any encoding, which secrets and personal data
    /// (`PersonalData`) share: every member of every object, in its keys' order, given with its key (`member`
    /// returns true when it has taken the member whole, so that the search does not go into
    /// it), and every string (`text`), each at its path of JSON Pointer tokens; a string that
    /// is JSON text, a form, a URL's query, base64 or base64url text, or gzip in base64 is
    /// searched as what it decodes to (within `budget`, `EncodedLayers.deepest` deep), the path
    /// going on into it (`/properties/url/email` for `?email=` in the URL at
    /// `/properties/url`), and then given to `text` itself with `decoded` true.
    static func search(
        _ value: JSONValue, budget: inout InflationBudget,
        member: (_ key: String, _ value: JSONValue, _ path: [String]) -> Bool,
        text: (_ text: String, _ path: [String], _ decoded: Bool) -> Void
    ) {
        var path: [String] = []
        search(value, depth: 0, path: &path, budget: &budget, member: member, text: text)
    }

    private static func search(
        _ value: JSONValue, depth: Int, path: inout [String], budget: inout InflationBudget,
        member: (_ key: String, _ value: JSONValue, _ path: [String]) -> Bool,
        text: (_ text: String, _ path: [String], _ decoded: Bool) -> Void
    ) {
        guard depth <= EncodedLayers.deepest else { return }
        switch value {
        case .object(let members):
            // In the keys' order, not the dictionary's, which differs from one run to the next:
            // what is found first (a value's path, a finding's place in a report) is the same in every run.
            for (key, item) in members.sorted(by: { $0.key < $1.key }) {
                path.append(key)
                if !member(key, item, path) {
                    search(item, depth: depth, path: &path, budget: &budget, member: member, text: text)
                }
                path.removeLast()
            }
        case .array(let items):
            for (index, item) in items.enumerated() {
                path.append(String(index))
                search(item, depth: depth, path: &path, budget: &budget, member: member, text: text)
                path.removeLast()
            }
        case .string(let string):
            // A layer that inflates beyond the budget is searched as the text it is.
            if !isPlain(string), let layer = try? EncodedLayers.layer(in: string, budget: &budget) {
                search(layer, depth: depth + 1, path: &path, budget: &budget, member: member, text: text)
                text(string, path, true)
            } else {
                text(string, path, false)
            }
        default:
            break
        }
    }

    /// Whether a text is too plain for any search to find something in it: no encoding to take
    /// apart, no secret, no personal data. It is under 12 bytes (the shortest base64 read as a
    /// layer, and under the 13 of the shortest shaped credential) of ASCII letters, `-`, `_`, `.`
    /// and `~`, and has no digit from 6 bytes on (the shortest shaped personal data is 6 bytes,
    /// and every shape but an email, which needs `@`, has digits). Event names, screen names and
    /// URLs' path segments mostly are: checked first, it spares them the search's work.
    ///
    /// ```swift
    /// Secrets.isPlain("screen_view")  // true
    /// Secrets.isPlain("s-1a2b3c4d")   // false: digits
    /// ```
    package static func isPlain(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard utf8.count < 12 else { return false }
        let short = utf8.count < 6
        return utf8.allSatisfy { byte in
            ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z"))
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "~") || (short && isDigit(byte))
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

    /// In text nothing decodes (a truncated body, a log line, XML), the values written after a
    /// secret key: `writeKey=wk_1`, `"token": "abc"`, `api_key: k-9`, `<password>abc</password>`.
    static func valuesAfterSecretKeys(in text: String) -> Set<String> {
        // A value follows `=`, `:` or an element's `>`; most strings (ids, names, URLs' paths) have none.
        guard
            text.utf8.contains(where: {
                $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ">")
            })
        else { return [] }
        let bytes = Array(text.utf8)
        let lowered = bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        var found: Set<String> = []
        lowered.withUnsafeBufferPointer { lowered in
            for needle in markerBytes {
                var start = 0
                while let hit = firstIndex(of: needle, in: lowered, from: start) {
                    start = hit + needle.count
                    if let value = value(after: start, inKeyFrom: hit, in: bytes) { found.insert(value) }
                }
            }
        }
        return found
    }

    /// What ends a value written after a secret key (`value(after:inKeyFrom:in:)`).
    private static let valueDelimiters: Set<UInt8> = Set("\"'&,; \t\r\n}])\\".utf8)

    /// The value after the rest of a key (`writeKey`'s `Key`), optional quotes, and `=` or `:`;
    /// or the text of an element the key names (`elementContent`), whose marker is at `hit`.
    private static func value(after index: Int, inKeyFrom hit: Int, in bytes: [UInt8]) -> String? {
        func isKeyByte(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
        func isQuoteOrSpace(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == UInt8(ascii: " ")
                || byte == UInt8(ascii: "\\")
        }
        var i = index
        while i < bytes.count, isKeyByte(bytes[i]) { i += 1 }
        var keyStart = hit
        while keyStart > 0, isKeyByte(bytes[keyStart - 1]) { keyStart -= 1 }
        if let content = elementContent(keyFrom: keyStart, to: i, in: bytes) { return content }
        while i < bytes.count, isQuoteOrSpace(bytes[i]) { i += 1 }
        // An HTML element the key names: `<meta name="csrf-token" content="…">`, `<input name="authenticity_token" value="…">`.
        for attribute in htmlValueAttributes where bytes[i...].starts(with: attribute) { i += attribute.count - 1 }
        guard i < bytes.count, bytes[i] == UInt8(ascii: "=") || bytes[i] == UInt8(ascii: ":") else { return nil }
        i += 1
        while i < bytes.count, isQuoteOrSpace(bytes[i]) { i += 1 }
        var start = i
        while i < bytes.count, !valueDelimiters.contains(bytes[i]) { i += 1 }
        // `Authorization: Bearer abc…`: the credential is the word after the scheme.
        if authorizationSchemes.contains(String(decoding: bytes[start..<i], as: UTF8.self).lowercased()),
            i + 1 < bytes.count, bytes[i] == UInt8(ascii: " ")
        {
            i += 1
            start = i
            while i < bytes.count, !valueDelimiters.contains(bytes[i]) { i += 1 }
        }
        guard i - start >= 4 else { return nil }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }

    /// The text of the XML or HTML element a secret key names, when the key at `start..<end` is
    /// its name (`<password>`, `<ns:password id="1">`) or its `name` attribute's value (`<field
    /// name="password">`, unless `content=` or `value=` follows, which holds it then): the text
    /// after the tag, a CDATA section's or up to the next `<`, spaces around it left out. Nil for
    /// a closing tag (`</password>`) and for a key that is no element's.
    private static func elementContent(keyFrom start: Int, to end: Int, in bytes: [UInt8]) -> String? {
        func byte(_ at: Int) -> UInt8? { at >= 0 && at < bytes.count ? bytes[at] : nil }
        var before = start - 1
        // A namespace's prefix: `<ns:password>`.
        if byte(before) == UInt8(ascii: ":") {
            before -= 1
            while let b = byte(before), Secrets.isWordByte(b) || b == UInt8(ascii: "_") || b == UInt8(ascii: "-") {
                before -= 1
            }
        }
        let isElementName = byte(before) == UInt8(ascii: "<")
        let isNameAttribute =
            (byte(start - 1) == UInt8(ascii: "\"") || byte(start - 1) == UInt8(ascii: "'"))
            && bytes[max(0, start - 6)..<max(0, start - 1)].elementsEqual("name=".utf8)
        guard isElementName || isNameAttribute else { return nil }
        // The rest of the tag: attributes, and no other tag in it.
        var i = end
        let limit = min(bytes.count, end + 512)
        while i < limit, bytes[i] != UInt8(ascii: ">"), bytes[i] != UInt8(ascii: "<") {
            if isNameAttribute, htmlValueAttributes.contains(where: { bytes[i...].starts(with: $0) }) { return nil }
            i += 1
        }
        guard i < limit, bytes[i] == UInt8(ascii: ">"), byte(i - 1) != UInt8(ascii: "/") else { return nil }
        i += 1
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        while i < bytes.count, isSpace(bytes[i]) { i += 1 }
        var valueEnd: Int
        let cdata = Array("<![CDATA[".utf8)
        if bytes[i...].starts(with: cdata) {
            i += cdata.count
            valueEnd = i
            while valueEnd < bytes.count, !bytes[valueEnd...].starts(with: "]]>".utf8) { valueEnd += 1 }
        } else {
            valueEnd = i
            while valueEnd < bytes.count, bytes[valueEnd] != UInt8(ascii: "<") { valueEnd += 1 }
        }
        while valueEnd > i, isSpace(bytes[valueEnd - 1]) { valueEnd -= 1 }
        return valueEnd - i >= 4 ? String(decoding: bytes[i..<valueEnd], as: UTF8.self) : nil
    }

    /// The attributes that hold the value of an HTML element whose `name` is a secret key, `=` included.
    private static let htmlValueAttributes = [Array("content=".utf8), Array("value=".utf8)]

    /// The HTTP authentication schemes a credential follows in an `Authorization` header's value.
    private static let authorizationSchemes: Set<String> = ["bearer", "basic", "token", "digest", "negotiate"]
}
