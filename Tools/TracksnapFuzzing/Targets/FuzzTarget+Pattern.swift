import Patterns
import TracksnapRecording
import TracksnapValidation

extension FuzzTarget {
    /// PCRE2 patterns: the first byte picks the options, then the pattern up to a newline, then
    /// the subject. A pattern that compiles matches without crashing (a limit is an error, not a
    /// crash), and a literal escaped as the recorder escapes it matches that literal.
    static let pattern = FuzzTarget(
        "pattern", "Pattern(source, options:) and matches(subject); PatternEscaping.escape(text) matches text"
    ) { bytes throws(PropertyViolation) in
        guard let first = bytes.first else { return }
        let options = Pattern.Options(rawValue: UInt32(first) & 0b11)
        let (line, rest) = Input.firstLine(Array(bytes.dropFirst()))
        let source = Input.text(Array(line))
        let subject = Input.text(Array(rest))
        if let pattern = try? Pattern(source, options: options) {
            _ = try? pattern.matches(subject)
        }
        let literal = Input.text(Array(bytes.dropFirst()))
        let escaped = PatternEscaping.escape(literal)
        let matched: Bool
        do {
            matched = try Pattern(escaped).matches(literal)
        } catch {
            throw PropertyViolation(
                target: "pattern", "the escaped literal \(escaped.debugDescription) fails: \(error)")
        }
        guard matched else {
            throw PropertyViolation(
                target: "pattern",
                "the escaped literal \(escaped.debugDescription) does not match \(literal.debugDescription)")
        }
    }
}
