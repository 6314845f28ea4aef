/// The pieces of an absolute URL, found in one pass over its bytes.
///
/// Hand-written rather than `URLComponents` because captured URLs are not always valid
/// (unescaped spaces, `|`, raw UTF-8 in analytics queries) and must still be taken apart.
///
/// ```swift
/// let parts = URLParts("https://user@API.example.com:8443/v1/t?a=1#top")
/// // scheme "https", host "API.example.com", port "8443", path "/v1/t", query "a=1"
/// ```
struct URLParts {
    /// Before `://`; nil for a URL without an authority.
    var scheme: Substring?
    /// Without user info, brackets kept around an IPv6 address; empty when there is no authority.
    var host: Substring
    var port: Substring?
    /// As sent, still percent-encoded; `/` when a URL with an authority has none.
    var path: Substring
    /// Between `?` and `#`, nil when there is no `?`.
    var query: Substring?

    init(_ url: String) {
        let utf8 = url.utf8
        let hierarchyEnd = utf8.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? utf8.endIndex
        if hierarchyEnd != utf8.endIndex, utf8[hierarchyEnd] == UInt8(ascii: "?") {
            let queryStart = utf8.index(after: hierarchyEnd)
            let queryEnd = utf8[queryStart...].firstIndex(of: UInt8(ascii: "#")) ?? utf8.endIndex
            query = url[queryStart..<queryEnd]
        } else {
            query = nil
        }

        let hierarchy = url[..<hierarchyEnd]
        guard let separator = URLParts.schemeSeparator(in: hierarchy) else {
            scheme = nil
            host = ""
            port = nil
            path = hierarchy
            return
        }
        scheme = hierarchy[..<separator]
        let authorityStart = hierarchy.utf8.index(separator, offsetBy: 3)
        let authorityEnd = hierarchy.utf8[authorityStart...].firstIndex(of: UInt8(ascii: "/")) ?? hierarchy.endIndex
        path = authorityEnd == hierarchy.endIndex ? "/" : hierarchy[authorityEnd...]

        var authority = hierarchy[authorityStart..<authorityEnd]
        if let at = authority.utf8.lastIndex(of: UInt8(ascii: "@")) {
            authority = authority[authority.utf8.index(after: at)...]
        }
        let portColon: Substring.Index?
        if authority.utf8.first == UInt8(ascii: "["), let close = authority.utf8.firstIndex(of: UInt8(ascii: "]")) {
            let afterClose = authority.utf8.index(after: close)
            portColon =
                afterClose != authority.endIndex && authority.utf8[afterClose] == UInt8(ascii: ":") ? afterClose : nil
        } else {
            portColon = authority.utf8.lastIndex(of: UInt8(ascii: ":"))
        }
        if let portColon {
            host = authority[..<portColon]
            let digits = authority[authority.utf8.index(after: portColon)...]
            port = digits.isEmpty ? nil : digits
        } else {
            host = authority
            port = nil
        }
    }

    /// The index of `://` when what precedes it is a valid scheme (a letter, then letters,
    /// digits, `+`, `-`, `.`).
    private static func schemeSeparator(in text: Substring) -> Substring.Index? {
        let utf8 = text.utf8
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            let isLetter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            if byte == UInt8(ascii: ":") {
                guard index != utf8.startIndex, utf8[index...].starts(with: "://".utf8) else { return nil }
                return index
            }
            let isOther =
                (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            guard isLetter || (isOther && index != utf8.startIndex) else { return nil }
            index = utf8.index(after: index)
        }
        return nil
    }
}
