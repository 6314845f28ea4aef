public import TracksnapValidation

/// Choices the caller makes for a report: the formats themselves decide the rest.
///
/// ```swift
/// let options = ReportOptions(
///     color: isatty(1) == 1 && environment["NO_COLOR"] == nil,
///     acceptCommand: { "tracksnap accept \($0.file)" }
/// )
/// ```
public struct ReportOptions: Sendable {
    /// ANSI colour in the text report. Other formats ignore it.
    public var color: Bool
    /// The exact command that accepts a failed snapshot's new result, or nil when there is none
    /// (for example when nothing was recorded).
    public var acceptCommand: (@Sendable (SnapshotResult) -> String?)?

    /// - Parameters:
    ///   - color: ANSI colour in the text report; off by default, as for a pipe or a file.
    ///   - acceptCommand: the command that accepts a failed snapshot's new result.
    public init(color: Bool = false, acceptCommand: (@Sendable (SnapshotResult) -> String?)? = nil) {
        self.color = color
        self.acceptCommand = acceptCommand
    }

    /// None for a passing result, nor for one recording would refuse (`canBeAccepted`).
    func acceptCommand(for result: SnapshotResult) -> String? {
        guard result.canBeAccepted,
            let command = acceptCommand?(result), !command.isEmpty
        else { return nil }
        return command
    }
}
