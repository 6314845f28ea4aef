public import TracksnapValidation

/// A way to render validation results: a name and a function from results to text.
///
/// Built-in formats are static members, so a call site reads `.text` or `.junit`; the CLI
/// looks one up by name with ``named(_:)``. A custom format is a value built from a closure.
///
/// ```swift
/// let output = ReportFormat.text.render(results, options: ReportOptions(color: true))
/// let names = ReportFormat.named("junit")?.render(results)
/// let csv = ReportFormat(name: "csv") { results, _ in results.map(\.name).joined(separator: "\n") }
/// ```
public struct ReportFormat: Sendable {
    /// The name the CLI's `--format` option takes.
    public let name: String
    private let renderer: @Sendable ([SnapshotResult], ReportOptions) -> String

    /// A format that renders with the given closure.
    ///
    /// - Parameters:
    ///   - name: the name it is looked up by.
    ///   - render: turns the results of one run into the report's text.
    public init(name: String, render: @escaping @Sendable ([SnapshotResult], ReportOptions) -> String) {
        self.name = name
        self.renderer = render
    }

    /// The report of one run, as text ending with a newline.
    ///
    /// ```swift
    /// print(ReportFormat.json.render(results), terminator: "")
    /// ```
    /// - Parameters:
    ///   - results: one result per snapshot, in the order they were checked.
    ///   - options: colour and the accept command; the defaults suit a file or a pipe.
    public func render(_ results: [SnapshotResult], options: ReportOptions = ReportOptions()) -> String {
        renderer(results, options)
    }
}

extension ReportFormat {
    /// Every built-in format, in the order `--help` lists them.
    public static let all: [ReportFormat] = [.text, .json, .junit, .github, .markdown, .html]

    /// The built-in format with this name (`text`, `json`, `junit`, `github`, `markdown`), if any.
    ///
    /// ```swift
    /// guard let format = ReportFormat.named(option) else { throw ValidationError("unknown format") }
    /// ```
    /// - Parameter name: the name as the user typed it; case does not matter.
    public static func named(_ name: String) -> ReportFormat? {
        let wanted = name.lowercased()
        return all.first { $0.name == wanted }
    }
}
