/// Reads the bit fields of a base64url consent string (IAB TCF, GPP): big-endian, most
/// significant bit first, each character six bits.
struct ConsentBits {
    private let bits: [Bool]
    private(set) var offset = 0
    /// What the errors call the string (`TC string`, `GPP header`).
    let what: String

    /// Throws when a character is not base64url (the TCF and GPP specifications use the
    /// URL-safe alphabet without padding; `+`, `/` and `=` are accepted too, as some CMPs write them).
    init(base64URL text: Substring, what: String) throws(ConsentDecodeError) {
        self.what = what
        var bits: [Bool] = []
        bits.reserveCapacity(text.utf8.count * 6)
        for (index, byte) in text.utf8.enumerated() {
            let value: UInt8
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = byte - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = byte - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0") + 52
            case UInt8(ascii: "-"), UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "_"), UInt8(ascii: "/"): value = 63
            case UInt8(ascii: "="): continue
            default:
                throw ConsentDecodeError(
                    "\(what): character \(index + 1) (\"\(Character(Unicode.Scalar(byte)))\") is not base64url")
            }
            for shift in stride(from: 5, through: 0, by: -1) { bits.append(value >> UInt8(shift) & 1 == 1) }
        }
        self.bits = bits
    }

    var count: Int { bits.count }
    var remaining: Int { bits.count - offset }

    /// The next `width` bits as an unsigned integer (at most 62), or an error naming the field.
    mutating func int(_ width: Int, _ field: String) throws(ConsentDecodeError) -> Int {
        guard width <= remaining else {
            throw ConsentDecodeError(
                "\(what): \(field) at bit \(offset) needs \(width) bit\(width == 1 ? "" : "s"), the string has \(count)"
            )
        }
        var value = 0
        for bit in bits[offset..<offset + width] { value = value << 1 | (bit ? 1 : 0) }
        offset += width
        return value
    }

    mutating func bool(_ field: String) throws(ConsentDecodeError) -> Bool {
        try int(1, field) == 1
    }

    /// A bitfield of `width` bits: the ids (from 1) whose bit is set.
    mutating func ids(_ width: Int, _ field: String) throws(ConsentDecodeError) -> [Int] {
        guard width > 0 else { return [] }
        var ids: [Int] = []
        for id in 1...width {
            if try bool(field) { ids.append(id) }
        }
        return ids
    }

    /// Two letters of six bits each, `A` = 0 (TCF's language and country codes).
    mutating func letters(_ field: String) throws(ConsentDecodeError) -> String {
        let first = try int(6, field)
        let second = try int(6, field)
        guard first < 26, second < 26 else {
            throw ConsentDecodeError("\(what): \(field) at bit \(offset - 12) is not two letters A to Z")
        }
        return String(
            decoding: [UInt8(ascii: "A") + UInt8(first), UInt8(ascii: "A") + UInt8(second)], as: UTF8.self)
    }

    /// A Fibonacci-coded integer (GPP): the set bits' Fibonacci numbers (1, 2, 3, 5…) summed,
    /// ended by two set bits in a row.
    mutating func fibonacci(_ field: String) throws(ConsentDecodeError) -> Int {
        var value = 0
        var fib = (1, 2)
        var last = false
        for _ in 0..<40 {
            let bit = try bool(field)
            if bit && last { return value }
            if bit { value += fib.0 }
            last = bit
            fib = (fib.1, fib.0 + fib.1)
        }
        throw ConsentDecodeError("\(what): \(field) at bit \(offset) is a Fibonacci code with no end")
    }
}
