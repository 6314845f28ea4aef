import Testing

@testable import TracksnapJSON

@Suite("JSONDocument locates every value and key")
struct JSONDocumentLocationTests {
    private static let document = Result { () throws -> JSONDocument in
        try JSONDocument.parse(try fixture("located.json"), file: "located.json")
    }

    // Line 4 holds `é` (2 bytes), `✓` (3 bytes) and `😀` (4 bytes) before `12.50`: columns count scalars.
    // Line 10 is indented with tabs, each one column.
    @Test(
        "a value's location is its first character",
        arguments: [
            ("", 1, 1),
            ("/name", 2, 11),
            ("/events", 3, 13),
            ("/events/0", 4, 5),
            ("/events/0/vendor", 4, 17),
            ("/events/0/name", 4, 36),
            ("/events/0/revenue", 4, 60),
            ("/events/1", 5, 5),
            ("/events/1/a~1b", 6, 14),
            ("/events/1/a~1b/0", 6, 15),
            ("/events/1/a~1b/1", 6, 21),
            ("/events/1/m~0n", 7, 14),
            ("/events/1/m~0n/deep", 7, 24),
            ("/tab", 10, 9),
            ("/empty", 11, 12),
        ])
    func valueLocation(pointer: String, line: Int, column: Int) throws {
        let document = try Self.document.get()
        #expect(document.locations[pointer] == SourceLocation(line: line, column: column))
    }

    @Test(
        "a member's key location is its opening quote",
        arguments: [
            ("/name", 2, 3),
            ("/events", 3, 3),
            ("/events/0/vendor", 4, 7),
            ("/events/0/name", 4, 28),
            ("/events/0/revenue", 4, 49),
            ("/events/1/a~1b", 6, 7),
            ("/events/1/m~0n", 7, 7),
            ("/events/1/m~0n/deep", 7, 16),
            ("/tab", 10, 2),
            ("/empty", 11, 3),
        ])
    func keyLocation(pointer: String, line: Int, column: Int) throws {
        let document = try Self.document.get()
        #expect(document.keyLocations[pointer] == SourceLocation(line: line, column: column))
    }

    @Test("records exactly one location per value and one per key")
    func recordsEveryValue() throws {
        let document = try Self.document.get()
        #expect(Set(document.locations.keys) == Set(allPointers(of: document.value)))
        #expect(
            Set(document.keyLocations.keys)
                == Set(allPointers(of: document.value).filter { isMember($0, in: document.value) }))
        #expect(document.value["events"]?.arrayValue?.first?["revenue"] == .number("12.50"))
        #expect(document.value["events"]?.arrayValue?.last?["m~n"]?["deep"] == .number("-0"))
        #expect(document.duplicateKeys.isEmpty)
    }

    @Test("counts lines ending in LF, CRLF or a lone CR", arguments: ["\n", "\r\n", "\r"])
    func lineEndings(newline: String) throws {
        let text = ["{", #"  "a": 1,"#, #"  "b": [true]"#, "}"].joined(separator: newline)
        let document = try JSONDocument.parse(Array(text.utf8), file: "t.json")
        #expect(document.locations["/a"] == SourceLocation(line: 2, column: 8))
        #expect(document.locations["/b/0"] == SourceLocation(line: 3, column: 9))
        #expect(document.keyLocations["/b"] == SourceLocation(line: 3, column: 3))
    }

    @Test("locates values on a long single line")
    func longLine() throws {
        let items = (0..<2_000).map { #"{"é✓": \#($0)}"# }
        let document = try JSONDocument.parse(Array(("[" + items.joined(separator: ",") + "]").utf8), file: "t.json")
        // `{"é✓": N},` before item i: every item before it adds its own length plus a comma.
        let column = 2 + items[..<1_500].reduce(0) { $0 + $1.unicodeScalars.count + 1 }
        #expect(document.locations["/1500"] == SourceLocation(line: 1, column: column))
        #expect(document.locations["/1500/é✓"] == SourceLocation(line: 1, column: column + 7))
        #expect(document.keyLocations["/1500/é✓"] == SourceLocation(line: 1, column: column + 1))
    }
}

/// Every JSON Pointer in a value, the root included.
func allPointers(of value: JSONValue, at pointer: String = "") -> [String] {
    var pointers = [pointer]
    switch value {
    case .array(let items):
        for (index, item) in items.enumerated() {
            pointers += allPointers(of: item, at: JSONPointer.appending(pointer, index))
        }
    case .object(let members):
        for (key, member) in members {
            pointers += allPointers(of: member, at: JSONPointer.appending(pointer, key))
        }
    default:
        break
    }
    return pointers
}

/// The value a JSON Pointer names, or nil.
func resolve(_ pointer: String, in value: JSONValue) -> JSONValue? {
    var current = value
    for token in JSONPointer.tokens(pointer) {
        switch current {
        case .object(let members):
            guard let member = members[token] else { return nil }
            current = member
        case .array(let items):
            guard let index = Int(token), items.indices.contains(index) else { return nil }
            current = items[index]
        default:
            return nil
        }
    }
    return current
}

/// Whether the pointer names an object member (rather than the root or an array element).
func isMember(_ pointer: String, in value: JSONValue) -> Bool {
    guard !pointer.isEmpty else { return false }
    var tokens = JSONPointer.tokens(pointer)
    tokens.removeLast()
    let parent = tokens.reduce("") { JSONPointer.appending($0, $1) }
    return resolve(parent, in: value)?.objectValue != nil
}
