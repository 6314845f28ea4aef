import Testing

@testable import Patterns

@Suite("Errors")
struct PatternErrorTests {
    struct InvalidCase: Sendable, CustomTestStringConvertible {
        let pattern: String
        /// Where the mistake is, in UTF-8 bytes.
        let offset: Int
        /// A word PCRE2's message must contain.
        let says: String
        var testDescription: String { pattern }
    }

    @Test(
        "an invalid pattern fails to compile with PCRE2's message and the offset",
        arguments: [
            InvalidCase(pattern: "a(b", offset: 3, says: "missing closing parenthesis"),
            InvalidCase(pattern: "[a-", offset: 3, says: "missing terminating ]"),
            InvalidCase(pattern: "*a", offset: 0, says: "quantifier does not follow"),
            InvalidCase(pattern: "a{2,1}", offset: 5, says: "out of order"),
            InvalidCase(pattern: "ab\\", offset: 3, says: "\\ at end of pattern"),
            InvalidCase(pattern: "é(", offset: 3, says: "missing closing parenthesis"),
            InvalidCase(pattern: "(?<n>a)(?<n>b)", offset: 12, says: "same name"),
            InvalidCase(pattern: "a\\Cb", offset: 3, says: "\\C"),
        ])
    func invalid(_ c: InvalidCase) {
        for options in [Pattern.Options(), .search, .caseInsensitive] {
            #expect {
                _ = try Pattern(c.pattern, options: options)
            } throws: { error in
                guard let error = error as? PatternError else { return false }
                return error.kind == .compile && error.pattern == c.pattern
                    && error.offset == c.offset && error.message.contains(c.says)
            }
        }
    }

    @Test("a compile error reads as the pattern, the offset and the message")
    func description() {
        do {
            _ = try Pattern("a(b")
            Issue.record("a(b compiled")
        } catch {
            #expect(error.description == "invalid pattern \"a(b\" at offset 3: \(error.message)")
            #expect(!error.message.isEmpty)
        }
    }

    struct CatastrophicCase: Sendable, CustomTestStringConvertible {
        let pattern: String
        let subject: String
        let options: Pattern.Options
        var testDescription: String {
            "\(pattern) on \(subject.prefix(8))… (\(subject.count) characters) \(options.rawValue)"
        }
    }

    @Test(
        "catastrophic backtracking fails with a limit error instead of hanging",
        arguments: [
            CatastrophicCase(
                pattern: "(a+)+$", subject: String(repeating: "a", count: 30) + "b", options: []),
            CatastrophicCase(
                pattern: "(a+)+$", subject: String(repeating: "a", count: 30) + "b", options: .search),
            CatastrophicCase(
                pattern: "(a|aa)+$", subject: String(repeating: "a", count: 60) + "b", options: []),
            CatastrophicCase(
                pattern: "(a|aa)+$", subject: String(repeating: "a", count: 60) + "b", options: .search),
            // The subject holds the `y` PCRE2 looks for before it starts, so it must backtrack.
            CatastrophicCase(
                pattern: "(x+x+)+y", subject: String(repeating: "x", count: 5000) + "y!", options: []),
            CatastrophicCase(
                pattern: "(.*a){12}", subject: String(repeating: "a", count: 40) + "b", options: []),
            CatastrophicCase(
                pattern: #"(?:[a-z]+)+\d"#, subject: String(repeating: "a", count: 40) + "!",
                options: .caseInsensitive),
        ])
    func catastrophic(_ c: CatastrophicCase) {
        #expect {
            _ = try Pattern(c.pattern, options: c.options).matches(c.subject)
        } throws: { error in
            guard let error = error as? PatternError else { return false }
            return (error.kind == .matchLimit || error.kind == .depthLimit)
                && error.pattern == c.pattern && error.offset == nil && !error.message.isEmpty
        }
    }

    @Test("a catastrophic pattern whose required character is absent ends at once without a match")
    func catastrophicWithoutRequiredCharacter() throws {
        // PCRE2 checks for the `y` before backtracking; a limit error would be acceptable too.
        let subject = String(repeating: "x", count: 5000)
        for options in [Pattern.Options(), .search] {
            do {
                #expect(try Pattern("(x+x+)+y", options: options).matches(subject) == false)
            } catch {
                #expect(error.kind == .matchLimit || error.kind == .depthLimit)
            }
        }
    }
}
