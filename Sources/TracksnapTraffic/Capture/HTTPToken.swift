/// RFC 9110's `token` (§5.6.2): what a method and a header field name are made of, one or more
/// of `!#$%&'*+-.^_`|~`, digits and ASCII letters.
///
/// ```swift
/// HTTPToken.isToken("POST")             // true
/// HTTPToken.isToken("GET;touch /tmp/x") // false: ";" and " " are not token characters
/// ```
///
/// A method or a header name that is not one is refused where it is recorded or read (an
/// HTTP/2 `:method`, ingested captures, a cassette's headers): whatever shows it later (a log
/// line, the inspector's "Copy as curl", a replayed answer) may then take it as a single word.
package enum HTTPToken {
    /// Whether `text` is a token: not empty, and every byte a token character.
    package static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(isTokenByte)
    }

    /// Whether one byte is a token character (`tchar`).
    package static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
