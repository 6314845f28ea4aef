import Foundation
import Testing

@testable import TracksnapJSON

@Suite("JSONDocument reads every JSON value")
struct JSONDocumentValueTests {
    private func parse(_ text: String, trackLocations: Bool = true) throws(JSONParseError) -> JSONDocument {
        try JSONDocument.parse(Array(text.utf8), file: "test.json", trackLocations: trackLocations)
    }

    @Test(
        "reads each type of value",
        arguments: [
            ("null", JSONValue.null),
            ("true", .bool(true)),
            ("false", .bool(false)),
            (#""text""#, .string("text")),
            (#""""#, .string("")),
            ("[]", .array([])),
            ("{}", .object([:])),
            (#"[1, "a", null, true, [], {}]"#, .array([.number("1"), "a", .null, true, [], [:]])),
            (#"{"a": {"b": [false]}, "c": "d"}"#, .object(["a": ["b": [false]], "c": "d"])),
            (" \t\r\n [ 1 ,\n2 ] \n", .array([.number("1"), .number("2")])),
        ])
    func readsValues(text: String, expected: JSONValue) throws {
        #expect(try parse(text).value == expected)
        #expect(try parse(text, trackLocations: false).value == expected)
    }

    @Test(
        "keeps numbers as their source text",
        arguments: [
            "0", "-0", "12.50", "1e6", "1E+6", "-1.5e-3", "0.000", "123456789012345678901234567890", "2.5E-400",
        ])
    func keepsNumberText(text: String) throws {
        #expect(try parse(text).value == .number(text))
        #expect(try parse("[\(text)]").value == .array([.number(text)]))
    }

    @Test(
        "decodes escapes, unicode escapes and surrogate pairs",
        arguments: [
            (#""\u00e9\u00C9""#, "éÉ"),
            (#""\uD83D\uDE00""#, "😀"),
            (#""a\ud834\udd1eb""#, "a𝄞b"),
            (#""\u0000""#, "\u{0}"),
            (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{8}\u{C}\n\r\t"),
            (#""é\n✓ 😀""#, "é\n✓ 😀"),
            (#""plain ✓ text""#, "plain ✓ text"),
        ])
    func decodesEscapes(text: String, expected: String) throws {
        #expect(try parse(text).value == .string(expected))
    }

    @Test("skips a UTF-8 byte order mark, and counts columns after it")
    func skipsBOM() throws {
        let document = try JSONDocument.parse(try fixture("bom.json"), file: "bom.json")
        #expect(document.value == ["bom": [1, 2]])
        #expect(document.locations[""] == SourceLocation(line: 1, column: 1))
        #expect(document.locations["/bom/1"] == SourceLocation(line: 1, column: 13))
    }

    @Test("accepts any collection of bytes, contiguous or not")
    func acceptsCollections() throws {
        let text = #"{"k": ["é", 1]}"#
        let expected: JSONValue = ["k": ["é", 1]]
        #expect(try JSONDocument.parse(text.utf8, file: "t").value == expected)
        #expect(try JSONDocument.parse(Array(("xx" + text).utf8).dropFirst(2), file: "t").value == expected)
        #expect(try JSONDocument.parse(Array(text.utf8).lazy.map { $0 }, file: "t").value == expected)
    }

    @Test("keeps the last of repeated keys and lists their pointers", arguments: [true, false])
    func duplicateKeys(trackLocations: Bool) throws {
        let text =
            #"{"a": {"x": 1}, "b": 2, "a": {"y": 2}, "a": 3, "list": [{"k": 1, "k": 2}], "m/n": 1, "m/n": {"o": 1, "o": 2}}"#
        let document = try parse(text, trackLocations: trackLocations)
        #expect(document.value == ["a": 3, "b": 2, "list": [["k": 2]], "m/n": ["o": 2]])
        #expect(document.duplicateKeys == ["/a", "/list/0/k", "/m~1n", "/m~1n/o"])
        if trackLocations {
            #expect(document.locations["/a"] == SourceLocation(line: 1, column: 45))
            #expect(document.keyLocations["/a"] == SourceLocation(line: 1, column: 40))
            // The replaced values' children no longer exist, so neither do their locations.
            #expect(document.locations["/a/x"] == nil)
            #expect(document.locations["/a/y"] == nil)
            #expect(document.keyLocations["/a/y"] == nil)
        } else {
            #expect(document.locations.isEmpty)
            #expect(document.keyLocations.isEmpty)
        }
    }

    @Test("nests up to 512 levels", arguments: [1, 2, 511, 512])
    func nestsDeeply(depth: Int) throws {
        let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        var expected: JSONValue = []
        for _ in 1..<depth { expected = [expected] }
        #expect(try parse(arrays).value == expected)
        let objects = String(repeating: #"{"a":"#, count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1)
        #expect(throws: Never.self) { try parse(objects, trackLocations: false) }
    }

    @Test("rejects nesting deeper than 512 levels with an error, even very deep", arguments: [513, 100_000])
    func rejectsDeepNesting(depth: Int) {
        let text = String(repeating: #"[{"a":"#, count: depth / 2 + 1)
        let error = #expect(throws: JSONParseError.self) { try parse(text) }
        #expect(error?.message == "nesting deeper than 512 levels")
        // Each `[{"a":` is 6 columns and opens 2 levels: the 513th level is the next `[`.
        #expect(error?.location == SourceLocation(line: 1, column: 1 + 512 / 2 * 6))
    }

    @Test("skips locations entirely when not tracking")
    func noLocations() throws {
        let document = try parse(#"{"a": [1, {"b": 2}]}"#, trackLocations: false)
        #expect(document.locations.isEmpty)
        #expect(document.keyLocations.isEmpty)
        #expect(document.duplicateKeys.isEmpty)
        #expect(document.file == "test.json")
    }
}

/// The bytes of a fixture under `Fixtures/json`, next to this file.
func fixture(_ name: String, filePath: String = #filePath) throws -> [UInt8] {
    let directory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
    return [UInt8](try Data(contentsOf: directory.appendingPathComponent("Fixtures/json/\(name)")))
}
