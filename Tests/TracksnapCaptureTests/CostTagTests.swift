import Foundation
import Testing
import TracksnapTestSupport

/// `make check` trusts the tags of Tests/Support/Costs.swift: a suite with one of them must carry
/// `.leftToMakeTest`, which is what leaves it out of the fast loop, and `.leftToMakeTest` alone
/// would leave out nothing.
@Suite("Every costly tag comes with what leaves it to make test")
struct CostTagTests {
    @Test("each @Suite with .process, .network or .browser carries .leftToMakeTest, and the other way round")
    func tagsAndTraitGoTogether() throws {
        let tests = PackagePaths.root.appending(path: "Tests")
        let files = try #require(FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil))
        var mismatched: [String] = []
        var tagged = 0
        for case let file as URL in files where file.pathExtension == "swift" && !file.path.contains("/Support/") {
            let source = try String(contentsOf: file, encoding: .utf8)
            for attribute in suiteAttributes(source) {
                let costly =
                    attribute.contains(".process") || attribute.contains(".network")
                    || attribute.contains(".browser")
                if costly { tagged += 1 }
                if costly != attribute.contains(".leftToMakeTest") {
                    mismatched.append("\(file.lastPathComponent): \(attribute)")
                }
            }
        }
        #expect(mismatched == [])
        #expect(tagged > 50, "the suites that start processes and servers are tagged")
    }

    /// The text of each `@Suite(…)` attribute, across line breaks.
    private func suiteAttributes(_ source: String) -> [String] {
        var attributes: [String] = []
        var rest = source[...]
        while let start = rest.range(of: "@Suite(") {
            var depth = 0
            var end = start.upperBound
            for index in rest[start.lowerBound...].indices {
                if rest[index] == "(" { depth += 1 }
                if rest[index] == ")" {
                    depth -= 1
                    if depth == 0 {
                        end = rest.index(after: index)
                        break
                    }
                }
            }
            attributes.append(String(rest[start.lowerBound..<end]))
            rest = rest[end...]
        }
        return attributes
    }
}
