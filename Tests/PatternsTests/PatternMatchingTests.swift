import Testing

@testable import Patterns

@Suite("Matching")
struct PatternMatchingTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let pattern: String
        let subject: String
        let fullMatch: Bool
        let search: Bool
        var testDescription: String { "\(pattern) ~ \(subject.debugDescription)" }
    }

    @Test(
        "a pattern must match the whole subject unless .search is given",
        arguments: [
            Case(pattern: "a", subject: "a", fullMatch: true, search: true),
            Case(pattern: "a", subject: "ba", fullMatch: false, search: true),
            Case(pattern: "a", subject: "ab", fullMatch: false, search: true),
            Case(pattern: "b", subject: "abc", fullMatch: false, search: true),
            Case(pattern: "o-[0-9]+", subject: "o-42", fullMatch: true, search: true),
            Case(pattern: "o-[0-9]+", subject: "no-42x", fullMatch: false, search: true),
            Case(pattern: "o-[0-9]+", subject: "o-", fullMatch: false, search: false),
            Case(pattern: "abc", subject: "abc\n", fullMatch: false, search: true),
            Case(pattern: "abc$", subject: "abc\n", fullMatch: false, search: true),
            Case(
                pattern: #"https://api\.segment\.io/v1/(batch|track|page)"#,
                subject: "https://api.segment.io/v1/track", fullMatch: true, search: true),
            Case(
                pattern: #"https://api\.segment\.io/v1/(batch|track|page)"#,
                subject: "https://api.segment.io/v1/trackx", fullMatch: false, search: true),
            Case(
                pattern: #"https://api\.segment\.io/v1/(batch|track|page)"#,
                subject: "https://api.segment.io/v1/identify", fullMatch: false, search: false),
        ])
    func fullMatchAndSearch(_ c: Case) throws {
        #expect(try Pattern(c.pattern).matches(c.subject) == c.fullMatch)
        #expect(try Pattern(c.pattern, options: .search).matches(c.subject) == c.search)
    }

    @Test(
        "an alternation is anchored as a whole, so a later, longer branch can match",
        arguments: [
            Case(pattern: "foo|foobar", subject: "foobar", fullMatch: true, search: true),
            Case(pattern: "foo|foobar", subject: "foo", fullMatch: true, search: true),
            Case(pattern: "a|ab", subject: "ab", fullMatch: true, search: true),
            Case(pattern: "ab|a", subject: "a", fullMatch: true, search: true),
            Case(pattern: "a|b", subject: "ab", fullMatch: false, search: true),
            Case(pattern: "x|y", subject: "zy", fullMatch: false, search: true),
            Case(pattern: "(?:a|ab)(?:c|bcd)", subject: "abcd", fullMatch: true, search: true),
        ])
    func alternation(_ c: Case) throws {
        #expect(try Pattern(c.pattern).matches(c.subject) == c.fullMatch)
        #expect(try Pattern(c.pattern, options: .search).matches(c.subject) == c.search)
    }

    @Test(
        "empty patterns and empty subjects",
        arguments: [
            Case(pattern: "", subject: "", fullMatch: true, search: true),
            Case(pattern: "", subject: "a", fullMatch: false, search: true),
            Case(pattern: "a*", subject: "", fullMatch: true, search: true),
            Case(pattern: "a+", subject: "", fullMatch: false, search: false),
            Case(pattern: ".*", subject: "", fullMatch: true, search: true),
        ])
    func empty(_ c: Case) throws {
        #expect(try Pattern(c.pattern).matches(c.subject) == c.fullMatch)
        #expect(try Pattern(c.pattern, options: .search).matches(c.subject) == c.search)
    }

    @Test("matching is case-sensitive unless .caseInsensitive is given")
    func caseSensitivity() throws {
        #expect(try Pattern("checkout").matches("Checkout") == false)
        #expect(try Pattern("checkout", options: .caseInsensitive).matches("Checkout"))
        #expect(try Pattern("[a-z]+", options: .caseInsensitive).matches("ABC"))
        #expect(try Pattern("ÉTÉ", options: .caseInsensitive).matches("été"))
        #expect(try Pattern("σ+", options: .caseInsensitive).matches("ΣσΣ"))
        #expect(try Pattern("ÉTÉ").matches("été") == false)
        #expect(try Pattern("b", options: [.caseInsensitive, .search]).matches("ABC"))
        #expect(try Pattern("b", options: .caseInsensitive).matches("ABC") == false)
    }

    @Test(
        "a subject is matched by Unicode characters, not bytes",
        arguments: [
            Case(pattern: ".", subject: "é", fullMatch: true, search: true),
            Case(pattern: "..", subject: "é", fullMatch: false, search: false),
            Case(pattern: ".", subject: "😀", fullMatch: true, search: true),
            // A decomposed é is two code points: `.` takes one, `\X` takes the cluster.
            Case(pattern: ".", subject: "e\u{301}", fullMatch: false, search: true),
            Case(pattern: #"\X"#, subject: "e\u{301}", fullMatch: true, search: true),
            Case(pattern: #"\p{Han}+"#, subject: "日本語", fullMatch: true, search: true),
            Case(pattern: #"\w+"#, subject: "café", fullMatch: true, search: true),
            Case(pattern: #"\d+"#, subject: "٣٤", fullMatch: true, search: true),
            Case(pattern: "[0-9]+", subject: "٣٤", fullMatch: false, search: false),
            Case(pattern: "naïve", subject: "a naïve user", fullMatch: false, search: true),
            Case(pattern: "a\u{0}b", subject: "a\u{0}b", fullMatch: true, search: true),
        ])
    func unicode(_ c: Case) throws {
        #expect(try Pattern(c.pattern).matches(c.subject) == c.fullMatch)
        #expect(try Pattern(c.pattern, options: .search).matches(c.subject) == c.search)
    }

    @Test("a subject made from a slice or a long repetition matches like any other")
    func builtSubjects() throws {
        let url = "xx https://api.segment.io/v1/batch yy"
        let slice = url.split(separator: " ")[1]
        #expect(try Pattern(#"https://api\.segment\.io/v1/batch"#).matches(String(slice)))
        let long = String(repeating: "ab", count: 10_000)
        #expect(try Pattern("(?:ab)+").matches(long))
        #expect(try Pattern("(?:ab)+").matches(long + "a") == false)
    }

    @Test("a long subject with a nested repeat does not exhaust the JIT stack")
    func longSubject() throws {
        let subject = String(repeating: "ab", count: 50_000)
        #expect(try Pattern("(a|b)*").matches(subject))
        #expect(try Pattern(".*b", options: .search).matches(subject))
    }
}
