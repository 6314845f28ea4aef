import Testing

@testable import TracksnapJSON

/// Malformed input, where the error must point, and words its message must contain.
struct MalformedJSON: Sendable, CustomTestStringConvertible {
    let bytes: [UInt8]
    let line: Int
    let column: Int
    let says: [String]
    let testDescription: String

    init(_ text: String, _ line: Int, _ column: Int, _ says: String..., bytes: [UInt8]? = nil) {
        self.bytes = bytes ?? Array(text.utf8)
        self.line = line
        self.column = column
        self.says = says
        self.testDescription = text.debugDescription
    }
}

@Suite("JSONDocument reports malformed JSON precisely")
struct JSONParseErrorTests {
    @Test("malformed JSON is one diagnostic at the error's place; the description is that place and the message")
    func diagnostic() throws {
        let error = try #require(throws: JSONParseError.self) {
            try JSONDocument.parse(Array("[1,]".utf8), file: "a.json")
        }
        #expect(
            error.diagnostics == [
                Diagnostic(.error, file: "a.json", location: SourceLocation(line: 1, column: 3), message: error.message)
            ])
        #expect(error.description == "a.json:1:3: \(error.message)")
        #expect(error.diagnostics.map(\.description) == ["a.json:1:3: error: \(error.message)"])
    }

    static let cases: [MalformedJSON] = [
        // Empty input and trailing content
        MalformedJSON("", 1, 1, "empty input"),
        MalformedJSON(" \n\t ", 1, 1, "empty input"),
        MalformedJSON("{} x", 1, 4, "unexpected character 'x'", "after the end of the JSON value"),
        MalformedJSON("[1]\n]", 2, 1, "unexpected character ']'", "after the end"),
        MalformedJSON(#"{"a": 1} {"b": 2}"#, 1, 10, "after the end of the JSON value"),
        // Unexpected end of input
        MalformedJSON("[1, 2", 1, 6, "unexpected end of input", "'[' at line 1, column 1 is not closed"),
        MalformedJSON("{\n  \"a\": ", 2, 8, "unexpected end of input", "expected a value", "'{' at line 1, column 1"),
        MalformedJSON(#"{"a""#, 1, 5, "unexpected end of input", "expected ':'"),
        MalformedJSON("[", 1, 2, "unexpected end of input"),
        // Commas and colons
        MalformedJSON(#"{"a": 1,}"#, 1, 8, "trailing comma", "before '}'"),
        MalformedJSON("[1, 2,\n]", 1, 6, "trailing comma", "before ']'"),
        MalformedJSON("{\n  \"a\": 1,\n  \"b\": 2,\n}", 3, 9, "trailing comma"),
        MalformedJSON(#"{"a": 1 "b": 2}"#, 1, 9, "missing ','", "object members"),
        MalformedJSON("[1\n  2]", 2, 3, "missing ','", "array elements"),
        MalformedJSON(#"{"a" 1}"#, 1, 6, #"missing ':' after the key "a""#),
        MalformedJSON(#"{"a": 1; "b": 2}"#, 1, 8, "unexpected character ';'", "expected ',' or '}'"),
        MalformedJSON("[1; 2]", 1, 3, "unexpected character ';'", "expected ',' or ']'"),
        MalformedJSON("[,1]", 1, 2, "unexpected character ','", "expected a value"),
        MalformedJSON(#"{,"a": 1}"#, 1, 2, "unexpected character ','", "expected a string key"),
        // Quotes, keys and words
        MalformedJSON("{'a': 1}", 1, 2, "JSON needs double quotes"),
        MalformedJSON(#"{"a": 'b'}"#, 1, 7, "JSON needs double quotes"),
        MalformedJSON("{a: 1}", 1, 2, "object keys must be strings in double quotes"),
        MalformedJSON("[hello]", 1, 2, "unexpected word 'hello'", "double quotes"),
        MalformedJSON("[True]", 1, 2, "invalid literal 'True'", "lowercase"),
        MalformedJSON("[nulls]", 1, 2, "unexpected word 'nulls'"),
        MalformedJSON("[NaN]", 1, 2, "no NaN or Infinity"),
        MalformedJSON("{“a”: 1}", 1, 2, "unexpected character '“' (U+201C)", "typographic quotes"),
        // Comments
        MalformedJSON(#"{"a": 1 // why"# + "\n}", 1, 9, "JSON has no comments"),
        MalformedJSON("/* header */ {}", 1, 1, "JSON has no comments"),
        MalformedJSON("[1, /* two */ 2]", 1, 5, "JSON has no comments"),
        // Strings
        MalformedJSON(#""abc"#, 1, 1, "unterminated string"),
        MalformedJSON(#"["ok", "abc\"#, 1, 8, "unterminated string"),
        MalformedJSON("{\"a\": \"x\ny\"}", 1, 7, "unterminated string", "end of the line"),
        MalformedJSON("\"a\tb\"", 1, 3, "control character U+0009", #"\t"#),
        MalformedJSON("\"a\u{1}b\"", 1, 3, "control character U+0001", #"\u0001"#),
        MalformedJSON(#"["é", "\x"]"#, 1, 8, #"invalid escape '\x'"#),
        MalformedJSON(#""\'""#, 1, 2, #"invalid escape '\''"#),
        MalformedJSON(#""\u12G4""#, 1, 2, "4 hex digits"),
        MalformedJSON(#""\u12""#, 1, 2, "4 hex digits"),
        MalformedJSON(#""\uD800""#, 1, 2, #"lone surrogate '\uD800'"#),
        MalformedJSON(#""a\uD83Dx""#, 1, 3, #"lone surrogate '\uD83D'"#),
        MalformedJSON(#""\uD83D\u0041""#, 1, 2, "lone surrogate"),
        MalformedJSON(#""\uDC00""#, 1, 2, #"lone surrogate '\uDC00'"#, "low surrogate"),
        // Numbers
        MalformedJSON("01", 1, 1, "invalid number '01'", "leading zeros"),
        MalformedJSON("[-012]", 1, 2, "invalid number '-012'", "leading zeros"),
        MalformedJSON("1.", 1, 1, "invalid number '1.'", "after '.'"),
        MalformedJSON("[1.e5]", 1, 2, "invalid number '1.e5'", "after '.'"),
        MalformedJSON("-", 1, 1, "invalid number '-'", "after '-'"),
        MalformedJSON("[1, -]", 1, 5, "invalid number '-'"),
        MalformedJSON("-Infinity", 1, 1, "invalid number '-Infinity'"),
        MalformedJSON(".5", 1, 1, "invalid number '.5'", "must start with a digit"),
        MalformedJSON("+1", 1, 1, "invalid number '+1'"),
        MalformedJSON("1e", 1, 1, "invalid number '1e'", "exponent"),
        MalformedJSON("[1e+]", 1, 2, "invalid number '1e+'", "exponent"),
        MalformedJSON("1.2.3", 1, 1, "invalid number '1.2.3'"),
        MalformedJSON("0x1F", 1, 1, "invalid number '0x1F'"),
        // Invisible and non-ASCII characters
        MalformedJSON("[1,\u{A0}2]", 1, 4, "unexpected character U+00A0"),
        MalformedJSON("{\u{200B}}", 1, 2, "unexpected character U+200B"),
        MalformedJSON("[\u{0}]", 1, 2, "unexpected character U+0000"),
        MalformedJSON("[\"é\"\u{FEFF}]", 1, 5, "unexpected character U+FEFF"),
        MalformedJSON("{\"é✓😀\": @}", 1, 9, "unexpected character '@'"),
        MalformedJSON("[1]\u{1}", 1, 4, "unexpected character U+0001"),
        // Invalid UTF-8
        MalformedJSON("\"a<FF>b\"", 1, 3, "invalid UTF-8", "0xFF", bytes: [0x22, 0x61, 0xFF, 0x62, 0x22]),
        MalformedJSON(
            "{\n  \"é\": \"<C3>(\"}", 2, 9, "invalid UTF-8", "0xC3",
            bytes: Array("{\n  \"é\": \"".utf8) + [0xC3, 0x28] + Array("\"}".utf8)),
        MalformedJSON(
            "\"<ED A0 80>\" (encoded surrogate)", 1, 2, "invalid UTF-8", bytes: [0x22, 0xED, 0xA0, 0x80, 0x22]),
        MalformedJSON("\"<C0 AF>\" (overlong)", 1, 2, "invalid UTF-8", bytes: [0x22, 0xC0, 0xAF, 0x22]),
        MalformedJSON("\"<E2 9C>\" (truncated)", 1, 2, "invalid UTF-8", bytes: [0x22, 0xE2, 0x9C]),
        MalformedJSON("[<FF>]", 1, 2, "invalid UTF-8", bytes: [0x5B, 0xFF, 0x5D]),
        MalformedJSON("<UTF-16 BOM>", 1, 1, "UTF-16", bytes: [0xFF, 0xFE, 0x5B, 0x00, 0x5D, 0x00]),
    ]

    @Test("points at the problem and says what it is", arguments: cases)
    func reportsError(_ malformed: MalformedJSON) {
        for trackLocations in [true, false] {
            let error = #expect(throws: JSONParseError.self) {
                try JSONDocument.parse(malformed.bytes, file: "bad.json", trackLocations: trackLocations)
            }
            #expect(error?.file == "bad.json")
            #expect(error?.location == SourceLocation(line: malformed.line, column: malformed.column))
            for words in malformed.says {
                #expect(error?.message.contains(words) == true, "\(error?.message ?? "no error") should say \(words)")
            }
        }
    }

    @Test("describes itself as file:line:column: message")
    func describes() {
        let error = #expect(throws: JSONParseError.self) {
            try JSONDocument.parse(Array("[\n  1,\n]".utf8), file: "Snapshots/a.json")
        }
        #expect(error?.description == "Snapshots/a.json:2:4: trailing comma: remove the ',' before ']'")
    }
}
