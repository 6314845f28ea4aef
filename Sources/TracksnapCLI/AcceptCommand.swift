import Foundation

/// The command a failed validation's report ends with: re-recording the snapshot from the same
/// capture, so that a reviewer who agrees with the new traffic can copy and paste it.
///
/// ```swift
/// AcceptCommand.record(snapshot: "Snapshots/my checkout.json", captures: ["run.har"], validator: nil, validatorsDir: "Validators")
/// // tracksnap record 'Snapshots/my checkout.json' --capture run.har --mode all
/// ```
enum AcceptCommand {
    static func record(snapshot: String, captures: [String], validator: String?, validatorsDir: String) -> String {
        var words = ["tracksnap", "record", snapshot]
        for capture in captures { words += ["--capture", capture] }
        if let validator { words += ["--validator", validator] }
        if validatorsDir != "Validators" { words += ["--validators-dir", validatorsDir] }
        words += ["--mode", "all"]
        return words.map(shellQuoted).joined(separator: " ")
    }

    /// The word as a POSIX shell reads it back: bare when it holds only safe characters, else in
    /// single quotes (a single quote inside written `'\''`).
    static func shellQuoted(_ word: String) -> String {
        let safe = word.unicodeScalars.allSatisfy { scalar in
            (scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))) || "-_./:=@%+,".unicodeScalars.contains(scalar)
        }
        if safe, !word.isEmpty { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
