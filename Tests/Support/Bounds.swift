/// How long the tests wait, decided in one place: for what should come at once, long enough that
/// only something broken reaches it on a loaded two-core machine running the whole suite (which has
/// held a process up for tens of seconds), since a test that passes returns long before it.
///
/// A test that must show a wait *ended on its condition*, not on its deadline, asserts the
/// outcome's own marker (`RequestWaitList.Outcome.reason`, the control API's `X-Tracksnap-Wait`
/// header), not a stopwatch; a stopwatch only bounds from below ("not before the settle time").
///
/// ```swift
/// let outcome = await list.wait(count: 3, timeout: Bounds.wait)
/// #expect(outcome.reason == .complete)
/// let sent = try await runProcess(python, [script, base], timeout: Bounds.process)
/// ```
public enum Bounds {
    /// The deadline of a wait for requests, answers or events that should arrive soon.
    public static let wait: Duration = .seconds(120)
    /// A child process's whole run (an SDK's script, curl, the binary), in seconds.
    public static let process = 120
}
