import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

/// How values and user-supplied text are shown to a person.
///
/// A report must let a user see why `"Order Completed "` is not `"Order Completed"`: characters
/// that print as nothing (controls, zero-width and non-breaking spaces, byte-order marks) become
/// `⟨U+200B⟩`, spaces at either end of a string become `·`, and a long value is shortened in the
/// middle, around the first difference from the value it is compared with.
///
/// ```swift
/// VisibleText.value(.string("Order Completed "))  // "Order Completed·" (quoted)
/// ```
package enum VisibleText {
    /// Past this many characters, a value is shortened in the middle with `…`.
    static let limit = 60

    /// A value as compact JSON (keys sorted), invisible characters made visible, shortened.
    static func value(_ value: JSONValue, limit: Int = limit) -> String {
        shorten(tokens(value), limit: limit, focus: nil)
    }

    /// An expected and an actual value, each shortened so that their first difference stays in view.
    static func pair(_ expected: JSONValue?, _ actual: JSONValue?, limit: Int = limit) -> (
        expected: String?, actual: String?
    ) {
        let left = expected.map(tokens)
        let right = actual.map(tokens)
        var focus: Int?
        if let left, let right {
            let common = zip(left, right).prefix { $0 == $1 }.count
            focus = common
        }
        return (
            left.map { shorten($0, limit: limit, focus: focus) }, right.map { shorten($0, limit: limit, focus: focus) }
        )
    }

    /// Free text (a name, a URL, a message) with control and invisible characters made visible,
    /// so that it cannot move the cursor, colour the terminal, hide a difference, or start a
    /// line of its own (the capture server's log lines go through it too).
    package static func inline(_ text: String) -> String {
        // Printable ASCII is shown as it is; every server log line goes through here, and most
        // are nothing else.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case " ": out += " "
            default: out += isInvisible(scalar) ? codePoint(scalar) : String(scalar)
            }
        }
        return out
    }

    /// Free text cut to one line of at most `limit` characters.
    static func line(_ text: String, limit: Int) -> String {
        shorten(inline(text).map { String($0) }, limit: limit, focus: nil)
    }

    // MARK: - Tokens

    /// The display text of a value, one token per visible unit, so that shortening never splits an escape.
    static func tokens(_ value: JSONValue) -> [String] {
        var out: [String] = []
        append(value, to: &out)
        return out
    }

    private static func append(_ value: JSONValue, to out: inout [String]) {
        switch value {
        case .null: out.append("null")
        case .bool(let b): out.append(b ? "true" : "false")
        case .number(let n): out += n.map { String($0) }
        case .string(let s): appendString(s, to: &out)
        case .array(let items):
            out.append("[")
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(",") }
                append(item, to: &out)
            }
            out.append("]")
        case .object(let members):
            out.append("{")
            for (i, key) in members.keys.sorted().enumerated() {
                if i > 0 { out.append(",") }
                appendString(key, to: &out)
                out.append(":")
                if let member = members[key] { append(member, to: &out) }
            }
            out.append("}")
        }
    }

    private static func appendString(_ s: String, to out: inout [String]) {
        let scalars = Array(s.unicodeScalars)
        // Spaces at either end are the ones a reader cannot see; those in between show as gaps.
        let leading = scalars.prefix { $0 == " " }.count
        let trailing = leading == scalars.count ? 0 : scalars.reversed().prefix { $0 == " " }.count
        out.append("\"")
        for (i, scalar) in scalars.enumerated() {
            switch scalar {
            case "\"": out.append("\\\"")
            case "\\": out.append("\\\\")
            case "\n": out.append("\\n")
            case "\r": out.append("\\r")
            case "\t": out.append("\\t")
            case " ": out.append(i < leading || i >= scalars.count - trailing ? "·" : " ")
            // A real middle dot would read as a marked space.
            case "·": out.append(codePoint(scalar))
            default: out.append(isInvisible(scalar) ? codePoint(scalar) : String(scalar))
            }
        }
        out.append("\"")
    }

    /// True for characters that print as nothing or as an ordinary space.
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == " " { return false }
        switch scalar.properties.generalCategory {
        case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator, .surrogate:
            return true
        default:
            return scalar.properties.isDefaultIgnorableCodePoint
        }
    }

    static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "⟨U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "⟩"
    }

    // MARK: - Shortening

    /// Joins tokens, cutting the middle out with `…` when they are wider than `limit`. When
    /// `focus` (a token index) would fall in the cut, a window around it is kept as well.
    static func shorten(_ tokens: [String], limit: Int, focus: Int?) -> String {
        var starts: [Int] = [0]  // starts[i]: width of tokens before i; starts[count]: total
        starts.reserveCapacity(tokens.count + 1)
        for token in tokens { starts.append(starts[starts.count - 1] + token.count) }
        let total = starts[tokens.count]
        guard total > limit, limit >= 8 else { return tokens.joined() }

        // The last index whose tokens before it fit in `width` characters from `start`.
        func end(from start: Int, width: Int) -> Int {
            var i = start
            while i < tokens.count, starts[i + 1] - starts[start] <= width { i += 1 }
            return i
        }
        // The first index whose tokens from it to the end fit in `width` characters.
        func tailStart(width: Int) -> Int {
            var i = tokens.count
            while i > 0, total - starts[i - 1] <= width { i -= 1 }
            return i
        }
        func join(_ range: Range<Int>) -> String { tokens[range].joined() }

        let headEnd = end(from: 0, width: (limit - 1) / 2)
        let tail = tailStart(width: limit - 1 - (limit - 1) / 2)
        guard let focus, focus >= headEnd, focus < tail else {
            return join(0..<headEnd) + "…" + join(max(headEnd, tail)..<tokens.count)
        }
        // Head, a window that opens a few characters before the focus, and tail.
        let headWidth = limit / 5
        let tailWidth = limit / 4
        let windowWidth = limit - 2 - headWidth - tailWidth
        let shortHead = end(from: 0, width: headWidth)
        let shortTail = tailStart(width: tailWidth)
        var windowStart = focus
        while windowStart > shortHead, starts[focus] - starts[windowStart - 1] <= 8 { windowStart -= 1 }
        let windowEnd = end(from: windowStart, width: windowWidth)
        var out = join(0..<shortHead)
        out += windowStart > shortHead ? "…" : ""
        out += join(max(shortHead, windowStart)..<windowEnd)
        if windowEnd < shortTail {
            out += "…" + join(shortTail..<tokens.count)
        } else {
            out += join(windowEnd..<tokens.count)
        }
        return out
    }
}
