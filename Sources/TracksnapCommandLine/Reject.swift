import ArgumentParser
import TracksnapJSON
import TracksnapRecording
import TracksnapSnapshot
import TracksnapValidation

struct Reject: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Reject pending snapshots: delete X.new.json, keeping X.json.",
        discussion: "Exit 0 when every one was rejected, 2 when one has no pending file."
    )

    @Argument(help: "Snapshots (X.json or X.new.json), or directories holding pending ones.")
    var snapshots: [String]

    func run() throws {
        try PendingAction.apply(to: snapshots) { pending throws(InputError) in
            "rejected \(try PendingSnapshot.reject(pending))"
        }
    }
}
