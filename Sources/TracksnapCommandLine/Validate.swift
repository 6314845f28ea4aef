import ArgumentParser
import Foundation
import TracksnapJSON
import TracksnapRecording
import TracksnapReplay
import TracksnapReports
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

struct Validate: CheckedCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare captured traffic with snapshots.",
        discussion: """
            Each snapshot is checked under its profile: --validator if given, else the snapshot's \
            "validator", else "default", looked up as Validators/NAME.json. A directory stands for \
            every snapshot below it. With no snapshot, --validator's profile is checked alone: \
            its vendor rules (the built-in vendor profiles check their vendor's documented \
            limits). --plan checks every decoded event against a tracking plan (native, Segment's \
            Public or Config API export, an mParticle data plan, RudderStack's YAML tracking plan \
            (a folder or a file), or an Iglu registry folder for Snowplow), and lists the \
            planned events never sent; \
            with no snapshot, the plan alone is checked. Exit 0 when all pass, 1 on mismatches, \
            2 on bad input.
            """
    )

    @Argument(help: "Snapshot files or directories of them; none checks --validator's profile (or --plan) alone.")
    var snapshots: [String] = []

    @Option(
        help: ArgumentHelp(
            "A tracking plan (file, or Iglu registry folder) every decoded event is checked against (repeatable).",
            valueName: "plan"))
    var plan: [String] = []

    @OptionGroup var traffic: TrafficOptions

    @Option(help: ArgumentHelp("text, json, junit, github, markdown or html.", valueName: "format"))
    var format = "text"

    @Option(
        help: ArgumentHelp(
            "Write the report to this file (the terminal still gets the text report).", valueName: "file"))
    var output: String?

    @Option(help: "Colour: auto, always or never.")
    var color: Terminal.ColorChoice = .auto

    @Option(
        help: ArgumentHelp(
            "The consent the user gave: denied, granted, or TYPE=denied|granted pairs (ad_storage, analytics_storage, ad_user_data, ad_personalization) separated by commas; every request is checked against it (Documentation/Privacy.md).",
            valueName: "consent"))
    var consent: String?

    /// `--consent` read; nil when not given.
    private var declaredConsent: ConsentDeclaration? {
        get throws {
            guard let consent else { return nil }
            do throws(ConsentDeclarationError) {
                return try ConsentDeclaration(parsing: consent)
            } catch {
                throw ValidationError("--consent: \(error)")
            }
        }
    }

    func check() throws {
        try traffic.check(beside: snapshots)
        guard ReportFormat.named(format) != nil else {
            let names = ReportFormat.all.map(\.name)
            let meant = NearestNames.didYouMean(format, among: names).map { "\($0) " } ?? ""
            throw ValidationError("unknown format \"\(format)\"; \(meant)use \(names.joined(separator: ", "))")
        }
        _ = try declaredConsent
        if snapshots.isEmpty, traffic.validator == nil, plan.isEmpty {
            throw ValidationError(
                "give snapshot files or folders, or --validator PROFILE alone to check its vendor rules, or --plan PLAN"
            )
        }
    }

    func run() throws {
        let requests = try traffic.requests()
        let consent = try declaredConsent
        if snapshots.isEmpty {
            do {
                let check = try PreparedCheck(
                    profileAlone: traffic.validator ?? "default", plans: plan, workspace: traffic.workspace,
                    source: traffic.validator.map { "--validator \($0)" } ?? "--plan"
                ).declaring(consent: consent)
                if try !report([check.validate(requests)], accepting: false) { throw Exit.mismatches }
            } catch let error as InputError {
                Terminal.error(error.description)
                throw Exit.badInput
            }
            return
        }
        let files: [String]
        do {
            files = try traffic.workspace.files(snapshots, field: "snapshot", cassettes: Cassette.isCassette)
        } catch {
            Terminal.error(error.description)
            // Validating before recording: say how to record it from the capture at hand.
            if let new = snapshots.first(where: { $0.hasSuffix(".json") && !FileManager.default.fileExists(atPath: $0) }
            ) {
                Terminal.error(
                    "\(new): note: no snapshot there yet; record one from this capture: \(traffic.recordCommand(for: new))"
                )
            }
            throw Exit.badInput
        }
        guard !files.isEmpty else {
            Terminal.error("\(snapshots.joined(separator: ", ")): error: no snapshot files (*.json) found")
            throw Exit.badInput
        }

        var results: [SnapshotResult] = []
        var unreadable: [String] = []
        for file in files {
            do {
                let check = try PreparedCheck(
                    snapshotAt: file, profile: traffic.validator, plans: plan, workspace: traffic.workspace)
                // What lint warns about, at the same place (a Szimpla string compared literally).
                for warning in check.snapshot.warnings { Terminal.error(warning.description) }
                results.append(check.declaring(consent: consent).validate(requests))
            } catch {
                Terminal.error(error.description)
                unreadable.append(file)
            }
        }

        // With every snapshot unreadable, an empty report would read as a pass ("passed": true).
        guard !results.isEmpty else { throw Exit.badInput }
        let passed = try report(results, accepting: true)
        if !unreadable.isEmpty {
            // The report's summary counts the snapshots read: the others fail the run too.
            let count = unreadable.count == 1 ? "1 more snapshot" : "\(unreadable.count) more snapshots"
            Terminal.error(
                "\(count) could not be read (\(unreadable.joined(separator: ", ")): the errors above), so the run fails"
            )
            throw Exit.badInput
        }
        if !passed { throw Exit.mismatches }
    }

    /// Prints the report (and writes `--output`); returns whether all passed.
    /// - Parameter accepting: each failed snapshot's report says how to accept its new result.
    private func report(_ results: [SnapshotResult], accepting: Bool) throws -> Bool {
        let format = ReportFormat.named(format) ?? .text
        var acceptOptions = ReportOptions()
        if accepting {
            acceptOptions.acceptCommand = { [traffic] result in traffic.acceptCommand(for: result.file) }
        }
        var terminalOptions = acceptOptions
        terminalOptions.color = Terminal.useColor(color)
        if let output {
            do {
                try AtomicFile.write(
                    format.render(results, options: acceptOptions), to: output, creatingDirectory: false)
            } catch {
                Terminal.error(error.description)
                throw Exit.badInput
            }
            print(ReportFormat.text.render(results, options: terminalOptions), terminator: "")
        } else {
            print(
                format.render(results, options: format.name == "text" ? terminalOptions : acceptOptions), terminator: ""
            )
        }
        if format.name == "github", let summary = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"],
            !summary.isEmpty
        {
            appendStepSummary(ReportFormat.markdown.render(results, options: acceptOptions), to: summary)
        }
        return results.allSatisfy(\.passed)
    }

    /// Appends the Markdown summary to `$GITHUB_STEP_SUMMARY`'s file, creating it when it is not
    /// there yet; a file that cannot be written is a warning on stderr, not a failed validation.
    private func appendStepSummary(_ markdown: String, to path: String) {
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            Terminal.error(
                "warning: cannot write the step summary to $GITHUB_STEP_SUMMARY (\(path)): "
                    + "no such file, and it cannot be created there")
            return
        }
        do {
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(markdown.utf8))
            try handle.close()
        } catch {
            Terminal.error("warning: cannot write the step summary to $GITHUB_STEP_SUMMARY (\(path)): \(error)")
        }
    }
}
