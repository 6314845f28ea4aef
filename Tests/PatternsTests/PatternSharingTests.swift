import Testing

@testable import Patterns

@Suite("Sharing")
struct PatternSharingTests {
    @Test("one pattern matches correctly from many tasks at once")
    func concurrentMatches() async throws {
        let pattern = try Pattern(#"https://[a-z0-9.-]+/tracks/[0-9]+"#)
        let search = try Pattern("é[0-9]", options: [.search, .caseInsensitive])
        let results = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var correct = 0
                    for i in 0..<125 {
                        let n = task * 125 + i
                        let expected = n % 3 != 0
                        let subject =
                            expected
                            ? "https://host\(n).example.com/tracks/\(n)"
                            : "https://host\(n).example.com/tracks/\(n)x"
                        let searchSubject = expected ? "xxÉ\(n % 10)" : "xxE\(n % 10)"
                        if (try? pattern.matches(subject)) == expected,
                            (try? search.matches(searchSubject)) == expected
                        {
                            correct += 1
                        }
                    }
                    return correct
                }
            }
            return await group.reduce(0, +)
        }
        #expect(results == 1000)
    }

    @Test("the cache returns patterns equal to freshly compiled ones")
    func cache() throws {
        let source = "cache-\(UInt64.random(in: 0...UInt64.max))-[0-9]+"
        let first = try Pattern.cached(source)
        let second = try Pattern.cached(source)
        let fresh = try Pattern(source)
        #expect(first == second)
        #expect(first == fresh)
        #expect(first.hashValue == fresh.hashValue)
        #expect(Set([first, second, fresh]).count == 1)
        #expect(try first.matches(source.replacingOccurrences("[0-9]+", "42")))
        let other = try Pattern.cached(source, options: .search)
        #expect(other != first)
        #expect(other.options == .search && first.options == [])
    }

    @Test("an invalid pattern is not cached and fails every time")
    func cacheRejectsInvalid() {
        for _ in 0..<2 {
            #expect(throws: PatternError.self) { try Pattern.cached("a(") }
        }
    }

    @Test("the cache stays within its bound")
    func cacheBound() throws {
        let cache = PatternCache(capacity: 8)
        var kept: [CompiledPattern] = []
        for n in 0..<20 { kept.append(try cache.compiled(source: "p\(n)", options: [])) }
        #expect(cache.count <= 8)
        let again = try cache.compiled(source: "p19", options: [])
        #expect(again === kept[19])
        #expect(try Pattern(compiled: kept[3]).matches("p3"))
    }

    @Test("equality and hashing follow the source and options")
    func equality() throws {
        #expect(try Pattern("a") == Pattern("a"))
        #expect(try Pattern("a") != Pattern("b"))
        #expect(try Pattern("a") != Pattern("a", options: .caseInsensitive))
        #expect(try Pattern("a").description == "a")
    }
}

extension String {
    fileprivate func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
