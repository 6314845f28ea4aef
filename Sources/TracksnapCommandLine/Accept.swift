import ArgumentParser
import TracksnapJSON
import TracksnapRecording
import TracksnapSnapshot
import TracksnapValidation

struct Accept: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Accept pending snapshots: move X.new.json over X.json.",
        discussion: """
            A pending file that is no snapshot (cut short, or edited into something else) is not \
            accepted: its errors are printed, and both files stay as they were. Exit 0 when every \
            one was accepted, 2 when one has no pending file or was not accepted.
            """
    )

    @Argument(help: "Snapshots (X.json or X.new.json), or directories holding pending ones.")
    var snapshots: [String]

    func run() throws {
        try PendingAction.apply(to: snapshots) { pending throws(InputError) in
            "accepted \(try PendingSnapshot.accept(pending))"
        }
    }
}
