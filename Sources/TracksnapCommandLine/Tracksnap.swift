package import ArgumentParser
import Foundation
package import TracksnapValidation

/// The root command: the subcommands that need no server, or all of them in the `tracksnap`
/// executable (`TracksnapCommandLineServer` adds `serve` and `ca`, which need SwiftNIO).
package struct Tracksnap: ParsableCommand {
    // Not `configuration(serving:)`: beside a static function of that name, the protocol's default
    // `configuration` (no subcommands) became ParsableCommand's witness, without a warning, while
    // `Tracksnap.configuration` read directly was right (CommandLineLibraryTests).
    package static let configuration = makeConfiguration(serving: [])

    package init() {}

    /// The root's configuration, with the server's subcommands in their place in the list.
    package static func makeConfiguration(serving: [any ParsableCommand.Type]) -> CommandConfiguration {
        CommandConfiguration(
            commandName: "tracksnap",
            abstract: "Check that an app sends the analytics events it should.",
            discussion: """
                Exit codes: 0 every snapshot passed (or lint found no error), 1 mismatches (or lint \
                errors), 2 bad input or usage.
                """,
            version: "0.1.0",
            subcommands: [Validate.self, Events.self, Lint.self] + serving + [
                Record.self, Accept.self, Reject.self, Review.self, CassetteCommand.self,
            ]
        )
    }

    /// Parses the arguments under `root` and runs the subcommand, with `extensions` registered
    /// first, then exits with tracksnap's codes.
    ///
    /// Argument parser's own usage errors exit 64, and any other error 1; tracksnap promises 1
    /// only for mismatches and 2 for every bad input.
    ///
    /// One parse, then the subcommand's own checks (`CheckedCommand`), then its `run()`: the
    /// checks are not in `validate()`, which argument parser runs before it looks for options it
    /// does not know, so that a misspelt option is named as such, with argument parser's own
    /// "Did you mean".
    package static func main(
        root: any ParsableCommand.Type, arguments: [String], extensions: Extensions
    ) -> Never {
        extensions.register()
        do {
            try checkSubcommand(arguments, of: root)
            var command = try root.parseAsRoot(arguments)
            if var checked = command as? any CheckedCommand {
                do {
                    try checked.check()
                } catch let error as ValidationError {
                    Terminal.error(usageError(error, of: type(of: checked), under: root))
                    Foundation.exit(Exit.badInput.rawValue)
                }
                command = checked
            }
            try command.run()
        } catch let exit as ExitCode {
            Foundation.exit(exit.rawValue)
        } catch {
            let code = root.exitCode(for: error)
            if code == .success {
                print(root.fullMessage(for: error))
                Foundation.exit(0)
            }
            let message = root.fullMessage(for: error)
            if !message.isEmpty { Terminal.error(message) }
            Foundation.exit(Exit.badInput.rawValue)
        }
        Foundation.exit(0)
    }
}

/// The exit codes tracksnap promises.
package enum Exit {
    package static let passed = ExitCode(0)
    package static let mismatches = ExitCode(1)
    package static let badInput = ExitCode(2)
}
