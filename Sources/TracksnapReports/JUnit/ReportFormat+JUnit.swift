import TracksnapValidation

extension ReportFormat {
    /// JUnit XML: one test case per snapshot; a failed one carries a one-line message and the
    /// whole text diff (without colour) in its `<failure>` body.
    ///
    /// ```xml
    /// <testsuites name="tracksnap" tests="1" failures="1" errors="0">
    ///   <testsuite name="tracksnap" tests="1" failures="1" errors="0" skipped="0">
    ///     <testcase classname="tracksnap" name="checkout" file="Snapshots/checkout.json">
    ///       <failure message="2 findings, first: /events/0/properties/name: …" type="mismatch">✗ checkout …</failure>
    /// ```
    public static let junit = ReportFormat(name: "junit") { results, options in
        JUnitRenderer(options: options).render(results)
    }
}
