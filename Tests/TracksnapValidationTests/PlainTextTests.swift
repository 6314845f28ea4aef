import Inflation
import Testing
import TracksnapTraffic

@testable import TracksnapValidation

@Suite("Text too plain to search is spared the search, and nothing in it could have been found")
struct PlainTextTests {
    /// Texts `Secrets.isPlain` takes: up to 11 bytes of letters, `-`, `_`, `.`, `~`, with digits
    /// below 6 bytes; drawn from a fixed seed, with the edges written out.
    static let plain: [String] = {
        var texts = [
            "screen_view", "Home", "v1", "e", "", "e30", "YT1i", "a2V5", "12345", "ABCDE", "-.", "-1.5", "~~~~~~~~~~~",
            "eyJhbGciOiJ", "AKIAABCDEFG", "AIzaSyABCDE", "JWT", "key", "token_value",
        ]
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_.~".utf8)
        let digits = Array("0123456789".utf8)
        var seed: UInt64 = 0x5EED_1234
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        for _ in 0..<20_000 {
            let length = next(12)
            let alphabet = length < 6 ? letters + digits + digits : letters
            texts.append(String(decoding: (0..<length).map { _ in alphabet[next(alphabet.count)] }, as: UTF8.self))
        }
        return texts
    }()

    @Test("every plain text is one no layer reads, no shape or secret key is found in, and no personal data")
    func nothingFound() throws {
        for text in Self.plain {
            #expect(Secrets.isPlain(text), "\(text)")
            var budget = InflationBudget(limit: Secrets.largestInflation)
            #expect(try EncodedLayers.layer(in: text, budget: &budget) == nil, "\(text)")
            #expect(Secrets.shapedCredentials(in: text).isEmpty, "\(text)")
            #expect(Secrets.valuesAfterSecretKeys(in: text).isEmpty, "\(text)")
            #expect(PersonalData.shapedHits(in: text).isEmpty, "\(text)")
        }
    }

    @Test(
        "text that could hold something is not plain: digits from 6 bytes, 12 bytes (base64), punctuation, non-ASCII",
        arguments: [
            "s-1a2b3c4d", "DE89abcdefg", "123456", "eyJ0b2tlbiI6", "a=b", "a:b", "{}", "[1]", "a@b.io", "x?y", "+1",
            "(415)", "1,2",
            "a b", "café", "%40", "a/b",
        ])
    func notPlain(text: String) {
        #expect(!Secrets.isPlain(text))
    }
}
