/// Wraps text in ANSI colour codes, or leaves it alone when colour is off.
///
/// ```swift
/// let painter = Painter(enabled: options.color)
/// painter(.red, "✗ checkout")
/// ```
struct Painter: Sendable {
    enum Style: String, Sendable {
        case bold = "1"
        case dim = "2"
        case red = "31"
        case green = "32"
        case yellow = "33"
        case cyan = "36"
        case boldRed = "1;31"
        case boldGreen = "1;32"
    }

    let enabled: Bool

    func callAsFunction(_ style: Style, _ text: String) -> String {
        guard enabled, !text.isEmpty else { return text }
        return "\u{1B}[" + style.rawValue + "m" + text + "\u{1B}[0m"
    }
}
