/// An error in files a user wrote, as diagnostics: each problem's file, line and column where
/// known, and message.
///
/// The one shape of `JSONParseError`, `CaptureFileError` and `InputError`, so that code which
/// shows or locates an error (a lint listing, an editor's annotations) takes any of them alike.
/// Each keeps its own `description`, the message tracksnap prints.
///
/// ```swift
/// do { _ = try CaptureFile.read(path: "broken.har") }
/// catch { for problem in error.diagnostics { print(problem.file, problem.location?.line ?? 0) } }
/// ```
public protocol LocatedError: Error, CustomStringConvertible {
    /// Every problem found, in the order found; at least one.
    var diagnostics: [Diagnostic] { get }
}
