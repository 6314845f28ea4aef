import ArgumentParser
import TracksnapCommandLine
public import TracksnapValidation

/// The whole `tracksnap` command line, `serve` and `ca` included, run from an executable of your
/// own so that its profiles, and the server's, may name the decoders, filters and validators you
/// built into it; the `tracksnap` executable is this with none.
///
/// ```swift
/// import TracksnapCommandLineServer
/// import TracksnapExtensions
///
/// TracksnapServerCommand.main(extensions: Extensions(decoders: [telemetryDeck]))
/// ```
/// Without `serve` and `ca`, `TracksnapCommand.main(extensions:)` (the `TracksnapCommandLine`
/// product) builds no SwiftNIO.
public enum TracksnapServerCommand {
    /// Runs the command line with `CommandLine.arguments` and exits with its code: 0 passed,
    /// 1 mismatches, 2 bad input or usage.
    ///
    /// - Parameter extensions: added to what `DecoderRegistry`, `FilterRegistry` and
    ///   `ValidatorRegistry` hold before the arguments are read.
    public static func main(extensions: Extensions = Extensions()) -> Never {
        Tracksnap.main(
            root: ServingTracksnap.self, arguments: Array(CommandLine.arguments.dropFirst()), extensions: extensions)
    }
}

/// The root command with the server's subcommands.
struct ServingTracksnap: ParsableCommand {
    static let configuration = Tracksnap.makeConfiguration(serving: [Serve.self, CA.self])
}
