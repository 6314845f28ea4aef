import Testing

@testable import TracksnapJSON

@Suite("JSONPointer escapes and splits reference tokens")
struct JSONPointerTests {
    @Test(
        "escapes ~ and / in keys",
        arguments: [
            ("", "a", "/a"),
            ("/x", "a/b", "/x/a~1b"),
            ("/x", "m~n", "/x/m~0n"),
            ("", "~1", "/~01"),
            ("", "", "/"),
            // A combining accent after `~` or `/` makes one Character; the scalar must still be escaped.
            ("", "~\u{301}", "/~0\u{301}"),
            ("", "/\u{301}", "/~1\u{301}"),
        ])
    func appendsKeys(pointer: String, key: String, expected: String) {
        #expect(Array(JSONPointer.appending(pointer, key).unicodeScalars) == Array(expected.unicodeScalars))
    }

    @Test("appends array indices")
    func appendsIndices() {
        #expect(JSONPointer.appending("/events", 12) == "/events/12")
    }

    @Test(
        "splits a pointer back into the keys it was built from",
        arguments: [
            [], ["a"], ["a/b", "m~n", "0"], [""], ["", ""], ["~01", "/~"], ["\u{301}x", "~\u{301}", "/\u{301}"],
        ])
    func tokensRoundTrip(keys: [String]) {
        let pointer = keys.reduce("") { JSONPointer.appending($0, $1) }
        let tokens = JSONPointer.tokens(pointer)
        #expect(tokens.map { Array($0.unicodeScalars) } == keys.map { Array($0.unicodeScalars) })
    }
}
