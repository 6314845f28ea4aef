import Testing

@testable import TracksnapTraffic

@Suite("NearestNames finds what a typo meant")
struct NearestNamesTests {
    static let subcommands = ["validate", "lint", "serve", "ca", "record", "accept", "reject", "review", "help"]

    @Test(
        "a typo finds the names one or two edits away, a swap of neighbours counting as one",
        arguments: [
            ("valdate", subcommands, ["validate"]),
            ("lnt", subcommands, ["lint"]),
            ("recrod", subcommands, ["record"]),
            ("REVEIW", subcommands, ["review"]),
            ("segmnet", ["default", "segment", "snowplow"], ["segment"]),
            ("analytcs", ["all", "analytics"], ["analytics"]),
            ("al", ["all", "analytics"], ["all"]),
            ("ga44", ["ga4", "ga5"], ["ga4"]),
            ("ga", ["ga4", "ga5", "segment"], ["ga4", "ga5"]),
        ])
    func near(word: String, names: [String], expected: [String]) {
        #expect(NearestNames.to(word, among: names) == expected)
    }

    @Test(
        "a word of another meaning, or a valid one, finds nothing",
        arguments: [
            ("frobnicate", subcommands), ("collector", ["all", "analytics"]), ("api", ["all", "analytics"]),
            ("validate", subcommands), ("", ["all"]),
        ])
    func far(word: String, names: [String]) {
        #expect(NearestNames.to(word, among: names).isEmpty)
        #expect(NearestNames.didYouMean(word, among: names) == nil)
    }

    @Test("the question names one, two or more names")
    func question() {
        #expect(NearestNames.didYouMean("segmnet", among: ["segment"]) == "did you mean segment?")
        #expect(NearestNames.didYouMean("ga", among: ["ga4", "ga5"]) == "did you mean ga4 or ga5?")
        #expect(NearestNames.didYouMean("ga", among: ["ga4", "ga5", "ga6"]) == "did you mean ga4, ga5 or ga6?")
    }

    @Test("the distance counts insertions, deletions, substitutions and swaps")
    func distance() {
        func distance(_ a: String, _ b: String) -> Int { NearestNames.editDistance(Array(a), Array(b)) }
        #expect(distance("kitten", "sitting") == 3)
        #expect(distance("ab", "ba") == 1)
        #expect(distance("", "abc") == 3)
        #expect(distance("abc", "") == 3)
        #expect(distance("ca", "abc") == 3)
    }
}
