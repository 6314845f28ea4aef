import Foundation
import Patterns
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

/// The shape of a captured value that changes on every run — an id, a timestamp, a token, a
/// local server's address — and the matcher a recorded snapshot writes in its place.
///
/// ```swift
/// let shape = VolatileShape.of(.string("0b7f2c1e-8a8d-4c1e-9a43-5e0d6b1f2a3c"), capturedAt: Date())
/// shape?.name     // "uuid"
/// shape?.matcher  // {"$regex": "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"}
/// ```
/// Ordinary data never has one of these shapes: words, event names, prices, quantities, short
/// ids, currency codes, booleans, URLs of remote pages.
struct VolatileShape: Sendable, Hashable {
    /// What the value is, as `tracksnap record` lists it (`uuid`, `epoch-ms`…).
    var name: String
    /// The narrowest matcher describing the shape, which accepts the value itself.
    var matcher: JSONValue
    /// Made from the clock or a fresh random draw on every run (UUIDs, timestamps, epoch times,
    /// client ids, a local server's port): recorded as a matcher even when several runs agree,
    /// since agreeing runs prove nothing about tomorrow's. Tokens and long numeric ids may be
    /// configured data, so runs that agree on one keep it literal.
    var isAlwaysVolatile: Bool

    /// How far an epoch time may be from the capture time and still count as one.
    static let epochWindow: TimeInterval = 5 * 365 * 24 * 3600
    /// The shortest hex token: shorter hex strings are ordinary ids and codes.
    static let shortestHexToken = 16
    /// The shortest base64 token.
    static let shortestBase64Token = 20
    /// The fewest digits of a random numeric id.
    static let shortestNumericID = 9

    /// The shape of a value, if it is volatile.
    ///
    /// - Parameters:
    ///   - value: a captured scalar (objects, arrays, booleans and null have no volatile shape).
    ///   - time: when it was captured; epoch times count only near it.
    ///   - serverOrigin: the capture server's own origin (`CapturedRequest.serverOrigin`).
    static func of(_ value: JSONValue, capturedAt time: Date, serverOrigin: String? = nil) -> VolatileShape? {
        switch value {
        case .string(let text):
            return ofString(text, capturedAt: time, serverOrigin: serverOrigin)
        case .number(let text):
            if let epoch = epoch(text, capturedAt: time) { return epoch }
            if isNumericID(text) {
                return VolatileShape(name: "random-id", matcher: ["$type": "integer"], isAlwaysVolatile: false)
            }
            return nil
        default:
            return nil
        }
    }

    private static func ofString(_ text: String, capturedAt time: Date, serverOrigin: String?) -> VolatileShape? {
        if let origin = LocalOrigin(text, serverOrigin: serverOrigin) {
            return VolatileShape(
                name: "local-origin", matcher: .string(origin.pattern + PatternEscaping.escape(origin.rest)).asRegex,
                isAlwaysVolatile: true)
        }
        if let uuid = uuid(text) { return uuid }
        if let timestamp = timestamp(text) { return timestamp }
        if let epoch = epoch(text, capturedAt: time) { return epoch }
        if let clientID = clientID(text, capturedAt: time) { return clientID }
        if isNumericID(text) {
            return VolatileShape(name: "random-id", matcher: ["$regex": "[0-9]+"], isAlwaysVolatile: false)
        }
        if let hex = hexToken(text) { return hex }
        if let base64 = base64Token(text) { return base64 }
        return embedded(text, capturedAt: time)
    }

    /// Volatile parts inside literal text: `ajs-next-1732176000120-4f2c9a1e-…` (analytics.js's
    /// message id: a prefix, the clock and a UUID), `evt_4f2c9a1e6b7d8e9f0a1b`. UUIDs, epoch
    /// times and hex tokens between separators become their patterns, the rest stays literal.
    private static func embedded(_ text: String, capturedAt time: Date) -> VolatileShape? {
        let characters = Array(text)
        // JSON text has its own pattern (`inJSONText`), which keeps its structure.
        guard characters.count <= 256,
            characters.first(where: { !$0.isWhitespace }).map({ $0 != "{" && $0 != "[" }) ?? false
        else { return nil }
        func isWord(_ index: Int) -> Bool {
            index < characters.count && characters[index].isASCII
                && (characters[index].isLetter || characters[index].isNumber)
        }
        var pattern = ""
        var literal = ""
        var names: [String] = []
        var alwaysVolatile = true
        var index = 0
        while index < characters.count {
            guard isWord(index) else {
                literal.append(characters[index])
                index += 1
                continue
            }
            // A UUID spans its hyphens; any other part is a run of letters and digits.
            let uuidEnd = index + 36
            let candidate = uuidEnd <= characters.count && !isWord(uuidEnd) ? String(characters[index..<uuidEnd]) : ""
            var end = index
            while isWord(end) { end += 1 }
            let shape: VolatileShape?
            if let found = uuid(candidate) {
                shape = found
                end = uuidEnd
            } else {
                let token = String(characters[index..<end])
                shape = epoch(token, capturedAt: time) ?? hexToken(token)
            }
            if let shape, let source = shape.matcher["$regex"]?.stringValue {
                pattern += PatternEscaping.escape(literal) + source
                literal = ""
                names.append(shape.name)
                alwaysVolatile = alwaysVolatile && shape.isAlwaysVolatile
            } else {
                literal += String(characters[index..<end])
            }
            index = end
        }
        guard !names.isEmpty else { return nil }
        return VolatileShape(
            name: names.joined(separator: "+"), matcher: .string(pattern + PatternEscaping.escape(literal)).asRegex,
            isAlwaysVolatile: alwaysVolatile)
    }

    /// JSON carried as text (a form field, a query parameter) with its volatile values as
    /// patterns and the rest escaped: `{"time":[0-9]{10}(\.[0-9]+)?,"event":"Signed Up"}`.
    ///
    /// The same client writes the same JSON text every run, keys in the same order, so the
    /// pattern follows the text exactly; only the values made from the clock or drawn at
    /// random (and, with `allShapes`, tokens and long ids) are let free.
    /// - Parameters:
    ///   - text: the string, used only when it is a JSON object or array.
    ///   - time: when it was captured.
    ///   - allShapes: every volatile shape, as from a single run; else only those always volatile.
    ///   - environment: keys whose values describe the machine (`$os`, `mp_lib`): any value is let free.
    /// - Returns: the pattern's source and the shapes found in it, or nil when it has none.
    static func inJSONText(_ text: String, capturedAt time: Date, allShapes: Bool, environment: Set<String> = []) -> (
        pattern: String, shapes: [String]
    )? {
        guard let first = text.first(where: { !$0.isWhitespace }), first == "{" || first == "[",
            text.utf8.count <= 1 << 16,
            (try? JSONDocument.parse(Array(text.utf8), file: "text", trackLocations: false)) != nil
        else { return nil }
        var pattern = ""
        var shapes: [String] = []
        let (text, freed) = markingEnvironment(in: text, keys: environment)
        if freed > 0 { shapes.append("environment") }
        var literal = ""
        var token = ""
        func flush() {
            defer { token = "" }
            // Punctuation at either end belongs to the JSON around it (`:1795250833.5,`).
            let punctuation: Set<Character> = [":", ".", "+", "-", "_"]
            let core = token.drop { punctuation.contains($0) }
            let trailing = core.reversed().prefix { punctuation.contains($0) }.count
            let value = String(core.dropLast(trailing))
            literal += token.prefix(token.count - core.count)
            // Tokens of text, not whole values: base64 is left out, a word would pass for one too easily.
            if !value.isEmpty, let shape = ofString(value, capturedAt: time, serverOrigin: nil), shape.name != "base64",
                allShapes || shape.isAlwaysVolatile, let source = shape.matcher["$regex"]?.stringValue
            {
                pattern += PatternEscaping.escape(literal) + source
                literal = ""
                shapes.append(shape.name)
            } else {
                literal += value
            }
            literal += core.suffix(trailing)
        }
        for character in text {
            if character.isASCII, character.isLetter || character.isNumber || "-_.:+".contains(character) {
                token.append(character)
            } else {
                flush()
                literal.append(character)
            }
        }
        flush()
        guard !shapes.isEmpty else { return nil }
        let source = (pattern + PatternEscaping.escape(literal)).replacingOccurrences(
            of: PatternEscaping.escape(environmentHole), with: #"("([^"\\]|\\.)*"|[^,}\]]*)"#)
        return (source, shapes)
    }

    /// Where an environment value was cut out of JSON text: private-use characters no capture holds.
    private static let environmentHole = "\u{E002}environment\u{E003}"

    /// The JSON text with the value of each member named by `keys` replaced by `environmentHole`,
    /// and how many were replaced. A small scan of the text itself, since the pattern follows the
    /// text as written: `"KEY"`, spaces, `:`, spaces, then a string or a scalar.
    private static func markingEnvironment(in text: String, keys: Set<String>) -> (String, Int) {
        guard !keys.isEmpty else { return (text, 0) }
        let characters = Array(text)
        var out = ""
        var freed = 0
        var index = 0
        /// The end of the JSON string starting at `start` (a quote), past its closing quote.
        func stringEnd(_ start: Int) -> Int {
            var position = start + 1
            while position < characters.count, characters[position] != "\"" {
                position += characters[position] == "\\" ? 2 : 1
            }
            return min(position + 1, characters.count)
        }
        while index < characters.count {
            guard characters[index] == "\"" else {
                out.append(characters[index])
                index += 1
                continue
            }
            let end = stringEnd(index)
            let key = String(characters[(index + 1)..<max(index + 1, end - 1)])
            out += String(characters[index..<end])
            index = end
            guard keys.contains(key) else { continue }
            var value = index
            while value < characters.count, characters[value].isWhitespace { value += 1 }
            guard value < characters.count, characters[value] == ":" else { continue }
            value += 1
            while value < characters.count, characters[value].isWhitespace { value += 1 }
            guard value < characters.count, characters[value] != "{", characters[value] != "[" else { continue }
            var valueEnd = value
            if characters[value] == "\"" {
                valueEnd = stringEnd(value)
            } else {
                while valueEnd < characters.count, !",}]".contains(characters[valueEnd]) { valueEnd += 1 }
            }
            out += String(characters[index..<value]) + environmentHole
            index = valueEnd
            freed += 1
        }
        return (out, freed)
    }

    // MARK: Shapes

    private static func uuid(_ text: String) -> VolatileShape? {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return nil }
        var lower = false
        var upper = false
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): break
            case UInt8(ascii: "a")...UInt8(ascii: "f"): lower = true
            case UInt8(ascii: "A")...UInt8(ascii: "F"): upper = true
            default: return nil
            }
        }
        let digit = lower && upper ? "[0-9a-fA-F]" : upper ? "[0-9A-F]" : "[0-9a-f]"
        let pattern = [8, 4, 4, 4, 12].map { "\(digit){\($0)}" }.joined(separator: "-")
        return VolatileShape(name: "uuid", matcher: .string(pattern).asRegex, isAlwaysVolatile: true)
    }

    /// ISO 8601 / RFC 3339 date and time: `2026-11-22T19:00:00.123Z`, `2026-11-22 19:00:00+01:00`.
    /// A date alone is data (a birthday, a booking), not a timestamp.
    private static let timestampPattern = try? Pattern(
        #"[0-9]{4}-[0-9]{2}-[0-9]{2}([T ])[0-9]{2}:[0-9]{2}(:[0-9]{2}([.,][0-9]+)?)?(Z|[+-][0-9]{2}:?[0-9]{2})?"#)

    private static func timestamp(_ text: String) -> VolatileShape? {
        guard text.utf8.count >= 16, text.utf8.count <= 40, let recogniser = timestampPattern,
            (try? recogniser.matches(text)) == true
        else { return nil }
        let bytes = Array(text.utf8)
        let separator = bytes[10] == UInt8(ascii: "T") ? "T" : " "
        let hasSeconds = bytes.count > 16 && bytes[16] == UInt8(ascii: ":")
        let last = bytes[bytes.count - 1]
        let hasZone =
            last == UInt8(ascii: "Z")
            || (bytes.count > 19 && bytes[16...].contains { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") })
        // Fractions come and go (Python leaves them out at 0 µs), offsets differ between machines.
        let pattern =
            "[0-9]{4}-[0-9]{2}-[0-9]{2}\(separator)[0-9]{2}:[0-9]{2}"
            + (hasSeconds ? ":[0-9]{2}([.,][0-9]+)?" : "")
            + (hasZone ? "(Z|[+-][0-9]{2}:?[0-9]{2})" : "")
        return VolatileShape(name: "timestamp", matcher: .string(pattern).asRegex, isAlwaysVolatile: true)
    }

    /// Seconds (10 digits), milliseconds (13) or microseconds (16) since 1970 near the capture
    /// time, with or without a fraction.
    private static func epoch(_ text: String, capturedAt time: Date) -> VolatileShape? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, whole.utf8.allSatisfy(isDigit),
            parts.count == 1 || (parts[1].utf8.count > 0 && parts[1].utf8.allSatisfy(isDigit)),
            let number = Double(whole)
        else { return nil }
        let units: [(digits: Int, perSecond: Double, name: String)] = [
            (10, 1, "epoch-s"), (13, 1e3, "epoch-ms"), (16, 1e6, "epoch-us"),
        ]
        guard let unit = units.first(where: { $0.digits == whole.utf8.count }),
            abs(number / unit.perSecond - time.timeIntervalSince1970) <= epochWindow
        else { return nil }
        let pattern = "[0-9]{\(unit.digits)}" + (parts.count == 2 ? "(\\.[0-9]+)?" : "")
        return VolatileShape(name: unit.name, matcher: .string(pattern).asRegex, isAlwaysVolatile: true)
    }

    /// A Google Analytics client id: a random number, a dot, the epoch seconds of the first visit.
    private static func clientID(_ text: String, capturedAt time: Date) -> VolatileShape? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, (5...10).contains(parts[0].utf8.count), parts[0].utf8.allSatisfy(isDigit),
            epoch(String(parts[1]), capturedAt: time)?.name == "epoch-s"
        else { return nil }
        return VolatileShape(name: "client-id", matcher: ["$regex": "[0-9]+\\.[0-9]{10}"], isAlwaysVolatile: true)
    }

    /// Nine digits or more that do not look chosen by a person (`100000000`, `999999999`).
    private static func isNumericID(_ text: String) -> Bool {
        let digits = text.utf8
        guard digits.count >= shortestNumericID, digits.allSatisfy(isDigit) else { return false }
        return !text.hasSuffix("000") && Set(digits).count > 2
    }

    /// Sixteen hex digits or more, letters and digits mixed, in one case.
    private static func hexToken(_ text: String) -> VolatileShape? {
        let bytes = Array(text.utf8)
        guard bytes.count >= shortestHexToken else { return nil }
        var lower = false
        var upper = false
        var digit = false
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = true
            case UInt8(ascii: "a")...UInt8(ascii: "f"): lower = true
            case UInt8(ascii: "A")...UInt8(ascii: "F"): upper = true
            default: return nil
            }
        }
        guard digit, lower != upper else { return nil }
        return VolatileShape(
            name: "hex", matcher: .string("\(upper ? "[0-9A-F]" : "[0-9a-f]"){\(bytes.count)}").asRegex,
            isAlwaysVolatile: false)
    }

    /// Twenty characters or more of base64 or base64url, upper and lower case mixed with digits
    /// or symbols, switching character class as often as random text does (a camel-case name
    /// such as `ProductListViewedFromHomeScreen2` switches about half as often).
    private static func base64Token(_ text: String) -> VolatileShape? {
        var bytes = Array(text.utf8)
        var padding = 0
        while bytes.last == UInt8(ascii: "=") && padding < 2 {
            bytes.removeLast()
            padding += 1
        }
        guard bytes.count >= shortestBase64Token, bytes.first != UInt8(ascii: "/") else { return nil }
        enum Class { case upper, lower, digit, symbol }
        var classes: [Class] = []
        var standard = false
        var urlSafe = false
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): classes.append(.upper)
            case UInt8(ascii: "a")...UInt8(ascii: "z"): classes.append(.lower)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): classes.append(.digit)
            case UInt8(ascii: "+"), UInt8(ascii: "/"):
                standard = true
                classes.append(.symbol)
            case UInt8(ascii: "-"), UInt8(ascii: "_"):
                urlSafe = true
                classes.append(.symbol)
            default: return nil
            }
        }
        guard !(standard && urlSafe), !(urlSafe && padding > 0), classes.contains(.upper), classes.contains(.lower),
            classes.contains(.digit) || classes.contains(.symbol)
        else { return nil }
        let switches = zip(classes, classes.dropFirst()).filter { $0 != $1 }.count
        guard Double(switches) >= 0.45 * Double(classes.count - 1), !encodesText(text) else { return nil }
        // Without a symbol, the token may come from either alphabet.
        let alphabet = urlSafe ? "[A-Za-z0-9_-]" : standard ? "[A-Za-z0-9+/]" : "[A-Za-z0-9+/_-]"
        let pattern = "\(alphabet){\(bytes.count)}" + (padding > 0 ? "={\(padding)}" : "")
        return VolatileShape(name: "base64", matcher: .string(pattern).asRegex, isAlwaysVolatile: false)
    }

    /// Whether base64 text decodes to text (JSON, a query): a payload whose changes matter,
    /// not a token. Random bytes are printable about a third of the time.
    private static func encodesText(_ text: String) -> Bool {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.utf8.count % 4 != 0 { standard += "=" }
        guard let bytes = Data(base64Encoded: standard), !bytes.isEmpty else { return false }
        let printable = bytes.filter { (0x20...0x7E).contains($0) || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }.count
        return Double(printable) >= 0.9 * Double(bytes.count)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}

/// The origin of a local server at the start of a URL: the capture server's own
/// (`CapturedRequest.serverOrigin`), or any loopback host with a port, since a server a test
/// starts listens on a fresh port every run.
///
/// ```swift
/// LocalOrigin("http://127.0.0.1:41589/v1/batch", serverOrigin: nil)?.pattern
/// // http://(127\.[0-9]+\.[0-9]+\.[0-9]+|localhost|\[::1\]):[0-9]+
/// ```
struct LocalOrigin {
    /// A pattern accepting this scheme with any loopback host (and the server's own host) and any port.
    let pattern: String
    /// What follows the origin (`/v1/batch`), as captured.
    let rest: String

    static let loopback = LocalOriginPattern.loopback

    init?(_ url: String, serverOrigin: String?) {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let scheme = url[..<schemeEnd.lowerBound]
        guard scheme == "http" || scheme == "https" else { return nil }
        let afterScheme = url[schemeEnd.upperBound...]
        let authority = afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let origin = url[..<authority.endIndex]
        guard let colon = authority.lastIndex(of: ":"),
            authority[authority.index(after: colon)...].allSatisfy(\.isASCIIDigit),
            authority.index(after: colon) < authority.endIndex
        else { return nil }
        let host = authority[..<colon]
        let isLoopback = host == "localhost" || host == "[::1]" || Self.isLoopbackIPv4(host)
        let isServer = serverOrigin.map { $0 == origin } ?? false
        guard isLoopback || isServer else { return nil }
        let hosts = isLoopback ? Self.loopback : Self.loopback + "|" + PatternEscaping.escape(String(host))
        pattern = PatternEscaping.escape(String(scheme)) + "://(" + hosts + "):[0-9]+"
        rest = String(url[authority.endIndex...])
    }

    private static func isLoopbackIPv4(_ host: Substring) -> Bool {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127"
            && parts.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCIIDigit) }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

extension JSONValue {
    /// `{"$regex": text}` for a string.
    fileprivate var asRegex: JSONValue { ["$regex": self] }
}
