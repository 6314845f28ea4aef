extension Secrets {
    /// The credentials a text holds that say what they are by their shape, whatever names them:
    /// a JWT (`eyJ….eyJ….…`), an AWS access key id (`AKIA…`, `ASIA…`: 20 capitals and digits),
    /// a Google API key (`AIza` and 35 more), a payment card number (13 to 19 digits, in
    /// groups split by single spaces, dashes or dots or not, starting 2 to 6 as the card networks'
    /// numbers do, that pass the Luhn check), and the password in a URL's user info (4 bytes or
    /// more). Each is returned as it stands in the text.
    ///
    /// ```swift
    /// Secrets.shapedCredentials(in: "card 4242 4242 4242 4242, key AKIAIOSFODNN7EXAMPLE")
    /// // ["4242 4242 4242 4242", "AKIAIOSFODNN7EXAMPLE"]
    /// ```
    ///
    /// What is not caught: a number the app sends as a JSON number, a card number starting 1, 7,
    /// 8 or 9, any other provider's key format, and random tokens outside credential positions
    /// (those are hidden by their names: `isSecret`, `isSecretHeader`).
    public static func shapedCredentials(in text: String) -> [String] {
        guard text.utf8.count >= 13 else { return [] }
        let bytes = Array(text.utf8)
        var found = userInfoPasswords(in: bytes)
        var index = 0
        while index < bytes.count {
            // A JWT's `eyJ` and its two dots say enough to be found glued to a word (`tokeneyJ…`).
            let boundary = index == 0 || !isWordByte(bytes[index - 1]) || bytes[index] == UInt8(ascii: "e")
            if boundary, let end = shapeEnd(at: index, in: bytes) {
                found.append(String(decoding: bytes[index..<end], as: UTF8.self))
                index = end
            } else {
                index += 1
            }
        }
        return found
    }

    /// The password in each URL's user info (`postgres://app:s3cret@db:5432/x`,
    /// `redis://:s3cret@cache`): whatever the host, which the shape of an email does not cover.
    private static func userInfoPasswords(in bytes: [UInt8]) -> [String] {
        var found: [String] = []
        var start = 0
        while let separator = firstIndex(of: Array("://".utf8), in: bytes, from: start) {
            let authority = separator + 3
            var end = authority
            while end < bytes.count, !"/?# \"'<>".utf8.contains(bytes[end]) { end += 1 }
            start = end
            guard let at = bytes[authority..<end].lastIndex(of: UInt8(ascii: "@")),
                let colon = bytes[authority..<at].firstIndex(of: UInt8(ascii: ":")), at - colon > 4
            else { continue }
            found.append(String(decoding: bytes[(colon + 1)..<at], as: UTF8.self))
        }
        return found
    }

    private static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        bytes.withUnsafeBufferPointer { firstIndex(of: needle, in: $0, from: start) }
    }

    /// Where a credential starting at `start` ends, if one does.
    private static func shapeEnd(at start: Int, in bytes: [UInt8]) -> Int? {
        let byte = bytes[start]
        if byte == UInt8(ascii: "e") { return jwtEnd(at: start, in: bytes) }
        if byte == UInt8(ascii: "A") { return awsKeyEnd(at: start, in: bytes) ?? googleKeyEnd(at: start, in: bytes) }
        if isDigit(byte) { return cardEnd(at: start, in: bytes) }
        return nil
    }

    /// Three base64url segments split by dots, the first `eyJ` (JSON's `{"`): a JWT's header,
    /// claims and signature (empty for `alg: none`).
    private static func jwtEnd(at start: Int, in bytes: [UInt8]) -> Int? {
        guard has("eyJ", at: start, in: bytes) else { return nil }
        var index = start
        for segment in 0..<3 {
            let from = index
            while index < bytes.count, isBase64URLByte(bytes[index]) { index += 1 }
            if segment < 2 {
                // The header is JSON of some length; the claims may be short (`e30`, `{}`).
                guard index - from >= (segment == 0 ? 10 : 2), index < bytes.count, bytes[index] == UInt8(ascii: ".")
                else { return nil }
                index += 1
            }
        }
        return index
    }

    /// `AKIA` or `ASIA` and 16 capitals or digits, and no more of them.
    private static func awsKeyEnd(at start: Int, in bytes: [UInt8]) -> Int? {
        guard has("AKIA", at: start, in: bytes) || has("ASIA", at: start, in: bytes) else { return nil }
        let end = start + 20
        guard end <= bytes.count, bytes[start..<end].allSatisfy({ isDigit($0) || isCapital($0) }),
            end == bytes.count || !isWordByte(bytes[end])
        else { return nil }
        return end
    }

    /// `AIza` and 35 base64url characters.
    private static func googleKeyEnd(at start: Int, in bytes: [UInt8]) -> Int? {
        guard has("AIza", at: start, in: bytes) else { return nil }
        let end = start + 39
        guard end <= bytes.count, bytes[(start + 4)..<end].allSatisfy(isBase64URLByte),
            end == bytes.count || !isBase64URLByte(bytes[end])
        else { return nil }
        return end
    }

    /// 13 to 19 digits, groups split by one space, dash or dot, first digit 2 to 6, Luhn-valid,
    /// with no digit or letter right after.
    static func cardEnd(at start: Int, in bytes: [UInt8]) -> Int? {
        guard bytes[start] >= UInt8(ascii: "2"), bytes[start] <= UInt8(ascii: "6") else { return nil }
        var digits: [UInt8] = []
        var index = start
        var end = start
        while index < bytes.count, digits.count < 20 {
            let byte = bytes[index]
            if isDigit(byte) {
                digits.append(byte - UInt8(ascii: "0"))
                index += 1
                end = index
            } else if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "."),
                index + 1 < bytes.count,
                isDigit(bytes[index + 1]), index > start, isDigit(bytes[index - 1])
            {
                index += 1
            } else {
                break
            }
        }
        guard (13...19).contains(digits.count), end == bytes.count || !isWordByte(bytes[end]), passesLuhn(digits)
        else { return nil }
        return end
    }

    /// The Luhn check every card number passes: from the right, every second digit doubled
    /// (less 9 above 9), the sum a multiple of 10.
    static func passesLuhn(_ digits: [UInt8]) -> Bool {
        var sum = 0
        for (offset, digit) in digits.reversed().enumerated() {
            var value = Int(digit)
            if offset % 2 == 1 {
                value *= 2
                if value > 9 { value -= 9 }
            }
            sum += value
        }
        return sum % 10 == 0
    }

    private static func has(_ prefix: StaticString, at start: Int, in bytes: [UInt8]) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard start + count <= bytes.count else { return false }
        return prefix.withUTF8Buffer { bytes[start..<(start + count)].elementsEqual($0) }
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    private static func isCapital(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }
    static func isWordByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || isCapital(byte) || (byte >= 0x61 && byte <= 0x7A)
    }
    private static func isBase64URLByte(_ byte: UInt8) -> Bool {
        isWordByte(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }
}
