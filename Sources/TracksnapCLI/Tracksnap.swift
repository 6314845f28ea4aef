import ArgumentParser
import Foundation

@main
struct Tracksnap: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tracksnap",
        abstract: "Check that an app sends the analytics events it should.",
        discussion: """
            Exit codes: 0 every snapshot passed (or lint found no error), 1 mismatches (or lint \
            errors), 2 bad input or usage.
            """,
        version: "0.1.0",
        subcommands: [
            Validate.self, Events.self, Lint.self, Serve.self, CA.self, Record.self, Accept.self, Reject.self,
            Review.self,
            CassetteCommand.self,
        ]
    )

    /// Argument parser's own usage errors exit 64, and any other error 1; tracksnap promises 1
    /// only for mismatches and 2 for every bad input.
    ///
    /// Argument parser runs a command's `validate()` before it looks for options it does not
    /// know, so a misspelt option used to be reported as what its absence broke (`--captur x`:
    /// "--capture FILE is required"). A first parse without tracksnap's checks lets argument parser
    /// name the unknown option, with its own "Did you mean"; the second parse runs the checks.
    static func main() {
        do {
            let arguments = Array(CommandLine.arguments.dropFirst())
            try checkSubcommand(arguments)
            _ = try $checksArguments.withValue(false) { try parseAsRoot(arguments) }
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch let exit as ExitCode {
            Foundation.exit(exit.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            let message = fullMessage(for: error)
            if !message.isEmpty { Terminal.error(message) }
            Foundation.exit(Exit.badInput.rawValue)
        }
    }
}

/// The exit codes tracksnap promises.
enum Exit {
    static let passed = ExitCode(0)
    static let mismatches = ExitCode(1)
    static let badInput = ExitCode(2)
}
