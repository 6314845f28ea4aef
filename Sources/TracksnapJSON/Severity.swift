/// How much a problem counts: an error fails (a lint, a validation), a warning is shown and passes.
///
/// One type for a problem in a file a user wrote (`Diagnostic`), for a difference found by
/// validation, and for what a profile's `"severity"` maps a finding code to.
public enum Severity: String, Sendable, Hashable, Codable {
    case error, warning
}
