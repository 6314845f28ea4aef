import Foundation
import Testing
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapValidation

/// A plan folder named through the control API is confined to the root as a plan file is: a
/// symbolic link inside it that leads out of the root is refused, not read.
@Suite("Files found in a plan folder stay under the root")
struct PlanFolderRootTests {
    static let secret = "SECRETWORD"

    @Test(
        "a link in a RudderStack or Iglu plan folder to a file outside the root: refused, naming the root, unread",
        arguments: ["rudder/events.yaml", "iglu/schemas/com.acme/checkout/jsonschema/1-0-0"])
    func linkOut(link: String) throws {
        try withTemporaryDirectory { directory in
            let root = directory.appending(path: "root")
            let outside = directory.appending(path: "outside/secret.txt")
            try FileManager.default.createDirectory(
                at: outside.deletingLastPathComponent(), withIntermediateDirectories: true)
            try "\(Self.secret): [ not yaml, not json".write(to: outside, atomically: true, encoding: .utf8)
            let linked = root.appending(path: link)
            try FileManager.default.createDirectory(
                at: linked.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: linked.path, withDestinationPath: outside.path)
            let folder = root.appending(path: String(link.split(separator: "/")[0])).path
            let workspace = Workspace(root: root.path)
            do {
                _ = try TrackingPlan.load(path: try workspace.path(folder, field: "plan"), workspace: workspace)
                Issue.record("the plan was read")
            } catch {
                #expect("\(error)".contains("is outside the root"), "\(error)")
                #expect(!"\(error)".contains(Self.secret), "the file was read: \(error)")
            }
        }
    }
}
