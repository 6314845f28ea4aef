import Testing

@testable import Patterns

/// The interpreter runs where PCRE2 has no JIT for the CPU: it must give the same answers.
@Suite("Without the JIT")
struct PatternInterpreterTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let pattern: String
        let subject: String
        let options: Pattern.Options
        var testDescription: String { "\(pattern) ~ \(subject.debugDescription) \(options.rawValue)" }
    }

    @Test(
        "the interpreter agrees with the JIT",
        arguments: [
            Case(pattern: "a", subject: "ba", options: []),
            Case(pattern: "a", subject: "ba", options: .search),
            Case(pattern: "foo|foobar", subject: "foobar", options: []),
            Case(pattern: "abc", subject: "abc\n", options: []),
            Case(pattern: "ÉTÉ", subject: "été", options: .caseInsensitive),
            Case(pattern: #"\d+"#, subject: "٣٤", options: []),
            Case(pattern: ".", subject: "😀", options: []),
            Case(pattern: "", subject: "", options: []),
            Case(
                pattern: #"https://[a-z0-9.-]+/tracks/[0-9]+"#, subject: "https://t.acme.io/tracks/12",
                options: []),
            Case(
                pattern: #"https://[a-z0-9.-]+/tracks/[0-9]+"#, subject: "https://t.acme.io/tracks/12x",
                options: []),
        ])
    func agrees(_ c: Case) throws {
        let interpreted = try CompiledPattern(source: c.pattern, options: c.options, jit: false)
        let jitted = try CompiledPattern(source: c.pattern, options: c.options)
        #expect(!interpreted.isJITCompiled)
        #expect(try interpreted.matches(c.subject) == jitted.matches(c.subject))
    }

    @Test("the interpreter stops catastrophic backtracking with a limit error")
    func catastrophic() throws {
        let pattern = try CompiledPattern(source: "(a+)+$", options: [], jit: false)
        #expect {
            _ = try pattern.matches(String(repeating: "a", count: 30) + "b")
        } throws: { error in
            guard let error = error as? PatternError else { return false }
            return error.kind == .matchLimit || error.kind == .depthLimit
        }
    }
}
