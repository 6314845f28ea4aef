import ArgumentParser
import TracksnapJSON
import TracksnapReplay
import TracksnapSnapshot

/// `tracksnap cassette …`: what is done with cassettes apart from replaying them.
struct CassetteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cassette",
        abstract: "Work with cassettes: what a backend answered, replayed by serve --cassette and CaptureMode.replay.",
        subcommands: [Learn.self]
    )

    struct Learn: CheckedCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write one cassette from the recordings of several runs of the same flow.",
            discussion: """
                Each run's cassette is any format tracksnap reads. The first run's interactions \
                and answers are written, in tracksnap's format; a query parameter or a JSON body \
                field that differs between the runs' requests becomes the narrowest matcher every \
                run passes (a UUID, a timestamp, digits, else a type), so that the next run is \
                answered too. Exit 0 when written, 2 when a run cannot be read or is not the same \
                flow as the first.
                """
        )

        @Argument(help: ArgumentHelp("The cassette to write.", valueName: "cassette"))
        var output: String

        @Option(
            parsing: .upToNextOption,
            help: ArgumentHelp("The runs' cassettes, the first run first (at least two).", valueName: "run"))
        var from: [String]

        func check() throws {
            guard from.count >= 2 else { throw ValidationError("--from takes the cassettes of at least two runs") }
        }

        func run() throws {
            do {
                var runs: [Cassette] = []
                for file in from {
                    let (cassette, warnings) = try Cassette.read(path: file)
                    for warning in warnings { Terminal.error(warning.description) }
                    runs.append(cassette)
                }
                let (cassette, learnt) = try Cassette.learning(from: runs, names: from)
                try cassette.write(to: output)
                let count = cassette.interactions.count
                print("learnt \(output) from \(from.count) runs: \(count) interaction\(count == 1 ? "" : "s")")
                for line in learnt { print("  \(line)") }
            } catch {
                Terminal.error(error.description)
                throw Exit.badInput
            }
        }
    }
}
