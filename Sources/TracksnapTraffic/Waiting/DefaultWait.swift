/// How long a check waits for an app's traffic when it is not told: until traffic has been quiet
/// for `settle` after at least one request, within `timeout`.
///
/// One place for both, so that `assertTracking`, the in-process capture and the control API's
/// `validate` and `record` wait alike: a test that passes through one passes through another.
/// The defaults of public functions name it: hence `@usableFromInline`.
///
/// ```swift
/// await capture.waitForRequests(settle: DefaultWait.settle, timeout: DefaultWait.timeout)
/// ```
@usableFromInline
package enum DefaultWait {
    /// How long traffic must be quiet, after at least one request, for a wait to end.
    @usableFromInline package static let settle: Duration = .milliseconds(500)
    /// The longest wait; the check then runs on what arrived.
    @usableFromInline package static let timeout: Duration = .seconds(10)
}
