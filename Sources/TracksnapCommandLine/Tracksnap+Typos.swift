import ArgumentParser
import TracksnapTraffic

extension Tracksnap {
    /// The words a command line under `root` can start with: its subcommands and argument parser's `help`.
    static func subcommandNames(of root: any ParsableCommand.Type) -> [String] {
        root.configuration.subcommands.map { $0._commandName } + ["help"]
    }

    /// Refuses a first word that names no subcommand (`tracksnap valdate …`), and `help WORD` for
    /// such a word, naming the nearest subcommands; argument parser would report the word as
    /// an unexpected argument, or the options after it as unknown ones. A misspelt `--version`
    /// or `--help` is named too: they are not among the options argument parser suggests.
    ///
    /// - Throws: `ValidationError` saying what was wrong and what was meant.
    static func checkSubcommand(_ arguments: [String], of root: any ParsableCommand.Type) throws {
        let names = subcommandNames(of: root)
        guard var word = arguments.first else { return }
        if word == "help", arguments.count > 1 { word = arguments[1] }
        if word.hasPrefix("--") {
            let builtIn = ["--help", "--version"]
            if let meant = NearestNames.didYouMean(word, among: builtIn) {
                throw ValidationError("unknown option \(word); \(meant)")
            }
            return
        }
        guard !word.hasPrefix("-") else { return }
        guard names.contains(word) else {
            let hint =
                NearestNames.didYouMean(word, among: names)
                ?? "the subcommands are \(names.joined(separator: ", "))"
            throw ValidationError("unknown subcommand \"\(word)\"; \(hint)")
        }
        guard word == arguments.first,
            let command = root.configuration.subcommands.first(where: { $0._commandName == word })
        else { return }
        // An option by the name the guides give what it names (`--profile segment`).
        for argument in arguments.dropFirst() {
            let name = String(argument.prefix { $0 != "=" })
            if let meant = optionSynonyms[name], command.helpMessage().contains(meant.option) {
                throw ValidationError("unknown option \(name); \(meant.what) is named with \(meant.option)")
            }
        }
        // A subcommand's own subcommands (`tracksnap cassette lern`), by the same rule.
        if !command.configuration.subcommands.isEmpty {
            try checkSubcommand(Array(arguments.dropFirst()), of: command)
        }
    }

    /// Options people write by the guides' word for what they name: a profile is what
    /// `--validator` names (a snapshot's `"validator"`).
    static let optionSynonyms: [String: (option: String, what: String)] = [
        "--profile": ("--validator", "a profile (segment, ga4, Validators/shop.json…)")
    ]
}
