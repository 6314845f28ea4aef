/// Writes text as a PCRE2 pattern that matches exactly that text.
package enum PatternEscaping {
    /// ```swift
    /// PatternEscaping.escape("a.b?c")  // "a\\.b\\?c"
    /// ```
    package static func escape(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        // Scalar by scalar, not Character by Character: PCRE2 reads code points, and a
        // metacharacter followed by a combining mark ("|\u{359}") is one Character.
        for scalar in text.unicodeScalars {
            if "\\^$.|?*+()[]{}#-/".unicodeScalars.contains(scalar) { out.append("\\") }
            out.append(scalar)
        }
        return String(out)
    }
}
