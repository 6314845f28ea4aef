public import TracksnapValidation

/// The `tracksnap` command line, run from an executable of your own, so that its profiles may name
/// the decoders, filters and validators you built into it.
///
/// An executable target that depends on the `TracksnapCommandLine` and `TracksnapExtensions`
/// products, its `main.swift`:
/// ```swift
/// import TracksnapCommandLine
/// import TracksnapExtensions
///
/// TracksnapCommand.main(extensions: Extensions(decoders: [telemetryDeck]))
/// ```
/// It has every subcommand but `serve` and `ca`, which need the server (SwiftNIO): for those,
/// `TracksnapServerCommand.main(extensions:)` of the `TracksnapCommandLineServer` product.
public enum TracksnapCommand {
    /// Runs the command line with `CommandLine.arguments` and exits with its code: 0 passed,
    /// 1 mismatches, 2 bad input or usage.
    ///
    /// - Parameter extensions: added to what `DecoderRegistry`, `FilterRegistry` and
    ///   `ValidatorRegistry` hold before the arguments are read, so that every profile the
    ///   commands load may name them.
    public static func main(extensions: Extensions = Extensions()) -> Never {
        Tracksnap.main(
            root: Tracksnap.self, arguments: Array(CommandLine.arguments.dropFirst()), extensions: extensions)
    }
}
