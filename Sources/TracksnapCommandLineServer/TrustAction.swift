import Foundation
import TracksnapCommandLine

/// Trusting the CA in one place, or taking that trust back: commands that tracksnap runs itself
/// when every tool is on the PATH and it may write where they write, and otherwise prints for the
/// user to run, having run none of them. Never half-done: when a command fails, the ones before it
/// are undone, and the run ends with an error (exit 2).
///
/// ```swift
/// try TrustAction.system(.trust, authority).perform()  // or prints the commands, with sudo
/// ```
struct TrustAction {
    /// Whether the action adds the CA or takes it away.
    enum Direction {
        case trust, untrust
    }

    /// A command, and the command that takes it back should a later one fail.
    struct Step {
        var command: [String]
        var undo: [String]?

        init(_ command: [String], undo: [String]? = nil) {
            self.command = command
            self.undo = undo
        }
    }

    /// The name the output starts with (`system`, `nss`, `ios-simulator`).
    var target: String
    var steps: [Step]
    /// Folders or files the commands write. When this process may not write one of them (not
    /// root, a read-only file system), it prints the commands instead of running them.
    var writes: [String] = []
    /// Whether the printed commands need `sudo` (a store only root may change).
    var privileged = false
    /// How to get each tool that may be missing, by the tool's name.
    var provenance: [String: String] = [:]
    /// Set when there is nothing to do (removing what is not there): what to say instead.
    var nothingToDo: String?
    /// What to say once the commands have run.
    var done: String
    /// Printed after the outcome, whatever it was (how to take the trust back).
    var afterwards: [String] = []

    /// Runs the commands, or prints them when this process cannot.
    ///
    /// - Throws: `Exit.badInput` when a command ran and failed (its output is on stderr).
    func perform() throws {
        defer { for line in afterwards { print("  " + line) } }
        if let nothingToDo {
            print("\(target): \(nothingToDo)")
            return
        }
        if let missing = steps.map({ $0.command[0] }).first(where: { Self.which($0) == nil }) {
            let how = provenance[missing].map { " (\($0))" } ?? ""
            printCommands(because: "\(missing) is not on the PATH\(how)")
            return
        }
        if let (path, reason) = writes.lazy.compactMap({ path in Self.unwritable(path).map { (path, $0) } }).first {
            printCommands(because: "this user may not write \(path) (\(reason))")
            return
        }
        for (index, step) in steps.enumerated() {
            let (status, output) = Self.run(step.command)
            guard status != 0 else { continue }
            for undo in steps[..<index].reversed().compactMap(\.undo) { _ = Self.run(undo) }
            Terminal.error(
                "error: \(target): `\(Self.shellText(step.command))` failed (status \(status))"
                    + (index > 0 ? "; the commands before it were undone" : "") + "\n"
                    + output.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
            throw Exit.badInput
        }
        print("\(target): \(done)")
    }

    private func printCommands(because reason: String) {
        print("\(target): \(reason), so nothing was changed; to do it, run:")
        for step in steps { print("  " + (privileged ? "sudo " : "") + Self.shellText(step.command)) }
    }

    /// The command as a POSIX shell reads it.
    static func shellText(_ command: [String]) -> String {
        command.map(Terminal.shellQuoted).joined(separator: " ")
    }

    /// Whether the command exits 0: nil when its tool is not on the PATH.
    static func succeeds(_ command: [String]) -> Bool? {
        which(command[0]) == nil ? nil : run(command).status == 0
    }

    /// The program's path, from the PATH.
    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// Why this process may not write the path (or, when it does not exist yet, create it):
    /// nil when it may.
    private static func unwritable(_ path: String) -> String? {
        var existing = path
        while access(existing, F_OK) != 0, existing != "/" {
            existing = (existing as NSString).deletingLastPathComponent
        }
        return access(existing, W_OK) == 0 ? nil : String(cString: strerror(errno))
    }

    /// Runs the command to its end, its output (stdout and stderr together) kept for an error.
    static func run(_ command: [String]) -> (status: Int32, output: String) {
        guard let executable = which(command[0]) else { return (127, "\(command[0]) is not on the PATH") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = Array(command.dropFirst())
        process.standardInput = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do {
            try process.run()
        } catch {
            return (127, "\(executable): \(error.localizedDescription)")
        }
        // One pipe for both streams, read to its end before waiting: the child never blocks on it.
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
