extension JSONValue {
    /// A number's exact decimal value as one canonical text (`12.50`, `1.25e1` and `12.5` all give
    /// `125e-1`; `-0` gives `0`), so that numbers compare by value without going through a
    /// `Double`, which would make `9007199254740993` equal `9007199254740992` and `1e400` equal
    /// `2e400`. Nil for a value that is not a number, or whose text is not a JSON number.
    ///
    /// ```swift
    /// JSONValue.number("12.50").decimalKey == JSONValue.number("1.25e1").decimalKey  // true
    /// ```
    package var decimalKey: String? {
        guard case .number(let text) = self else { return nil }
        return Self.decimalKey(text)
    }

    package static func decimalKey(_ text: String) -> String? {
        var bytes = Substring(text).utf8[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        let integer = bytes.prefix(while: isDigit)
        guard !integer.isEmpty else { return nil }
        bytes = bytes.dropFirst(integer.count)
        var fraction = bytes.prefix(0)
        if bytes.first == UInt8(ascii: ".") {
            fraction = bytes.dropFirst().prefix(while: isDigit)
            guard !fraction.isEmpty else { return nil }
            bytes = bytes.dropFirst(1 + fraction.count)
        }
        var exponent = 0
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            let exponentNegative = bytes.first == UInt8(ascii: "-")
            if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
            let digits = bytes.prefix(while: isDigit)
            guard !digits.isEmpty, let value = Int(String(decoding: digits, as: UTF8.self)) else { return nil }
            exponent = exponentNegative ? -value : value
            bytes = bytes.dropFirst(digits.count)
        }
        guard bytes.isEmpty else { return nil }
        var digits = Array(integer) + Array(fraction)
        let leading = digits.prefix { $0 == UInt8(ascii: "0") }.count
        digits.removeFirst(leading)
        let trailing = digits.reversed().prefix { $0 == UInt8(ascii: "0") }.count
        digits.removeLast(trailing)
        guard !digits.isEmpty else { return "0" }
        let (scaled, overflow) = exponent.subtractingReportingOverflow(fraction.count - trailing)
        guard !overflow else { return nil }
        return (negative ? "-" : "") + String(decoding: digits, as: UTF8.self) + "e" + String(scaled)
    }
}
