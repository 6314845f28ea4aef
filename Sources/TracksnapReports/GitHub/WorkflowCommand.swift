import Foundation

/// One GitHub Actions workflow command line, escaped as `@actions/core` escapes it.
///
/// ```swift
/// WorkflowCommand(name: "error", properties: [("file", "a.json"), ("line", "3")], message: "50% off").line
/// // ::error file=a.json,line=3::50%25 off
/// ```
struct WorkflowCommand {
    var name: String
    var properties: [(key: String, value: String)]
    var message: String

    var line: String {
        var out = "::" + name
        if !properties.isEmpty {
            out += " " + properties.map { $0.key + "=" + Self.escapeProperty($0.value) }.joined(separator: ",")
        }
        return out + "::" + Self.escapeData(message)
    }

    /// The message: `%`, CR and LF, so that it stays one line and a `%0A` in it stays literal.
    static func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A property value: as the message, and `:` and `,`, which would end the value.
    static func escapeProperty(_ text: String) -> String {
        escapeData(text)
            .replacingOccurrences(of: ":", with: "%3A")
            .replacingOccurrences(of: ",", with: "%2C")
    }
}
