import ArgumentParser
import Foundation
import TracksnapJSON
import TracksnapRecording
import TracksnapSnapshot
import TracksnapValidation

struct Review: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Review pending snapshots one by one: accept, reject or skip each.",
        discussion: """
            For every X.new.json found, shows how it differs from X.json and reads an answer from \
            standard input: a (accept: move it over X.json), r (reject: delete it) or s (skip: \
            leave it pending). Piped answers work; at the end of input the rest are skipped. \
            Exit 0, or 2 when a path does not exist.
            """
    )

    @Argument(help: "Snapshots or directories to search for pending files (default: Snapshots).")
    var paths: [String] = []

    @Option(help: "Colour: auto, always or never.")
    var color: Terminal.ColorChoice = .auto

    enum Answer { case accept, reject, skip, endOfInput }

    func run() throws {
        guard !paths.isEmpty || FileManager.default.fileExists(atPath: "Snapshots") else {
            Terminal.error(
                "error: no Snapshots directory here; run from the project root or name the folders to search (tracksnap review DIR)"
            )
            throw Exit.badInput
        }
        let paths = paths.isEmpty ? ["Snapshots"] : paths
        let pending: [String]
        do {
            pending = try PendingSnapshot.find(in: paths)
        } catch {
            Terminal.error(error.description)
            throw Exit.badInput
        }
        guard !pending.isEmpty else {
            print("no pending snapshots (*.new.json) under \(paths.joined(separator: ", "))")
            return
        }
        let colored = Terminal.useColor(color)
        var counts = (accepted: 0, rejected: 0, skipped: 0, failed: 0)
        for (position, file) in pending.enumerated() {
            let target = PendingSnapshot.snapshotPath(for: file)
            print("[\(position + 1)/\(pending.count)] \(target)")
            print(diff(target: target, pending: file, colored: colored), terminator: "")
            let answer = ask()
            do {
                switch answer {
                case .accept:
                    print("accepted \(try PendingSnapshot.accept(file))")
                    counts.accepted += 1
                case .reject:
                    print("rejected \(try PendingSnapshot.reject(file))")
                    counts.rejected += 1
                case .skip:
                    print("skipped \(file)")
                    counts.skipped += 1
                case .endOfInput:
                    counts.skipped += pending.count - position
                }
            } catch {
                Terminal.error(error.description)
                counts.failed += 1
            }
            if answer == .endOfInput {
                print("\nend of input: the rest stay pending")
                break
            }
        }
        let failed = counts.failed > 0 ? ", \(counts.failed) failed (still pending)" : ""
        print("\(counts.accepted) accepted, \(counts.rejected) rejected, \(counts.skipped) skipped\(failed)")
        if counts.failed > 0 { throw Exit.badInput }
    }

    private func diff(target: String, pending: String, colored: Bool) -> String {
        let text = PendingSnapshot.diff(pending)
        guard !text.isEmpty else { return "  (the same as \(target))\n" }
        guard colored else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            if line.hasPrefix("+"), !line.hasPrefix("+++") { return "\u{1B}[32m\(line)\u{1B}[0m" }
            if line.hasPrefix("-"), !line.hasPrefix("---") { return "\u{1B}[31m\(line)\u{1B}[0m" }
            if line.hasPrefix("@@") { return "\u{1B}[36m\(line)\u{1B}[0m" }
            return String(line)
        }.joined(separator: "\n")
    }

    /// Asks until the answer is one of a, r, s (an empty line skips).
    private func ask() -> Answer {
        while true {
            print("[a]ccept / [r]eject / [s]kip? ", terminator: "")
            fflush(nil)
            guard let line = readLine() else { return .endOfInput }
            // Piped answers are not echoed by a terminal: show them, so the transcript reads right.
            if isatty(STDIN_FILENO) == 0 { print(line) }
            switch line.trimmingCharacters(in: .whitespaces).lowercased() {
            case "a", "accept": return .accept
            case "r", "reject": return .reject
            case "s", "skip", "": return .skip
            default: print("please answer a, r or s")
            }
        }
    }
}
