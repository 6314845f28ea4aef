/// The names `serve --intercept` makes certificates for: a DNS host name or an IP address, and
/// nothing else a client may put in its TLS server name or `CONNECT` target (`*`, control
/// characters, a name of 60 KB).
///
/// ```swift
/// ServerName.problem(with: "api.segment.io")  // nil
/// ServerName.problem(with: "*")                // "\"*\" is not a host name: …"
/// ```
enum ServerName {
    /// The longest host name DNS carries, in bytes, without the final dot.
    static let maximumLength = 253
    /// The longest label.
    static let maximumLabelLength = 63

    /// Why `name` gets no certificate: nil for an IP address or a host name of labels of
    /// letters, digits and hyphens (not first or last), 1 to 63 bytes each, 253 bytes at most in
    /// all. An underscore is allowed inside a label too, as real hosts use it.
    static func problem(with name: String) -> String? {
        if IPAddress.parse(name) != nil { return nil }
        let bytes = name.utf8
        guard bytes.count <= maximumLength else {
            return
                "\(quoted(name)) is not a host name: it is \(bytes.count) bytes long, and DNS allows \(maximumLength)"
        }
        for label in bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
            let allowed = label.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                    true
                default: false
                }
            }
            guard allowed, (1...maximumLabelLength).contains(label.count), label.first != UInt8(ascii: "-"),
                label.last != UInt8(ascii: "-")
            else {
                return "\(quoted(name)) is not a host name (labels of letters, digits, hyphens and underscores, 1 to "
                    + "\(maximumLabelLength) bytes each, between dots) nor an IP address"
            }
        }
        return nil
    }

    /// The name as a person may read it in a log: quoted, everything but printable ASCII escaped
    /// (control characters, bidirectional overrides), and no more than its first 64 characters.
    static func quoted(_ name: String) -> String {
        let shown = name.count > 64 ? String(name.prefix(64)) : name
        let escaped = shown.unicodeScalars.map { scalar in
            (0x20..<0x7F).contains(scalar.value) && scalar != "\"" && scalar != "\\"
                ? String(scalar) : scalar.escaped(asASCII: true)
        }.joined()
        return "\"\(escaped)\"" + (shown.count < name.count ? "…" : "")
    }
}
