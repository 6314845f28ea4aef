import TracksnapJSON

/// A JSON number's exact value: sign, significant digits and a power of ten, compared and
/// divided without going through a `Double` (so `9007199254740993` differs from
/// `9007199254740992`, and `1e308` is a multiple of `1e-8`).
struct ExactNumber: Sendable, Hashable, Comparable {
    var negative: Bool
    /// The significant decimal digits (ASCII), without leading or trailing zeros; empty for zero.
    var digits: [UInt8]
    var exponent: Int

    /// The number `text` writes, or nil when it is not a JSON number (or its exponent is beyond
    /// a quarter of `Int`'s range, where digit counts and exponents could no longer be added).
    ///
    /// Read from `JSONValue.decimalKey`, the one reader of a number's exact value: `-125e-1` for `-12.50`.
    init?(_ text: String) {
        guard let key = JSONValue.decimalKey(text) else { return nil }
        var bytes = Substring(key).utf8[...]
        negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        guard let e = bytes.firstIndex(of: UInt8(ascii: "e")) else {
            // Zero, the one key without an exponent.
            (negative, digits, exponent) = (false, [], 0)
            return
        }
        guard let power = Int(String(decoding: bytes[bytes.index(after: e)...], as: UTF8.self)),
            power.magnitude < UInt(Int.max / 4)
        else { return nil }
        digits = Array(bytes[..<e])
        exponent = power
    }

    init(negative: Bool, digits: [UInt8], exponent: Int) {
        self.negative = negative
        self.digits = digits
        self.exponent = exponent
    }

    var isZero: Bool { digits.isEmpty }

    /// The nearest `Double`: what a number too large for an `ExactNumber` is compared with.
    var doubleValue: Double {
        guard !isZero else { return 0 }
        return Double((negative ? "-" : "") + String(decoding: digits, as: UTF8.self) + "e" + String(exponent)) ?? .nan
    }

    /// The value as an `Int`, when it is an integer of at most 18 digits.
    var smallInteger: Int? {
        guard isInteger, digits.count + exponent <= 18 else { return nil }
        let magnitude = (0..<exponent).reduce(digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }) { value, _ in
            value * 10
        }
        return negative ? -magnitude : magnitude
    }
    /// Whether the value has no fractional part (`1.0` and `1e2` do).
    var isInteger: Bool { exponent >= 0 }

    static func < (a: ExactNumber, b: ExactNumber) -> Bool {
        if a.negative != b.negative { return a.negative }
        return a.negative ? magnitudeLess(b, a) : magnitudeLess(a, b)
    }

    private static func magnitudeLess(_ a: ExactNumber, _ b: ExactNumber) -> Bool {
        if a.isZero || b.isZero { return a.isZero && !b.isZero }
        // The position of the leading digit decides, then the digits from the left.
        let aLead = a.digits.count + a.exponent
        let bLead = b.digits.count + b.exponent
        if aLead != bLead { return aLead < bLead }
        return a.digits.lexicographicallyPrecedes(b.digits)
    }

    /// The most digit operations (digits of the dividend times digits of the divisor) one
    /// long division may take: beyond it `isMultiple(of:)` gives up.
    static let longDivisionBound = 4_000_000

    /// Whether `self` is an integer multiple of `divisor` (which is positive); nil when a
    /// divisor of more than 18 significant digits would take more than `longDivisionBound`
    /// digit operations.
    ///
    /// With `self = a·10^p` and `divisor = b·10^q` (`a`, `b` without trailing zeros): when
    /// `p < q`, the quotient `a / (b·10^(q−p))` is never an integer, as `a` is not a multiple of
    /// 10; otherwise it is when `a·10^(p−q)` is a multiple of `b`, computed digit by digit modulo `b`.
    func isMultiple(of divisor: ExactNumber) -> Bool? {
        if isZero { return true }
        guard !divisor.isZero else { return false }
        guard exponent >= divisor.exponent else { return false }
        guard let modulus = divisor.integerDigitsValue else {
            // A divisor of more than 18 significant digits: long division by digits.
            return Self.isMultipleByLongDivision(digits, exponent - divisor.exponent, divisor.digits)
        }
        var remainder: UInt64 = 0
        for digit in digits { remainder = (remainder * 10 + UInt64(digit - UInt8(ascii: "0"))) % modulus }
        // remainder · 10^shift mod modulus, by squaring: an exponent of 1e9 takes 30 steps.
        var shift = exponent - divisor.exponent
        var power: UInt64 = 10 % modulus
        while shift > 0, remainder != 0 {
            if shift & 1 == 1 { remainder = Self.multiply(remainder, power, modulo: modulus) }
            power = Self.multiply(power, power, modulo: modulus)
            shift >>= 1
        }
        return remainder == 0
    }

    private static func multiply(_ a: UInt64, _ b: UInt64, modulo modulus: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return modulus.dividingFullWidth((product.high, product.low)).remainder
    }

    /// The significant digits as an integer, when they fit with room for one more digit.
    private var integerDigitsValue: UInt64? {
        guard digits.count <= 18 else { return nil }
        return digits.reduce(0) { $0 * 10 + UInt64($1 - UInt8(ascii: "0")) }
    }

    /// Whether `digits·10^shift` is a multiple of `divisor` (all ASCII digits), by schoolbook
    /// long division keeping the remainder as digits; nil beyond `longDivisionBound`.
    private static func isMultipleByLongDivision(_ digits: [UInt8], _ shift: Int, _ divisor: [UInt8]) -> Bool? {
        // r·10^k is a multiple of b = 2^x·5^y·c (c prime to 10) only once k ≥ max(x, y), and
        // b < 10^n (n digits) makes x < 3.33·n and y < 1.44·n: if 4·n + 4 zeros leave a
        // remainder, more never clear it (`7e999999` needs no million steps).
        let zeros = min(shift, 4 * divisor.count + 4)
        guard (digits.count + zeros).multipliedReportingOverflow(by: divisor.count).partialValue <= longDivisionBound,
            digits.count + zeros <= longDivisionBound
        else { return nil }
        let divisorValue = divisor.map { Int($0 - UInt8(ascii: "0")) }
        var remainder: [Int] = []
        func step(_ digit: Int) {
            remainder.append(digit)
            while let first = remainder.first, first == 0, remainder.count > 1 { remainder.removeFirst() }
            // Subtract the divisor while the remainder is at least the divisor (at most 9 times).
            while compare(remainder, divisorValue) >= 0 { remainder = subtract(remainder, divisorValue) }
        }
        for digit in digits { step(Int(digit - UInt8(ascii: "0"))) }
        var left = zeros
        while left > 0, !(remainder.allSatisfy { $0 == 0 }) {
            step(0)
            left -= 1
        }
        return remainder.allSatisfy { $0 == 0 }
    }

    private static func compare(_ a: [Int], _ b: [Int]) -> Int {
        let a = Array(a.drop { $0 == 0 })
        let b = Array(b.drop { $0 == 0 })
        if a.count != b.count { return a.count < b.count ? -1 : 1 }
        for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
        return 0
    }

    private static func subtract(_ a: [Int], _ b: [Int]) -> [Int] {
        var result = a
        var borrow = 0
        for offset in 0..<result.count {
            let index = result.count - 1 - offset
            let bDigit = offset < b.count ? b[b.count - 1 - offset] : 0
            var value = result[index] - bDigit - borrow
            borrow = value < 0 ? 1 : 0
            if value < 0 { value += 10 }
            result[index] = value
        }
        return Array(result.drop { $0 == 0 })
    }
}
