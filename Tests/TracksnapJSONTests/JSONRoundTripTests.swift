import Testing
import TracksnapTestSupport

@testable import TracksnapJSON

/// Random JSON values that stress the reader: escapes, control characters, multi-byte and
/// astral scalars, combining marks, pointer characters in keys, and numbers in every JSON form.
struct RandomJSON {
    var generator: SeededGenerator

    private static let scalars: [Unicode.Scalar] = [
        "a", "Z", "0", " ", "\"", "\\", "/", "~", "\u{0}", "\u{1}", "\u{8}", "\t", "\n", "\u{C}", "\r", "\u{1F}",
        "\u{7F}", "é", "\u{301}", "✓", "\u{2028}", "\u{FEFF}", "😀", "𝄞", "\u{10FFFF}",
    ]

    mutating func value(depth: Int = 0) -> JSONValue {
        let kinds = depth >= 4 ? 4 : 6
        switch Int.random(in: 0..<kinds, using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .number(number())
        case 3: return .string(string())
        case 4: return .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in value(depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &generator) {
                members[string()] = value(depth: depth + 1)
            }
            return .object(members)
        }
    }

    mutating func string() -> String {
        var string = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...8, using: &generator) {
            string.append(Self.scalars.randomElement(using: &generator) ?? "a")
        }
        return String(string)
    }

    mutating func number() -> String {
        var text = Bool.random(using: &generator) ? "-" : ""
        text += Bool.random(using: &generator) ? "0" : String(UInt32.random(in: 1...UInt32.max, using: &generator))
        if Bool.random(using: &generator) { text += "." + digits() }
        if Bool.random(using: &generator) {
            text += ["e", "E"].randomElement(using: &generator) ?? "e"
            text += ["", "+", "-"].randomElement(using: &generator) ?? ""
            text += digits()
        }
        return text
    }

    private mutating func digits() -> String {
        String(
            (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                Character(Unicode.Scalar(UInt8.random(in: UInt8(ascii: "0")...UInt8(ascii: "9"), using: &generator)))
            })
    }
}

@Suite("JSONDocument reads back what JSONValue writes")
struct JSONRoundTripTests {
    @Test(
        "a written value reads back equal",
        arguments: [
            JSONValue.null, true, "text", .number("12.50"), .number("-0"), .number("1e6"),
            ["a/b": ["m~n": [1, "é😀", nil]], "": [:], "empty": []],
            ["control": "\u{0}\u{1F}\n\t\"\\/", "astral": "𝄞😀"],
        ])
    func roundTrip(value: JSONValue) throws {
        for pretty in [true, false] {
            let text = value.serialized(pretty: pretty)
            #expect(try JSONDocument.parse(text.utf8, file: "t").value == value)
        }
    }

    @Test("random values read back equal, each located where its text starts", arguments: 0..<200)
    func randomRoundTrip(seed: UInt64) throws {
        var random = RandomJSON(generator: SeededGenerator(seed: seed))
        let value = random.value()
        let compact = value.serialized()
        #expect(try JSONDocument.parse(compact.utf8, file: "t", trackLocations: false).value == value)

        let text = value.serialized(pretty: true)
        let document = try JSONDocument.parse(text.utf8, file: "t")
        #expect(document.value == value)
        #expect(document.duplicateKeys.isEmpty)

        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.unicodeScalars) }
        func textAt(_ location: TracksnapJSON.SourceLocation?) -> String {
            guard let location, lines.indices.contains(location.line - 1) else { return "<nowhere>" }
            return String(String.UnicodeScalarView(lines[location.line - 1].dropFirst(location.column - 1)))
        }
        let pointers = allPointers(of: value)
        #expect(document.locations.count == pointers.count)
        for pointer in pointers {
            guard let member = resolve(pointer, in: value) else {
                Issue.record("\(pointer) does not resolve")
                continue
            }
            // Containers are written over several lines, so only their first character is checked.
            let written = member.serialized(pretty: true)
            let expectedStart = member.scalarText == nil ? String(written.prefix(1)) : written
            #expect(textAt(document.locations[pointer]).hasPrefix(expectedStart), "value at \(pointer), seed \(seed)")
            if isMember(pointer, in: value), let key = JSONPointer.tokens(pointer).last {
                let keyText = JSONValue.string(key).serialized() + ": "
                #expect(textAt(document.keyLocations[pointer]).hasPrefix(keyText), "key of \(pointer), seed \(seed)")
            }
        }
    }
}
