import Foundation
import Testing
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

@testable import TracksnapReports

@Suite("visible values")
struct VisibleTextTests {
    @Test(
        "characters that print as nothing are shown by code point",
        arguments: [
            ("\u{200B}", "⟨U+200B⟩"), ("\u{00A0}", "⟨U+00A0⟩"), ("\u{2009}", "⟨U+2009⟩"), ("\u{FEFF}", "⟨U+FEFF⟩"),
            ("\u{0}", "⟨U+0000⟩"), ("\u{1B}", "⟨U+001B⟩"), ("\u{7F}", "⟨U+007F⟩"), ("\u{2028}", "⟨U+2028⟩"),
            ("\u{00AD}", "⟨U+00AD⟩"), ("\u{200D}", "⟨U+200D⟩"),
        ])
    func invisible(character: String, shown: String) {
        #expect(VisibleText.value(.string("a\(character)b")) == "\"a\(shown)b\"")
        #expect(VisibleText.inline("a\(character)b") == "a\(shown)b")
    }

    @Test(
        "ordinary text, including accents and emoji, is shown as it is",
        arguments: ["Crème brûlée", "東京", "🛒 cart", "a b"])
    func visible(text: String) {
        #expect(VisibleText.value(.string(text)) == "\"\(text)\"")
    }

    @Test("objects are compact JSON with sorted keys")
    func compound() {
        #expect(VisibleText.value(["b": [1, true, nil], "a": "x "]) == #"{"a":"x·","b":[1,true,null]}"#)
    }

    @Test("a long value is cut in the middle", arguments: [61, 100, 1000])
    func shortened(length: Int) {
        let text = String(repeating: "a", count: length / 2) + String(repeating: "z", count: length - length / 2)
        let shown = VisibleText.value(.string(text))
        #expect(shown.count == VisibleText.limit)
        #expect(shown.hasPrefix("\"aaaa") && shown.hasSuffix("zzzz\""))
        #expect(shown.contains("…"))
    }

    @Test("a value of 60 characters is not cut")
    func notShortened() {
        let text = String(repeating: "a", count: 58)
        #expect(VisibleText.value(.string(text)) == "\"\(text)\"")
    }

    @Test("an escape is never split by the cut")
    func escapesWhole() {
        let shown = VisibleText.value(.string(String(repeating: "\u{200B}", count: 40)))
        #expect(shown.count <= VisibleText.limit)
        #expect(!shown.replacingOccurrences(of: "⟨U+200B⟩", with: "").contains("U+"))
    }

    @Test("two long values keep their first difference in view")
    func focus() {
        let prefix = String(repeating: "p", count: 100)
        let suffix = String(repeating: "s", count: 100)
        let shown = VisibleText.pair(.string(prefix + "EXPECTED" + suffix), .string(prefix + "ACTUAL" + suffix))
        #expect(shown.expected?.contains("EXPECTED") == true)
        #expect(shown.actual?.contains("ACTUAL") == true)
        #expect((shown.expected?.count ?? 0) <= VisibleText.limit)
        #expect((shown.actual?.count ?? 0) <= VisibleText.limit)
        #expect(shown.expected?.hasPrefix("\"ppp") == true && shown.expected?.hasSuffix("sss\"") == true)
    }
}
