/// RFC 3986 reference resolution (section 5.2), on strings: schema identifiers are often URNs or
/// relative paths that Foundation's `URL` does not resolve the way the RFC does.
enum URIReference {
    private struct Parts {
        var scheme: Substring?
        var authority: Substring?
        var path: Substring
        var query: Substring?
        var fragment: Substring?

        init(_ text: String) {
            var rest = Substring(text)
            if let hash = rest.firstIndex(of: "#") {
                fragment = rest[rest.index(after: hash)...]
                rest = rest[..<hash]
            }
            if let question = rest.firstIndex(of: "?") {
                query = rest[rest.index(after: question)...]
                rest = rest[..<question]
            }
            if let colon = rest.firstIndex(of: ":"),
                let first = rest.first, first.isLetter,
                rest[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." })
            {
                scheme = rest[..<colon]
                rest = rest[rest.index(after: colon)...]
            }
            if rest.hasPrefix("//") {
                rest = rest.dropFirst(2)
                let end = rest.firstIndex(of: "/") ?? rest.endIndex
                authority = rest[..<end]
                rest = rest[end...]
            }
            path = rest
        }

        var text: String {
            var result = ""
            if let scheme { result += scheme + ":" }
            if let authority { result += "//" + authority }
            result += path
            if let query { result += "?" + query }
            if let fragment { result += "#" + fragment }
            return result
        }
    }

    /// `reference` resolved against `base`.
    ///
    /// ```swift
    /// URIReference.resolve("item.json#/a", against: "http://x.org/schemas/root.json")
    /// // "http://x.org/schemas/item.json#/a"
    /// ```
    static func resolve(_ reference: String, against base: String) -> String {
        let r = Parts(reference)
        if r.scheme != nil { return withPath(r, removingDotSegments(r.path)) }
        var b = Parts(base)
        b.fragment = r.fragment
        if r.authority != nil {
            b.authority = r.authority
            b.path = Substring(removingDotSegments(r.path))
            b.query = r.query
        } else if r.path.isEmpty {
            if r.query != nil { b.query = r.query }
        } else {
            if r.path.hasPrefix("/") {
                b.path = Substring(removingDotSegments(r.path))
            } else if b.authority != nil && b.path.isEmpty {
                b.path = Substring(removingDotSegments("/" + r.path))
            } else {
                let directory = b.path.lastIndex(of: "/").map { b.path[...$0] } ?? ""
                b.path = Substring(removingDotSegments(directory + r.path))
            }
            b.query = r.query
        }
        return b.text
    }

    private static func withPath(_ parts: Parts, _ path: String) -> String {
        var parts = parts
        parts.path = Substring(path)
        return parts.text
    }

    /// The URI without its fragment, and the fragment (empty when there is none).
    static func split(_ uri: String) -> (uri: String, fragment: String) {
        guard let hash = uri.firstIndex(of: "#") else { return (uri, "") }
        return (String(uri[..<hash]), String(uri[uri.index(after: hash)...]))
    }

    private static func removingDotSegments(_ path: Substring) -> String {
        guard path.contains(".") else { return String(path) }
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            switch segment {
            case ".":
                if isLast { output.append("") }
            case "..":
                if output.count > 1 || (output.count == 1 && !output[0].isEmpty) { output.removeLast() }
                if isLast { output.append("") }
            default: output.append(segment)
            }
        }
        return output.joined(separator: "/")
    }
}
