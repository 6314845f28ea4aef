/// `application/x-www-form-urlencoded` by hand: query strings and form bodies.
///
/// Written without Foundation because `removingPercentEncoding` gives up on the whole string
/// at the first bad escape, and analytics traffic has plenty of those.
///
/// ```swift
/// FormEncoding.pairs("a=1&b=caf%C3%A9+au+lait&a=2")  // [("a", "1"), ("b", "café au lait"), ("a", "2")]
/// FormEncoding.decode("50%zz+off")                    // "50%zz off"
/// ```
///
/// Decisions, as `URLSearchParams` makes them: `+` is a space in query strings as well as in
/// form bodies (so a literal plus arrives as `%2B`); pieces are separated by `&` only; an empty
/// piece is skipped; a piece without `=` is a name with an empty value; repeated names are kept,
/// in order. An escape that is not `%` and two hex digits stays as written; a component whose
/// decoded bytes are not valid UTF-8 (`%E9` sent as Latin-1) is kept exactly as written.
package enum FormEncoding {
    /// Splits a query string or form body into its name/value pairs, decoded, in order.
    package static func pairs(_ text: Substring) -> [(name: String, value: String)] {
        var result: [(name: String, value: String)] = []
        for piece in pieces(of: text, separatedBy: UInt8(ascii: "&")) where !piece.isEmpty {
            if let equals = piece.utf8.firstIndex(of: UInt8(ascii: "=")) {
                let name = piece[piece.startIndex..<equals]
                let value = piece[piece.utf8.index(after: equals)...]
                result.append((decode(name), decode(value)))
            } else {
                result.append((decode(piece), ""))
            }
        }
        return result
    }

    /// The pieces of a text between the bytes `separator` (an ASCII byte), empty ones kept:
    /// split on bytes, as WHATWG's URL parser splits a query, not on `Character`s, which cost a
    /// grapheme break a character and do not split where a combining mark follows the
    /// separator (`&\u{301}`). The one split of queries, forms and URLs' paths, so that
    /// whatever reads a query and whatever redacts it see the same fields.
    ///
    /// ```swift
    /// FormEncoding.pieces(of: "a=1&&b", separatedBy: UInt8(ascii: "&"))  // ["a=1", "", "b"]
    /// ```
    package static func pieces(of text: Substring, separatedBy separator: UInt8) -> [Substring] {
        let utf8 = text.utf8
        // The separators' offsets from a scan of the bytes where they are contiguous (a native
        // string's are): stepping the view's indices was most of a log line's query split.
        let offsets =
            utf8.withContiguousStorageIfAvailable { bytes in bytes.indices.filter { bytes[$0] == separator } }
            ?? utf8.indices.filter { utf8[$0] == separator }.map { utf8.distance(from: utf8.startIndex, to: $0) }
        var result: [Substring] = []
        result.reserveCapacity(offsets.count + 1)
        var start = text.startIndex
        for offset in offsets {
            let found = utf8.index(utf8.startIndex, offsetBy: offset)
            result.append(text[start..<found])
            start = utf8.index(after: found)
        }
        result.append(text[start...])
        return result
    }

    /// Decodes one component: `+` is a space, `%XX` is a byte.
    package static func decode(_ component: Substring) -> String {
        let utf8 = component.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            return String(component)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "+") {
                bytes.append(0x20)
                index = utf8.index(after: index)
                continue
            }
            if byte == UInt8(ascii: "%") {
                let first = utf8.index(after: index)
                if first != utf8.endIndex, let high = hexValue(utf8[first]) {
                    let second = utf8.index(after: first)
                    if second != utf8.endIndex, let low = hexValue(utf8[second]) {
                        bytes.append(high << 4 | low)
                        index = utf8.index(after: second)
                        continue
                    }
                }
            }
            bytes.append(byte)
            index = utf8.index(after: index)
        }
        return String(validating: bytes, as: UTF8.self) ?? String(component)
    }

    /// Encodes one component as a form serializer does: `*-._` and alphanumerics stay,
    /// a space becomes `+`, every other byte `%XX`.
    package static func encode(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        let digits = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "*"), UInt8(ascii: "-"),
                UInt8(ascii: "."), UInt8(ascii: "_"):
                out.append(byte)
            case UInt8(ascii: " "):
                out.append(UInt8(ascii: "+"))
            default:
                out.append(UInt8(ascii: "%"))
                out.append(digits[Int(byte >> 4)])
                out.append(digits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether a body without a form content type reads as `a=b&c=d`: one line, no spaces,
    /// and every `&`-separated piece a non-empty name, `=`, and a value.
    ///
    /// Strict on purpose: JSON, free text and multi-line batches (gtag) must not turn into
    /// parameters.
    package static func looksLikeForm(_ text: String) -> Bool {
        var sawPiece = false
        for piece in text.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false) {
            guard let equals = piece.firstIndex(of: UInt8(ascii: "=")), equals != piece.startIndex else {
                return false
            }
            for byte in piece
            where byte <= 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"")
                || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}")
            {
                return false
            }
            sawPiece = true
        }
        return sawPiece
    }

    /// The value of an ASCII hex digit, or nil.
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
