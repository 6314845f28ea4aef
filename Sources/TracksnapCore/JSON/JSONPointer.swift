import Foundation

/// JSON Pointer (RFC 6901) helpers.
public enum JSONPointer {
    /// Appends one reference token, escaping `~` and `/`.
    ///
    /// ```swift
    /// JSONPointer.appending("/requests/0", "a/b")  // "/requests/0/a~1b"
    /// ```
    public static func appending(_ pointer: String, _ token: String) -> String {
        pointer + "/" + token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    public static func appending(_ pointer: String, _ index: Int) -> String {
        pointer + "/" + String(index)
    }

    /// The unescaped reference tokens of a pointer.
    public static func tokens(_ pointer: String) -> [String] {
        guard !pointer.isEmpty else { return [] }
        return pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            String($0).replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }
}
