import ArgumentParser
import Testing
import TracksnapCommandLine

/// The `TracksnapCommandLine` product's root, which an executable of one's own runs: the
/// `tracksnap` executable runs another root, with `serve` and `ca`, so its own tests do not see it.
@Suite("The command line as a library")
struct CommandLineLibraryTests {
    @Test("its root has every subcommand but serve and ca, in the executable's order")
    func subcommands() {
        // Read as argument parser reads it, through the protocol: a static function named
        // `configuration(serving:)` beside the property once made the protocol's default the
        // witness, a root without subcommands, while `Tracksnap.configuration` read directly was right.
        let root: any ParsableCommand.Type = Tracksnap.self
        #expect(
            root.configuration.subcommands.map { $0._commandName } == [
                "validate", "events", "lint", "record", "accept", "reject", "review", "cassette",
            ])
        #expect(root.configuration.commandName == "tracksnap")
    }
}
