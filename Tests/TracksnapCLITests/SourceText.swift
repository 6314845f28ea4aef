import Foundation
import TracksnapTestSupport

/// A text file read for the places of values in it, to check the lines reports point at.
///
/// ```swift
/// let text = try SourceText(path: "Snapshots/demo/checkout.json")
/// let place = text.location(of: #""add_to_cart""#, after: #""ev": "#)  // (30, 15)
/// ```
struct SourceText {
    let lines: [Substring]

    /// Reads a file, relative to the package root unless the path is absolute.
    ///
    /// ```swift
    /// let text = try SourceText(path: "Snapshots/demo/checkout.json")
    /// ```
    ///
    /// - Parameter path: The file.
    /// - Throws: The file system's error.
    init(path: String) throws {
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : PackagePaths.root.appending(path: path)
        self.init(text: String(decoding: try Data(contentsOf: url), as: UTF8.self))
    }

    /// Takes text a test is about to write.
    ///
    /// ```swift
    /// let text = SourceText(text: "{\n  \"a\": 1,,\n}")
    /// ```
    ///
    /// - Parameter text: The whole text.
    init(text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// `line:column` of `needle`, as diagnostics print it.
    ///
    /// ```swift
    /// text.place(of: ",", after: "\",")  // "2:9"
    /// ```
    ///
    /// - Parameters:
    ///   - needle: The text whose start is wanted.
    ///   - prefix: Text written just before it.
    func place(of needle: String, after prefix: String = "") -> String? {
        location(of: needle, after: prefix).map { "\($0.line):\($0.column)" }
    }

    /// The 1-based line and column where `needle` starts, on the first line that holds
    /// `prefix + needle` (the prefix pins which occurrence is meant and is not counted).
    ///
    /// ```swift
    /// text.location(of: #""EUR""#, after: #""currency": "#)
    /// ```
    ///
    /// - Parameters:
    ///   - needle: The text whose start is wanted.
    ///   - prefix: Text written just before it.
    func location(of needle: String, after prefix: String = "") -> (line: Int, column: Int)? {
        for (index, line) in lines.enumerated() {
            guard let range = line.range(of: prefix + needle) else { continue }
            let column = line.distance(from: line.startIndex, to: range.lowerBound) + prefix.count + 1
            return (index + 1, column)
        }
        return nil
    }

    /// The place of the `{` that opens the object holding `needle`, written on a line of its own
    /// above it, as the entries of a pretty-printed snapshot are.
    ///
    /// ```swift
    /// text.locationOfObject(holding: #""screen": "Cart""#)
    /// ```
    ///
    /// - Parameter needle: Text inside the object.
    func locationOfObject(holding needle: String) -> (line: Int, column: Int)? {
        guard let inside = location(of: needle) else { return nil }
        for index in stride(from: inside.line - 1, through: 0, by: -1) {
            let line = lines[index]
            if line.trimmingCharacters(in: .whitespaces) == "{", let brace = line.firstIndex(of: "{") {
                return (index + 1, line.distance(from: line.startIndex, to: brace) + 1)
            }
        }
        return nil
    }
}
