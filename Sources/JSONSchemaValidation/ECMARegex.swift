/// JSON Schema's regular expressions are ECMA-262's; PCRE2 reads most of them alike. What
/// differs and is translated:
///
/// - `\d`, `\D`, `\w`, `\W`, `\b`, `\B` are ASCII in ECMA-262 and Unicode in the PCRE2 mode
///   `Patterns` compiles with (UCP): they become explicit ASCII classes (`\d` → `[0-9]`);
/// - `$` outside a class means the end of the input (PCRE2's also matches before a final
///   newline): it becomes `\z`;
/// - `\cX`, `\uXXXX` and `\u{X…}` escapes become PCRE2's `\x{…}`.
///
/// - `\s` and `\S` also take U+FEFF (a white space in ECMA-262, not in PCRE2);
/// - `\p{…}` with a long general category name (`\p{Letter}`, `\p{digit}`) becomes its short
///   name (`\p{L}`, `\p{Nd}`), which every PCRE2 version reads.
///
/// Lookbehind, named groups and classes read alike.
enum ECMARegex {
    static func pcre2(_ source: String) -> String {
        var output = ""
        var scalars = Array(source.unicodeScalars)[...]
        var inClass = false
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "\\":
                guard let next = scalars.popFirst() else {
                    output += "\\"
                    continue
                }
                output += escape(next, inClass: inClass, rest: &scalars)
            case "[" where !inClass:
                // `[]` matches nothing and `[^]` anything in ECMA-262; PCRE2 reads a `]` there as a literal.
                if scalars.first == "]" {
                    output += "(?!)"
                    scalars.removeFirst()
                } else if scalars.starts(with: ["^", "]"]) {
                    output += "[\\s\\S]"
                    scalars.removeFirst(2)
                } else {
                    inClass = true
                    output.unicodeScalars.append(scalar)
                }
            case "]" where inClass:
                inClass = false
                output.unicodeScalars.append(scalar)
            case "$" where !inClass:
                output += "\\z"
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    private static func escape(_ letter: Unicode.Scalar, inClass: Bool, rest: inout ArraySlice<Unicode.Scalar>)
        -> String
    {
        switch letter {
        case "d": return inClass ? "0-9" : "[0-9]"
        case "D": return inClass ? "\\x00-/:-\\x{10FFFF}" : "[^0-9]"
        case "w": return inClass ? "A-Za-z0-9_" : "[A-Za-z0-9_]"
        case "W": return inClass ? "\\x00-/:-@\\[-^`{-\\x{10FFFF}" : "[^A-Za-z0-9_]"
        case "b" where !inClass: return "(?:(?<=[A-Za-z0-9_])(?![A-Za-z0-9_])|(?<![A-Za-z0-9_])(?=[A-Za-z0-9_]))"
        case "B" where !inClass: return "(?:(?<=[A-Za-z0-9_])(?=[A-Za-z0-9_])|(?<![A-Za-z0-9_])(?![A-Za-z0-9_]))"
        case "s": return inClass ? "\\s\\x{FEFF}" : "[\\s\\x{FEFF}]"
        case "S" where !inClass: return "[^\\s\\x{FEFF}]"
        case "p", "P":
            guard rest.first == "{", let close = rest.firstIndex(of: "}") else { return "\\" + String(letter) }
            let name = String(String.UnicodeScalarView(rest[rest.index(after: rest.startIndex)..<close]))
            rest = rest[rest.index(after: close)...]
            return "\\" + String(letter) + "{" + (categories[name] ?? name) + "}"
        case "c":
            guard let control = rest.first, ("A"..."Z").contains(control) || ("a"..."z").contains(control) else {
                return "\\\\c"
            }
            rest.removeFirst()
            return "\\x{" + String(control.value % 32, radix: 16) + "}"
        case "u":
            if rest.first == "{", let close = rest.firstIndex(of: "}") {
                let digits = String(String.UnicodeScalarView(rest[rest.index(after: rest.startIndex)..<close]))
                rest = rest[rest.index(after: close)...]
                return "\\x{" + digits + "}"
            }
            let digits = rest.prefix(4)
            guard digits.count == 4, digits.allSatisfy(\.properties.isASCIIHexDigit) else { return "u" }
            rest.removeFirst(4)
            return "\\x{" + String(String.UnicodeScalarView(digits)) + "}"
        default: return "\\" + String(letter)
        }
    }

    /// ECMA-262's long general category names and their PCRE2 short names.
    private static let categories: [String: String] = [
        "Letter": "L", "Cased_Letter": "L&", "Uppercase_Letter": "Lu", "Lowercase_Letter": "Ll",
        "Titlecase_Letter": "Lt", "Modifier_Letter": "Lm", "Other_Letter": "Lo", "Mark": "M", "Nonspacing_Mark": "Mn",
        "Spacing_Mark": "Mc", "Enclosing_Mark": "Me", "Number": "N", "Decimal_Number": "Nd", "digit": "Nd",
        "Letter_Number": "Nl", "Other_Number": "No", "Punctuation": "P", "punct": "P", "Connector_Punctuation": "Pc",
        "Dash_Punctuation": "Pd", "Open_Punctuation": "Ps", "Close_Punctuation": "Pe", "Initial_Punctuation": "Pi",
        "Final_Punctuation": "Pf", "Other_Punctuation": "Po", "Symbol": "S", "Math_Symbol": "Sm",
        "Currency_Symbol": "Sc", "Modifier_Symbol": "Sk", "Other_Symbol": "So", "Separator": "Z",
        "Space_Separator": "Zs", "Line_Separator": "Zl", "Paragraph_Separator": "Zp", "Other": "C", "Control": "Cc",
        "cntrl": "Cc", "Format": "Cf", "Surrogate": "Cs", "Private_Use": "Co", "Unassigned": "Cn",
    ]
}
