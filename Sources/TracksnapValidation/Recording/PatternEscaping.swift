/// Writes text as a PCRE2 pattern that matches exactly that text.
enum PatternEscaping {
    /// ```swift
    /// PatternEscaping.escape("a.b?c")  // "a\\.b\\?c"
    /// ```
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            if "\\^$.|?*+()[]{}#-/".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }
}
