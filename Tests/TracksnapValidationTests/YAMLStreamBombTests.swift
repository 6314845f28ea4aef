import Foundation
import Testing
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapValidation

/// A plan from another team is a YAML stream: its documents together are held to the limit
/// one document is, so that five alias bombs just under it are refused as one would be.
@Suite("A YAML stream is limited as a whole")
struct YAMLStreamBombTests {
    /// A document whose aliases expand to about 600,000 values: under the limit on its own.
    static let document: String = {
        var text = "a0: &a0 [x, x, x, x, x, x, x, x, x]\n"
        for level in 1...5 {
            text +=
                "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ") + "]\n"
        }
        return text
    }()

    @Test(
        "five documents of 600,000 values each are refused once they pass 1,000,000 together, at the document that does"
    )
    func streamBomb() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appending(path: "plan.yaml")
            try Array(repeating: Self.document, count: 5).joined(separator: "---\n").write(
                to: file, atomically: true, encoding: .utf8)
            do {
                _ = try TrackingPlan.load(path: file.path)
                Issue.record("the stream was read")
            } catch {
                #expect("\(error)".contains("more than 1000000 values"), "\(error)")
                #expect("\(error)".contains("plan.yaml:8:"), "the second document, where the total passes: \(error)")
            }
        }
    }
}
