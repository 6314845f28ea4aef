import ArgumentParser
import Foundation

/// Where the CLI writes, and whether it may colour it.
enum Terminal {
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

    static func error(_ message: String) {
        FileHandle.standardError.write(Data((message.hasSuffix("\n") ? message : message + "\n").utf8))
    }

    /// The JSON files a user named: files as given, directories searched recursively (sorted).
    static func jsonFiles(_ paths: [String]) throws(PathError) -> [String] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw PathError(path: path, message: "no such file or directory")
            }
            guard isDirectory.boolValue else {
                files.append(path)
                continue
            }
            let found = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".json") && !$0.hasSuffix(".new.json") }
                .sorted()
                .map { (path as NSString).appendingPathComponent($0) }
            files += found
        }
        return files
    }

    struct PathError: Error, CustomStringConvertible {
        let path: String
        let message: String
        var description: String { "\(path): error: \(message)" }
    }
}
