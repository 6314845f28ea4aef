package import ArgumentParser

/// A subcommand whose arguments tracksnap checks once argument parser has parsed them all, so that
/// a misspelt option is named as argument parser names it (`--captur x`: "Unknown option
/// '--captur'. Did you mean '--capture'?") rather than as what its absence broke ("--capture FILE
/// is required"): argument parser runs a command's `validate()` before it looks for options it
/// does not know. `Tracksnap.main` calls `check()` between the parse and `run()`.
package protocol CheckedCommand: ParsableCommand {
    /// - Throws: `ValidationError` saying what is wrong with the arguments; it is printed with
    ///   the subcommand's usage, as argument parser prints its own, and exits 2.
    mutating func check() throws
}

extension Tracksnap {
    /// What argument parser prints for a `ValidationError` a subcommand's `validate()` throws:
    /// the message, the subcommand's usage, and where its help is.
    ///
    /// ```text
    /// Error: --capture FILE is required: the captured traffic (HAR or NDJSON)
    /// Usage: tracksnap validate [<snapshots> ...] [--plan <plan> ...] [--capture <file> ...] …
    ///   See 'tracksnap validate --help' for more information.
    /// ```
    static func usageError(
        _ error: ValidationError, of command: any ParsableCommand.Type, under root: any ParsableCommand.Type
    ) -> String {
        let names = ([root] + path(to: command, under: root)).map { $0._commandName }.joined(separator: " ")
        // Argument parser's hanging indent: every line after the first under the first's text.
        let lines = root.usageString(for: command).split(separator: "\n", omittingEmptySubsequences: false)
        let usage = ([lines.first ?? ""] + lines.dropFirst().map { $0.isEmpty ? $0 : "       " + $0 })
            .joined(separator: "\n")
        return "Error: \(error.message)\nUsage: \(usage)\n  See '\(names) --help' for more information."
    }

    /// The subcommands from `root` down to `command`, `command` last; empty when it is not among them.
    static func path(
        to command: any ParsableCommand.Type, under root: any ParsableCommand.Type
    ) -> [any ParsableCommand.Type] {
        for subcommand in root.configuration.subcommands {
            if ObjectIdentifier(subcommand) == ObjectIdentifier(command) { return [subcommand] }
            let below = path(to: command, under: subcommand)
            if !below.isEmpty { return [subcommand] + below }
        }
        return []
    }
}
