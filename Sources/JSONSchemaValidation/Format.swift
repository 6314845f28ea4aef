/// The formats checked when `format` is asserted (`JSONSchema.Options.assertsFormats`); by
/// default `format` is an annotation, as the drafts say, and any other format name is ignored.
enum Format: String, Sendable {
    case dateTime = "date-time"
    case date
    case time
    case email
    case hostname
    case ipv4
    case ipv6
    case uri
    case uriReference = "uri-reference"
    case uuid

    /// Whether `text` is in the format (non-strings are always valid: formats concern strings).
    func accepts(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        switch self {
        case .dateTime:
            guard let separator = bytes.firstIndex(where: { $0 == UInt8(ascii: "T") || $0 == UInt8(ascii: "t") }) else {
                return false
            }
            return Self.date(bytes[..<separator]) && Self.time(bytes[(separator + 1)...])
        case .date: return Self.date(bytes[...])
        case .time: return Self.time(bytes[...])
        case .email: return Self.email(text)
        case .hostname: return Self.hostname(bytes[...])
        case .ipv4: return Self.ipv4(bytes[...])
        case .ipv6: return Self.ipv6(bytes[...])
        case .uri: return Self.uri(bytes, requiresScheme: true)
        case .uriReference: return Self.uri(bytes, requiresScheme: false)
        case .uuid:
            guard bytes.count == 36 else { return false }
            return bytes.enumerated().allSatisfy { offset, byte in
                [8, 13, 18, 23].contains(offset) ? byte == UInt8(ascii: "-") : Self.isHex(byte)
            }
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    private static func isHex(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
    }
    private static func isAlpha(_ byte: UInt8) -> Bool {
        byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")
    }

    /// The decimal value of exactly `count` ASCII digits at the start of `bytes`, consumed.
    private static func number(_ bytes: inout ArraySlice<UInt8>, _ count: Int) -> Int? {
        let digits = bytes.prefix(count)
        guard digits.count == count, digits.allSatisfy(isDigit) else { return nil }
        bytes = bytes.dropFirst(count)
        return digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    private static func take(_ bytes: inout ArraySlice<UInt8>, _ expected: Character) -> Bool {
        guard let first = bytes.first, first == expected.asciiValue else { return false }
        bytes = bytes.dropFirst()
        return true
    }

    /// RFC 3339 `full-date`.
    private static func date(_ text: ArraySlice<UInt8>) -> Bool {
        var bytes = text
        guard let year = number(&bytes, 4), take(&bytes, "-"), let month = number(&bytes, 2), take(&bytes, "-"),
            let day = number(&bytes, 2), bytes.isEmpty, (1...12).contains(month)
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }

    /// RFC 3339 `full-time`: a leap second only where it is 23:59:60 in UTC.
    private static func time(_ text: ArraySlice<UInt8>) -> Bool {
        var bytes = text
        guard let hour = number(&bytes, 2), take(&bytes, ":"), let minute = number(&bytes, 2), take(&bytes, ":"),
            let second = number(&bytes, 2), hour < 24, minute < 60, second <= 60
        else { return false }
        if take(&bytes, ".") {
            let fraction = bytes.prefix(while: isDigit)
            guard !fraction.isEmpty else { return false }
            bytes = bytes.dropFirst(fraction.count)
        }
        var offset = 0
        if bytes.first == UInt8(ascii: "Z") || bytes.first == UInt8(ascii: "z") {
            bytes = bytes.dropFirst()
        } else {
            guard let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return false }
            bytes = bytes.dropFirst()
            guard let offsetHour = number(&bytes, 2), take(&bytes, ":"), let offsetMinute = number(&bytes, 2),
                offsetHour < 24, offsetMinute < 60
            else { return false }
            offset = (offsetHour * 60 + offsetMinute) * (sign == UInt8(ascii: "+") ? 1 : -1)
        }
        guard bytes.isEmpty else { return false }
        guard second == 60 else { return true }
        return ((hour * 60 + minute - offset) % 1440 + 1440) % 1440 == 23 * 60 + 59
    }

    private static func ipv4(_ bytes: ArraySlice<UInt8>) -> Bool {
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                guard (1...3).contains(part.count), part.allSatisfy(isDigit) else { return false }
                guard part.count == 1 || part.first != UInt8(ascii: "0") else { return false }
                return part.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) } <= 255
            }
    }

    private static func ipv6(_ bytes: ArraySlice<UInt8>) -> Bool {
        var text = bytes
        var groupsAllowed = 8
        // A trailing IPv4 address stands for two groups.
        if let lastColon = text.lastIndex(of: UInt8(ascii: ":")), text[(lastColon + 1)...].contains(UInt8(ascii: ".")) {
            guard ipv4(text[(lastColon + 1)...]) else { return false }
            text = text[...lastColon]
            if text.last == UInt8(ascii: ":"), text.dropLast().last != UInt8(ascii: ":") { text = text.dropLast() }
            groupsAllowed = 6
        }
        let halves = split(text, on: [UInt8(ascii: ":"), UInt8(ascii: ":")])
        guard halves.count <= 2 else { return false }
        func groups(_ half: ArraySlice<UInt8>) -> Int? {
            if half.isEmpty { return 0 }
            let parts = half.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
            guard parts.allSatisfy({ (1...4).contains($0.count) && $0.allSatisfy(isHex) }) else { return nil }
            return parts.count
        }
        if halves.count == 1 {
            return groups(halves[0]) == groupsAllowed
        }
        guard let first = groups(halves[0]), let second = groups(halves[1]) else { return false }
        return first + second < groupsAllowed
    }

    private static func split(_ bytes: ArraySlice<UInt8>, on separator: [UInt8]) -> [ArraySlice<UInt8>] {
        var parts: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index...].starts(with: separator) {
                parts.append(bytes[start..<index])
                index += separator.count
                start = index
            } else {
                index += 1
            }
        }
        parts.append(bytes[start..<bytes.endIndex])
        return parts
    }

    /// RFC 1123 host names: dot-separated labels of letters, digits and inner hyphens.
    private static func hostname(_ bytes: ArraySlice<UInt8>) -> Bool {
        var name = bytes
        if name.last == UInt8(ascii: ".") { name = name.dropLast() }
        guard !name.isEmpty, name.count <= 253 else { return false }
        return name.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).allSatisfy { label in
            (1...63).contains(label.count) && label.first != UInt8(ascii: "-") && label.last != UInt8(ascii: "-")
                && label.allSatisfy { isAlpha($0) || isDigit($0) || $0 == UInt8(ascii: "-") }
        }
    }

    /// RFC 5321 mailboxes: a dot-atom or quoted local part, then a host name or an address literal.
    private static func email(_ text: String) -> Bool {
        let bytes = Array(text.utf8)[...]
        guard let at = bytes.lastIndex(of: UInt8(ascii: "@")) else { return false }
        let local = bytes[..<at]
        let domain = bytes[(at + 1)...]
        let localValid: Bool
        if local.count >= 2, local.first == UInt8(ascii: "\""), local.last == UInt8(ascii: "\"") {
            localValid = local.dropFirst().dropLast().allSatisfy { $0 >= 0x20 && $0 < 0x7F }
        } else {
            let atomCharacters = Set("!#$%&'*+-/=?^_`{|}~".utf8)
            localValid =
                !local.isEmpty && local.count <= 64
                && local.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).allSatisfy { atom in
                    !atom.isEmpty && atom.allSatisfy { isAlpha($0) || isDigit($0) || atomCharacters.contains($0) }
                }
        }
        guard localValid else { return false }
        if domain.first == UInt8(ascii: "["), domain.last == UInt8(ascii: "]") {
            let literal = domain.dropFirst().dropLast()
            if literal.starts(with: Array("IPv6:".utf8)) { return ipv6(literal.dropFirst(5)) }
            return ipv4(literal)
        }
        return hostname(domain)
    }

    /// RFC 3986 URIs (with a scheme) and URI references: only the characters the RFC allows,
    /// well-formed percent escapes, brackets only around an IP literal host.
    private static func uri(_ bytes: [UInt8], requiresScheme: Bool) -> Bool {
        let allowed = Set("-._~:/?#[]@!$&'()*+,;=%".utf8)
        guard bytes.allSatisfy({ isAlpha($0) || isDigit($0) || allowed.contains($0) }) else { return false }
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "%") {
            guard index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) else { return false }
        }
        var rest = bytes[...]
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
            let first = bytes.first, isAlpha(first),
            bytes[..<colon].allSatisfy({ isAlpha($0) || isDigit($0) || "+-.".utf8.contains($0) })
        {
            rest = bytes[(colon + 1)...]
        } else if requiresScheme {
            return false
        } else if let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
            bytes[..<colon].allSatisfy({ $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
            )
        {
            // A relative reference's first segment has no colon.
            return false
        }
        let beforeFragment = rest.prefix { $0 != UInt8(ascii: "#") }
        guard !rest[beforeFragment.endIndex...].dropFirst().contains(UInt8(ascii: "#")) else { return false }
        var authority = beforeFragment.prefix(0)
        if beforeFragment.starts(with: Array("//".utf8)) {
            authority = beforeFragment.dropFirst(2).prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") }
        }
        let outsideAuthority = beforeFragment[authority.endIndex...]
        guard !outsideAuthority.contains(UInt8(ascii: "[")), !outsideAuthority.contains(UInt8(ascii: "]")) else {
            return false
        }
        var host = authority
        if let at = host.lastIndex(of: UInt8(ascii: "@")) { host = host[(at + 1)...] }
        if host.first == UInt8(ascii: "[") {
            guard let close = host.firstIndex(of: UInt8(ascii: "]")), ipv6(host[(host.startIndex + 1)..<close]) else {
                return false
            }
            host = host[(close + 1)...]
        } else if host.contains(UInt8(ascii: "[")) || host.contains(UInt8(ascii: "]")) {
            return false
        }
        if let colon = host.lastIndex(of: UInt8(ascii: ":")) {
            return host[(colon + 1)...].allSatisfy(isDigit)
        }
        return true
    }
}
