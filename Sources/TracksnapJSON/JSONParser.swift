/// The RFC 8259 reader behind `JSONDocument.parse`.
///
/// ```swift
/// var parser = JSONParser(bytes: buffer, file: "s.json", trackLocations: true)
/// let document = try parser.parseDocument()
/// ```
/// One pass over contiguous UTF-8 with an explicit stack of open containers instead of
/// recursion, so that deep nesting fails with an error rather than overflowing the thread's stack.
/// Lines are counted as whitespace is skipped (strings cannot hold a raw line break); columns are
/// counted in scalars only when a location is needed.
struct JSONParser {
    static let maximumDepth = 512

    /// A position in the text with what is needed to turn it into a line and column later.
    private struct Mark {
        var offset: Int
        var line: Int
        var lineStart: Int
    }

    /// An array or object whose closing bracket has not been read yet.
    ///
    /// Its finished elements (and keys) wait on the parser's shared `values` (and `keys`) stacks from
    /// `valueStart` (`keyStart`) on, so that each container is built once, at its final size.
    private struct Frame {
        var isObject: Bool
        var opening: Mark
        /// The container's pointer when tracking locations, else `""`.
        var pointer: String
        var valueStart: Int
        var keyStart: Int
        /// Where each key's value waits in `values`, to notice repeated keys as they are read
        /// (tracking locations only).
        var keyIndices: [String: Int] = [:]
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let file: String
    private let trackLocations: Bool
    /// Read `[1,]` and `{"a": 1,}` as `[1]` and `{"a": 1}`, noting where (Vinyl's fixtures have them).
    private let allowsTrailingCommas: Bool
    private var trailingCommas: [SourceLocation] = []

    private var position = 0
    private var line = 1
    private var lineStart = 0
    // Locations are recorded in text order, so the column count resumes where the last one stopped
    // instead of rescanning a long (minified) line from its start each time.
    private var columnAnchorOffset = 0
    private var columnAnchorColumn = 1

    private var stack: [Frame] = []
    private var values: [JSONValue] = []
    private var keys: [String] = []
    private var scratch: [UInt8] = []
    // Collected in text order and turned into dictionaries once at the end: growing a dictionary
    // entry by entry rehashes every pointer at each doubling.
    private var locations: [(String, SourceLocation)] = []
    private var keyLocations: [(String, SourceLocation)] = []
    private var duplicateKeys: Set<String> = []

    init(bytes: UnsafeBufferPointer<UInt8>, file: String, trackLocations: Bool, allowsTrailingCommas: Bool = false) {
        self.bytes = bytes
        self.file = file
        self.trackLocations = trackLocations
        self.allowsTrailingCommas = allowsTrailingCommas
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONDocument {
        if bytes.count >= 2, (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE) {
            throw error("the file is UTF-16 encoded; JSON must be UTF-8", at: mark())
        }
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            position = 3
            lineStart = 3
            columnAnchorOffset = 3
        }
        let start = mark()
        skipWhitespace()
        if position == bytes.count {
            throw error("empty input: expected a JSON value", at: start)
        }
        let value = try parseValue()
        skipWhitespace()
        if position < bytes.count {
            throw unexpected(expected: nil, context: "after the end of the JSON value")
        }
        return JSONDocument(
            file: file,
            value: value,
            locations: Dictionary(locations, uniquingKeysWith: { _, last in last }),
            keyLocations: Dictionary(keyLocations, uniquingKeysWith: { _, last in last }),
            // Without locations, repeated keys are found as objects close, innermost first: sorting
            // makes the list the same in both modes.
            duplicateKeys: duplicateKeys.sorted(),
            trailingCommas: trailingCommas
        )
    }

    // MARK: - Values

    /// Reads one value and everything nested in it; whitespace before it is already skipped.
    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        var pointer = ""
        nextValue: while true {
            if trackLocations {
                locations.append((pointer, currentLocation()))
            }
            var value: JSONValue
            switch peek() {
            case UInt8(ascii: "{"):
                try open(isObject: true, pointer: pointer)
                skipWhitespace()
                if peek() == UInt8(ascii: "}") {
                    position += 1
                    stack.removeLast()
                    value = .object([:])
                } else {
                    pointer = try beginMember()
                    continue nextValue
                }
            case UInt8(ascii: "["):
                try open(isObject: false, pointer: pointer)
                skipWhitespace()
                if peek() == UInt8(ascii: "]") {
                    position += 1
                    stack.removeLast()
                    value = .array([])
                } else {
                    if trackLocations { pointer = JSONPointer.appending(pointer, 0) }
                    continue nextValue
                }
            case UInt8(ascii: "\""):
                value = .string(try parseString())
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = .number(try parseNumber())
            default:
                value = try parseBareWord()
            }

            // Hand the finished value to its container, closing every container that ends here.
            while let frame = stack.last {
                values.append(value)
                skipWhitespace()
                let next = peek()
                if frame.isObject {
                    if next == UInt8(ascii: ",") {
                        let comma = mark()
                        position += 1
                        skipWhitespace()
                        if peek() == UInt8(ascii: "}") {
                            guard allowsTrailingCommas else {
                                throw error("trailing comma: remove the ',' before '}'", at: comma)
                            }
                            trailingCommas.append(location(of: comma))
                            position += 1
                            value = .object(closeObject())
                            continue
                        }
                        pointer = try beginMember()
                        continue nextValue
                    }
                    if next == UInt8(ascii: "}") {
                        position += 1
                        value = .object(closeObject())
                        continue
                    }
                    if next == UInt8(ascii: "\"") {
                        throw error("missing ',' between object members", at: mark())
                    }
                    throw unexpected(expected: "',' or '}'", context: "after an object member")
                } else {
                    if next == UInt8(ascii: ",") {
                        let comma = mark()
                        position += 1
                        skipWhitespace()
                        if peek() == UInt8(ascii: "]") {
                            guard allowsTrailingCommas else {
                                throw error("trailing comma: remove the ',' before ']'", at: comma)
                            }
                            trailingCommas.append(location(of: comma))
                            position += 1
                            value = .array(closeArray())
                            continue
                        }
                        if trackLocations {
                            pointer = JSONPointer.appending(frame.pointer, values.count - frame.valueStart)
                        }
                        continue nextValue
                    }
                    if next == UInt8(ascii: "]") {
                        position += 1
                        value = .array(closeArray())
                        continue
                    }
                    if startsValue(next), position < bytes.count {
                        throw error("missing ',' between array elements", at: mark())
                    }
                    throw unexpected(expected: "',' or ']'", context: "after an array element")
                }
            }
            return value
        }
    }

    private mutating func open(isObject: Bool, pointer: String) throws(JSONParseError) {
        let opening = mark()
        if stack.count >= Self.maximumDepth {
            throw error("nesting deeper than \(Self.maximumDepth) levels", at: opening)
        }
        position += 1
        stack.append(
            Frame(
                isObject: isObject, opening: opening, pointer: pointer, valueStart: values.count, keyStart: keys.count))
    }

    private mutating func closeArray() -> [JSONValue] {
        let frame = stack.removeLast()
        let elements = Array(values[frame.valueStart...])
        values.removeSubrange(frame.valueStart...)
        return elements
    }

    private mutating func closeObject() -> [String: JSONValue] {
        let frame = stack[stack.count - 1]
        var members = [String: JSONValue](minimumCapacity: values.count - frame.valueStart)
        for (key, value) in zip(keys[frame.keyStart...], values[frame.valueStart...])
        where members.updateValue(value, forKey: key) != nil && !trackLocations {
            // Without locations, repeated keys are noticed here, saving a lookup per member.
            duplicateKeys.insert(JSONPointer.appending(pointer(depth: stack.count - 1), key))
        }
        stack.removeLast()
        values.removeSubrange(frame.valueStart...)
        keys.removeSubrange(frame.keyStart...)
        return members
    }

    /// Reads `"key":` in the innermost object and returns the member's pointer (`""` when not tracking).
    private mutating func beginMember() throws(JSONParseError) -> String {
        guard peek() == UInt8(ascii: "\"") else {
            if isWordByte(peek()) {
                throw error("object keys must be strings in double quotes", at: mark())
            }
            throw unexpected(expected: "a string key", context: "in an object")
        }
        let keyLocation = trackLocations ? currentLocation() : SourceLocation(line: 0, column: 0)
        let key = try parseString()
        skipWhitespace()
        guard peek() == UInt8(ascii: ":") else {
            if position < bytes.count {
                throw error("missing ':' after the key \(quoted(key))", at: mark())
            }
            throw unexpected(expected: "':'", context: "after an object key")
        }
        position += 1
        skipWhitespace()
        keys.append(key)
        guard trackLocations else { return "" }

        let top = stack.count - 1
        let pointer = JSONPointer.appending(stack[top].pointer, key)
        keyLocations.append((pointer, keyLocation))
        if let previous = stack[top].keyIndices.updateValue(values.count, forKey: key) {
            duplicateKeys.insert(pointer)
            if values[previous].hasChildren {
                // The earlier value's children are gone from the value, so their locations go too.
                let prefix = pointer + "/"
                locations.removeAll { $0.0.hasPrefix(prefix) }
                keyLocations.removeAll { $0.0.hasPrefix(prefix) }
            }
        }
        return pointer
    }

    /// The pointer of the container at `depth` in the stack, rebuilt from the stack: needed
    /// rarely, when not tracking locations.
    private func pointer(depth: Int) -> String {
        var pointer = ""
        for index in 0..<depth {
            let frame = stack[index]
            let valueEnd = index + 1 < stack.count ? stack[index + 1].valueStart : values.count
            let keyEnd = index + 1 < stack.count ? stack[index + 1].keyStart : keys.count
            pointer =
                frame.isObject
                ? JSONPointer.appending(pointer, keys[keyEnd - 1])
                : JSONPointer.appending(pointer, valueEnd - frame.valueStart)
        }
        return pointer
    }

    /// `true`, `false`, `null`, or an error that says what the word should have been.
    private mutating func parseBareWord() throws(JSONParseError) -> JSONValue {
        let start = mark()
        if matches("true") {
            position += 4
            return .bool(true)
        }
        if matches("false") {
            position += 5
            return .bool(false)
        }
        if matches("null") {
            position += 4
            return .null
        }
        let first = peek()
        if first == UInt8(ascii: ".") || first == UInt8(ascii: "+") {
            let text = numberLikeRun(from: position)
            throw error("invalid number '\(text)': a number must start with a digit or '-'", at: start)
        }
        guard isWordByte(first) else {
            throw unexpected(expected: "a value", context: nil)
        }
        var end = position
        while end < bytes.count, isWordByte(bytes[end]) { end += 1 }
        let word = text(position, end)
        switch word {
        case "NaN", "Infinity":
            throw error("invalid value '\(word)': JSON has no NaN or Infinity", at: start)
        case _ where ["true", "false", "null"].contains(word.lowercased()):
            throw error("invalid literal '\(word)': write it in lowercase, '\(word.lowercased())'", at: start)
        default:
            throw error(
                "unexpected word '\(word)': strings need double quotes (\(quoted(word))); the only bare words are true, false and null",
                at: start)
        }
    }

    private func matches(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - position >= count else { return false }
        let start = literal.utf8Start
        for index in 0..<count where bytes[position + index] != start[index] {
            return false
        }
        // `trueish` is a bare word, not `true` followed by garbage.
        return position + count == bytes.count || !isWordByte(bytes[position + count])
    }

    // MARK: - Numbers

    private mutating func parseNumber() throws(JSONParseError) -> String {
        let start = mark()
        var end = position
        func digit(_ index: Int) -> Bool {
            index < bytes.count && bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9")
        }
        func at(_ index: Int, _ character: Unicode.Scalar) -> Bool {
            index < bytes.count && bytes[index] == UInt8(ascii: character)
        }
        func invalid(_ reason: String) -> JSONParseError {
            error("invalid number '\(numberLikeRun(from: start.offset))': \(reason)", at: start)
        }

        if at(end, "-") { end += 1 }
        if at(end, "0") {
            end += 1
            if digit(end) { throw invalid("leading zeros are not allowed") }
        } else if digit(end) {
            while digit(end) { end += 1 }
        } else {
            throw invalid("expected a digit after '-'")
        }
        if at(end, ".") {
            end += 1
            guard digit(end) else { throw invalid("expected a digit after '.'") }
            while digit(end) { end += 1 }
        }
        if at(end, "e") || at(end, "E") {
            end += 1
            if at(end, "+") || at(end, "-") { end += 1 }
            guard digit(end) else { throw invalid("expected a digit in the exponent") }
            while digit(end) { end += 1 }
        }
        if end < bytes.count, isNumberLikeByte(bytes[end]) {
            throw invalid("unexpected '\(Character(Unicode.Scalar(bytes[end])))'")
        }
        let number = text(position, end)
        position = end
        return number
    }

    /// The number-looking text from `offset`, for messages (`1.2.3`, `0x1F`, `-Infinity`).
    private func numberLikeRun(from offset: Int) -> String {
        var end = offset
        while end < bytes.count, isNumberLikeByte(bytes[end]) {
            end += 1
        }
        return text(offset, end)
    }

    private func isNumberLikeByte(_ byte: UInt8) -> Bool {
        isWordByte(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
    }

    private func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "_")
    }

    private func startsValue(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "-"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            true
        default:
            false
        }
    }

    // MARK: - Strings

    /// Reads a string starting at its opening quote.
    private mutating func parseString() throws(JSONParseError) -> String {
        let opening = mark()
        position += 1
        let start = position
        // Most strings have no escape: validate in place and decode the slice once.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let string = text(start, position)
                position += 1
                return string
            }
            if byte == UInt8(ascii: "\\") {
                return try parseEscapedString(from: start, opening: opening)
            }
            if byte < 0x20 { throw controlCharacterError(byte, opening: opening) }
            if byte < 0x80 { position += 1 } else { try skipUTF8Scalar() }
        }
        throw error("unterminated string: missing the closing '\"'", at: opening)
    }

    private mutating func parseEscapedString(from start: Int, opening: Mark) throws(JSONParseError) -> String {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<position]))
        var runStart = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
                position += 1
                return String(decoding: scratch, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
                try parseEscape(opening: opening)
                runStart = position
                continue
            }
            if byte < 0x20 { throw controlCharacterError(byte, opening: opening) }
            if byte < 0x80 { position += 1 } else { try skipUTF8Scalar() }
        }
        throw error("unterminated string: missing the closing '\"'", at: opening)
    }

    /// Decodes the escape at `position` (a backslash) into `scratch`.
    private mutating func parseEscape(opening: Mark) throws(JSONParseError) {
        let backslash = mark()
        guard position + 1 < bytes.count else {
            throw error("unterminated string: missing the closing '\"'", at: opening)
        }
        let escaped = bytes[position + 1]
        position += 2
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(escaped)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try parseHex4(escapeStart: backslash)
            var value = UInt32(unit)
            if (0xD800...0xDBFF).contains(unit) {
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                    bytes[position + 1] == UInt8(ascii: "u")
                else {
                    throw loneSurrogateError(unit, at: backslash)
                }
                let lowMark = mark()
                position += 2
                let low = try parseHex4(escapeStart: lowMark)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw loneSurrogateError(unit, at: backslash)
                }
                value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw loneSurrogateError(unit, at: backslash)
            }
            guard let scalar = Unicode.Scalar(value) else {
                throw loneSurrogateError(unit, at: backslash)
            }
            UTF8.encode(scalar) { scratch.append($0) }
        default:
            position -= 1
            let shown =
                position < bytes.count && bytes[position] >= 0x20 && bytes[position] < 0x7F
                ? "'\\\(Character(Unicode.Scalar(escaped)))'"
                : "'\\' followed by \(visibleCharacter(at: position))"
            throw error(
                #"invalid escape \#(shown) in a string; valid escapes are \" \\ \/ \b \f \n \r \t and \uXXXX"#,
                at: backslash)
        }
    }

    /// Reads the 4 hex digits after `\u`.
    private mutating func parseHex4(escapeStart: Mark) throws(JSONParseError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard position < bytes.count, let digit = hexValue(bytes[position]) else {
                throw error(#"invalid escape: '\u' needs 4 hex digits"#, at: escapeStart)
            }
            value = value << 4 | UInt16(digit)
            position += 1
        }
        return value
    }

    private func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private func loneSurrogateError(_ unit: UInt16, at escape: Mark) -> JSONParseError {
        let hex = String(unit, radix: 16, uppercase: true)
        let kind =
            unit < 0xDC00
            ? "a high surrogate must be followed by a low one (\\uDC00-\\uDFFF)"
            : "a low surrogate must follow a high one"
        return error("lone surrogate '\\u\(hex)' in a string: \(kind)", at: escape)
    }

    private func controlCharacterError(_ byte: UInt8, opening: Mark) -> JSONParseError {
        if byte == 0x0A || byte == 0x0D {
            return error(
                #"unterminated string: missing the closing '"' before the end of the line (write a line break as \n)"#,
                at: opening)
        }
        let escape: String =
            switch byte {
            case 0x09: #"\t"#
            case 0x08: #"\b"#
            case 0x0C: #"\f"#
            default: "\\u" + hex4(UInt32(byte))
            }
        return error("control character \(codePoint(UInt32(byte))) in a string: write it as \(escape)", at: mark())
    }

    /// Checks the UTF-8 sequence at `position` (a byte ≥ 0x80) and steps over it.
    private mutating func skipUTF8Scalar() throws(JSONParseError) {
        guard let length = utf8SequenceLength(at: position) else {
            throw error(
                "invalid UTF-8: byte 0x\(String(bytes[position], radix: 16, uppercase: true)) does not start a valid sequence",
                at: mark())
        }
        position += length
    }

    /// The length of the well-formed UTF-8 sequence at `offset`, or nil (RFC 3629 table 3-7).
    private func utf8SequenceLength(at offset: Int) -> Int? {
        let lead = bytes[offset]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            high = 0x9F
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            high = 0x8F
        default: return nil
        }
        guard offset + length <= bytes.count else { return nil }
        let second = bytes[offset + 1]
        guard second >= low, second <= high else { return nil }
        for index in 2..<max(2, length) where bytes[offset + index] & 0xC0 != 0x80 {
            return nil
        }
        return length
    }

    // MARK: - Whitespace and positions

    @inline(__always)
    private func peek() -> UInt8 {
        position < bytes.count ? bytes[position] : 0
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09:
                position += 1
            case 0x0A:
                position += 1
                line += 1
                lineStart = position
            case 0x0D:
                position += 1
                // CRLF ends the line at its LF; a lone CR ends a line by itself.
                if position < bytes.count, bytes[position] == 0x0A { continue }
                line += 1
                lineStart = position
            default:
                return
            }
        }
    }

    private func mark() -> Mark {
        Mark(offset: position, line: line, lineStart: lineStart)
    }

    private mutating func currentLocation() -> SourceLocation {
        if columnAnchorOffset < lineStart || columnAnchorOffset > position {
            columnAnchorOffset = lineStart
            columnAnchorColumn = 1
        }
        columnAnchorColumn += scalarCount(from: columnAnchorOffset, to: position)
        columnAnchorOffset = position
        return SourceLocation(line: line, column: columnAnchorColumn)
    }

    /// Scalars in already validated UTF-8: every byte that is not a continuation byte starts one.
    private func scalarCount(from start: Int, to end: Int) -> Int {
        var count = 0
        var index = start
        while index < end {
            if bytes[index] & 0xC0 != 0x80 { count += 1 }
            index += 1
        }
        return count
    }

    private func text(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    // MARK: - Errors

    private func error(_ message: String, at mark: Mark) -> JSONParseError {
        JSONParseError(file: file, location: location(of: mark), message: message)
    }

    private func location(of mark: Mark) -> SourceLocation {
        SourceLocation(line: mark.line, column: 1 + scalarCount(from: mark.lineStart, to: mark.offset))
    }

    /// The error for whatever stands at `position` when `expected` should have.
    private func unexpected(expected: String?, context: String?) -> JSONParseError {
        let here = mark()
        let wanted = expected.map { "; expected \($0)" } ?? ""
        guard position < bytes.count else {
            if let frame = stack.last {
                let opening = error("", at: frame.opening).location
                let bracket = frame.isObject ? "{" : "["
                return error(
                    "unexpected end of input\(wanted): the '\(bracket)' at line \(opening.line), column \(opening.column) is not closed",
                    at: here)
            }
            return error("unexpected end of input\(wanted)", at: here)
        }
        let byte = bytes[position]
        if byte == UInt8(ascii: "/"), position + 1 < bytes.count,
            bytes[position + 1] == UInt8(ascii: "/") || bytes[position + 1] == UInt8(ascii: "*")
        {
            return error("JSON has no comments: remove the comment", at: here)
        }
        if byte == UInt8(ascii: "'") {
            return error("JSON needs double quotes: write strings and keys as \"text\", not 'text'", at: here)
        }
        if byte >= 0x80, utf8SequenceLength(at: position) == nil {
            return error(
                "invalid UTF-8: byte 0x\(String(byte, radix: 16, uppercase: true)) does not start a valid sequence",
                at: here)
        }
        var message = "unexpected character \(visibleCharacter(at: position))"
        if let context { message += " \(context)" }
        message += wanted
        if let scalar = scalar(at: position), [0x201C, 0x201D, 0x2018, 0x2019].contains(scalar.value) {
            message += " (typographic quotes are not JSON quotes: use \")"
        }
        return error(message, at: here)
    }

    private func scalar(at offset: Int) -> Unicode.Scalar? {
        guard offset < bytes.count else { return nil }
        guard bytes[offset] >= 0x80 else { return Unicode.Scalar(bytes[offset]) }
        guard let length = utf8SequenceLength(at: offset) else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<offset + length]), as: UTF8.self)
            .unicodeScalars.first
    }

    /// `'x'` for a visible character, `U+0009` for one a reader could not see.
    private func visibleCharacter(at offset: Int) -> String {
        guard let scalar = scalar(at: offset) else {
            return offset < bytes.count ? "byte 0x\(String(bytes[offset], radix: 16, uppercase: true))" : "end of input"
        }
        switch scalar.properties.generalCategory {
        case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator, .unassigned, .privateUse,
            .surrogate, .nonspacingMark, .enclosingMark:
            return codePoint(scalar.value)
        default:
            return scalar.isASCII ? "'\(Character(scalar))'" : "'\(Character(scalar))' (\(codePoint(scalar.value)))"
        }
    }

    private func codePoint(_ value: UInt32) -> String {
        "U+" + hex4(value)
    }

    private func hex4(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    private func quoted(_ string: String) -> String {
        var out = ""
        JSONValue.writeString(string, to: &out)
        return out
    }
}

extension JSONValue {
    /// Whether the value is an array or object with at least one element.
    fileprivate var hasChildren: Bool {
        switch self {
        case .array(let items): !items.isEmpty
        case .object(let members): !members.isEmpty
        default: false
        }
    }
}
