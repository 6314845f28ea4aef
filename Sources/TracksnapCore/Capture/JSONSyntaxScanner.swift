/// Finds where JSON text stops being valid, for error messages.
///
/// `JSONDecoder` only says "not valid JSON" on Linux; this scanner walks the same bytes to
/// point at the line and column, and runs only after a decode has failed.
///
/// ```swift
/// JSONSyntaxScanner.firstError(in: Array(#"{"a" 1}"#.utf8))
/// // (line: 1, column: 6, message: "expected ':' after an object key, found '1'")
/// ```
struct JSONSyntaxScanner {
    struct Failure: Equatable {
        var line: Int
        var column: Int
        var message: String
    }

    /// `JSONDecoder`'s own limit, so that what it refuses for depth is reported here.
    static let maximumDepth = 512

    private enum Expect {
        case value, arrayFirst, objectFirst, key, colon, afterValue
    }

    /// The first syntax error in `bytes`, or nil when they hold one valid JSON value.
    static func firstError(in bytes: [UInt8]) -> Failure? {
        var scanner = JSONSyntaxScanner(bytes: bytes)
        guard let (offset, message) = scanner.scan() else { return nil }
        let (line, column) = position(of: offset, in: bytes)
        return Failure(line: line, column: column, message: message)
    }

    /// The 1-based line and column (in Unicode scalars) of a byte offset.
    static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < offset && index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        return (line, column)
    }

    private let bytes: [UInt8]
    private var index: Int

    private init(bytes: [UInt8]) {
        self.bytes = bytes
        self.index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }

    // Iterative, so that deeply nested input cannot overflow the stack.
    private mutating func scan() -> (Int, String)? {
        var stack: [UInt8] = []
        var expect = Expect.value
        while true {
            skipWhitespace()
            if expect == .afterValue && stack.isEmpty {
                return index < bytes.count ? (index, "unexpected \(found()) after the JSON value") : nil
            }
            guard index < bytes.count else { return (index, "unexpected end of data") }
            let byte = bytes[index]
            switch expect {
            case .value, .arrayFirst:
                if expect == .arrayFirst && byte == UInt8(ascii: "]") {
                    stack.removeLast()
                    index += 1
                    expect = .afterValue
                    continue
                }
                if (byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[")) && stack.count == Self.maximumDepth {
                    return (index, "nested more than \(Self.maximumDepth) levels deep")
                }
                switch byte {
                case UInt8(ascii: "{"):
                    stack.append(byte)
                    index += 1
                    expect = .objectFirst
                case UInt8(ascii: "["):
                    stack.append(byte)
                    index += 1
                    expect = .arrayFirst
                case UInt8(ascii: "\""):
                    if let failure = scanString() { return failure }
                    expect = .afterValue
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    if let failure = scanNumber() { return failure }
                    expect = .afterValue
                case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                    if let failure = scanLiteral() { return failure }
                    expect = .afterValue
                default:
                    return (index, "expected a value, found \(found())")
                }
            case .objectFirst, .key:
                if expect == .objectFirst && byte == UInt8(ascii: "}") {
                    stack.removeLast()
                    index += 1
                    expect = .afterValue
                    continue
                }
                guard byte == UInt8(ascii: "\"") else {
                    return (index, "expected a string key, found \(found())")
                }
                if let failure = scanString() { return failure }
                expect = .colon
            case .colon:
                guard byte == UInt8(ascii: ":") else {
                    return (index, "expected ':' after an object key, found \(found())")
                }
                index += 1
                expect = .value
            case .afterValue:
                let inObject = stack.last == UInt8(ascii: "{")
                let close = inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if byte == UInt8(ascii: ",") {
                    index += 1
                    expect = inObject ? .key : .value
                } else if byte == close {
                    stack.removeLast()
                    index += 1
                } else {
                    let wanted = inObject ? "',' or '}' after an object member" : "',' or ']' after an array element"
                    return (index, "expected \(wanted), found \(found())")
                }
            }
        }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func scanString() -> (Int, String)? {
        let start = index
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return nil
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count else { return (index + 1, "unterminated string") }
                let escaped = bytes[index + 1]
                if escaped == UInt8(ascii: "u") {
                    let digits = bytes[min(index + 2, bytes.count)..<min(index + 6, bytes.count)]
                    guard digits.count == 4, digits.allSatisfy({ FormEncoding.hexValue($0) != nil }) else {
                        return (index, "invalid \\u escape in a string")
                    }
                    index += 6
                } else if Array("\"\\/bfnrt".utf8).contains(escaped) {
                    index += 2
                } else {
                    return (index, "invalid escape '\\\(Character(Unicode.Scalar(escaped)))' in a string")
                }
            case 0x00..<0x20:
                return (index, byte == 0x0A ? "unterminated string (a line break inside a string)" : "unescaped control character in a string")
            default:
                index += 1
            }
        }
        return (start, "unterminated string")
    }

    private mutating func scanNumber() -> (Int, String)? {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        let integerDigits = digits()
        guard integerDigits > 0 else { return (start, "invalid number") }
        if integerDigits > 1 && bytes[integerStart] == UInt8(ascii: "0") {
            return (start, "invalid number: a leading zero")
        }
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return (start, "invalid number: digits expected after '.'") }
        }
        if index < bytes.count && (bytes[index] | 0x20) == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) { index += 1 }
            guard digits() > 0 else { return (start, "invalid number: digits expected in the exponent") }
        }
        return nil
    }

    private mutating func digits() -> Int {
        let start = index
        while index < bytes.count && bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9") { index += 1 }
        return index - start
    }

    private mutating func scanLiteral() -> (Int, String)? {
        for literal in ["true", "false", "null"] {
            let utf8 = Array(literal.utf8)
            if bytes[index...].starts(with: utf8) {
                index += utf8.count
                return nil
            }
        }
        return (index, "expected a value, found \(found())")
    }

    private func found() -> String {
        guard index < bytes.count else { return "the end of the data" }
        let byte = bytes[index]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte >= 0x80 { return "a non-ASCII character" }
        return byte == 0x20 ? "a space" : "control character U+00" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
    }
}
