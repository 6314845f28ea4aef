/// JSON Pointer (RFC 6901) helpers.
///
/// Escaping works on Unicode scalars, not `Character`s: a key such as `"~\u{301}"` (a tilde with a
/// combining accent) is one `Character`, and character-wise replacing would leave its `~` unescaped.
public enum JSONPointer {
    /// Appends one reference token, escaping `~` and `/`.
    ///
    /// ```swift
    /// JSONPointer.appending("/requests/0", "a/b")  // "/requests/0/a~1b"
    /// ```
    /// - Parameters:
    ///   - pointer: the pointer of the containing object.
    ///   - token: an object key, unescaped.
    public static func appending(_ pointer: String, _ token: String) -> String {
        var result = pointer
        result.unicodeScalars.append("/")
        if !token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) {
            result += token
            return result
        }
        for scalar in token.unicodeScalars {
            switch scalar {
            case "~": result.unicodeScalars.append(contentsOf: "~0".unicodeScalars)
            case "/": result.unicodeScalars.append(contentsOf: "~1".unicodeScalars)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Appends an array index.
    ///
    /// ```swift
    /// JSONPointer.appending("/events", 2)  // "/events/2"
    /// ```
    /// - Parameters:
    ///   - pointer: the pointer of the containing array.
    ///   - index: the element's 0-based index.
    public static func appending(_ pointer: String, _ index: Int) -> String {
        pointer + "/" + String(index)
    }

    /// The unescaped reference tokens of a pointer.
    ///
    /// ```swift
    /// JSONPointer.tokens("/a~1b/m~0n/0")  // ["a/b", "m~n", "0"]
    /// ```
    /// - Parameter pointer: a pointer such as `/events/0/name`; `""` is the root and has no tokens.
    public static func tokens(_ pointer: String) -> [String] {
        guard !pointer.isEmpty else { return [] }
        var tokens: [String] = []
        var current = String.UnicodeScalarView()
        var scalars = pointer.unicodeScalars.makeIterator()
        // A pointer that does not begin with "/" is malformed; its first token starts at once.
        if pointer.unicodeScalars.first == "/" { _ = scalars.next() }
        while let scalar = scalars.next() {
            switch scalar {
            case "/":
                tokens.append(String(current))
                current = String.UnicodeScalarView()
            case "~":
                switch scalars.next() {
                case "0": current.append("~")
                case "1": current.append("/")
                case "/":
                    current.append("~")
                    tokens.append(String(current))
                    current = String.UnicodeScalarView()
                case let other?:
                    current.append("~")
                    current.append(other)
                case nil:
                    current.append("~")
                }
            default:
                current.append(scalar)
            }
        }
        tokens.append(String(current))
        return tokens
    }
}

extension JSONValue {
    /// The value a JSON Pointer leads to, or nil when it leads nowhere.
    ///
    /// ```swift
    /// (["items": [["sku": "a"]]] as JSONValue).value(atPointer: "/items/0/sku")  // "a"
    /// ```
    public func value(atPointer pointer: String) -> JSONValue? {
        value(atTokens: JSONPointer.tokens(pointer))
    }

    /// The value a pointer's unescaped tokens lead to, or nil when they lead nowhere.
    package func value(atTokens tokens: some Sequence<String>) -> JSONValue? {
        var value = self
        for token in tokens {
            switch value {
            case .object(let members):
                guard let member = members[token] else { return nil }
                value = member
            case .array(let items):
                guard let index = Int(token), items.indices.contains(index) else { return nil }
                value = items[index]
            default: return nil
            }
        }
        return value
    }
}
