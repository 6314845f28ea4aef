import Foundation

/// Escaping for text placed in a GitHub-flavoured Markdown table cell.
///
/// ```swift
/// Markdown.code("a|b")   // `a\|b`
/// Markdown.text("*x*")   // \*x\*
/// ```
enum Markdown {
    /// A code span that shows the text literally, whatever backticks or pipes it holds.
    static func code(_ text: String) -> String {
        // A pipe ends a table cell even inside a code span unless escaped (GFM tables).
        let body = VisibleText.inline(text).replacingOccurrences(of: "|", with: "\\|")
        guard !body.isEmpty else { return "—" }
        var longest = 0
        var run = 0
        for character in body {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        // A span that begins or ends with a backtick needs a space, which the renderer strips.
        let pad = body.hasPrefix("`") || body.hasSuffix("`") ? " " : ""
        return fence + pad + body + pad + fence
    }

    /// Plain text with the characters that Markdown or HTML could act on inside a table cell escaped.
    /// (Line-start markers such as `#`, `-` and `+` cannot occur in a cell.)
    static func text(_ text: String) -> String {
        var out = ""
        for character in VisibleText.inline(text) {
            if "\\`*_[]<>|~&".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }
}
