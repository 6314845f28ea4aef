import ArgumentParser
import Foundation

/// Where the CLI writes, whether it may colour it, and how it quotes a word for a shell.
package enum Terminal {
    enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
        case auto, always, never
    }

    /// Colour for a terminal that shows it: `auto` honours `NO_COLOR` and `TERM=dumb`.
    static func useColor(_ choice: ColorChoice) -> Bool {
        switch choice {
        case .always: return true
        case .never: return false
        case .auto:
            let environment = ProcessInfo.processInfo.environment
            return isatty(STDOUT_FILENO) == 1 && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
        }
    }

    /// Writes a line (its newline added when missing) to standard error in one `write(2)`, so
    /// that lines from the server's threads never interleave, straight from the string's bytes:
    /// `FileHandle.write(Data(…))` copied each log line twice, through a dynamic cast.
    package static func error(_ message: String) {
        var line = message.hasSuffix("\n") ? message : message + "\n"
        line.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            var written = 0
            while written < bytes.count {
                let count = write(STDERR_FILENO, base + written, bytes.count - written)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return }
                written += count
            }
        }
    }

    /// The word as a POSIX shell reads it back: bare when it holds only safe characters, else in
    /// single quotes (a single quote inside written `'\''`).
    package static func shellQuoted(_ word: String) -> String {
        let safe = word.unicodeScalars.allSatisfy { scalar in
            (scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)))
                || "-_./:=@%+,".unicodeScalars.contains(scalar)
        }
        if safe, !word.isEmpty { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
