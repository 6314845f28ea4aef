/// Escaping for XML 1.0 text and attribute values.
///
/// Characters XML 1.0 forbids even as references (U+0000–U+0008, U+000B, U+000C,
/// U+000E–U+001F, U+FFFE, U+FFFF) cannot be escaped, so they are written as `⟨U+0001⟩`.
///
/// ```swift
/// XMLEscaping.attribute("a \"b\" & <c>")  // a &quot;b&quot; &amp; &lt;c&gt;
/// ```
enum XMLEscaping {
    /// Text content: `]]>` needs no special case, since `>` is always escaped.
    static func text(_ string: String) -> String {
        escape(string, attribute: false)
    }

    /// A double- or single-quoted attribute value; tabs and line breaks become references so
    /// that attribute normalization does not turn them into spaces.
    static func attribute(_ string: String) -> String {
        escape(string, attribute: true)
    }

    private static func escape(_ string: String, attribute: Bool) -> String {
        var out = ""
        out.reserveCapacity(string.utf8.count)
        for scalar in string.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t" where attribute: out += "&#9;"
            case "\n" where attribute: out += "&#10;"
            case "\r": out += "&#13;"  // a literal CR in text would be read back as LF
            case "\t", "\n": out.unicodeScalars.append(scalar)
            default:
                if isAllowed(scalar) {
                    out.unicodeScalars.append(scalar)
                } else {
                    out += VisibleText.codePoint(scalar)
                }
            }
        }
        return out
    }

    /// XML 1.0 `Char`: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}
