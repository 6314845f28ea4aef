package import TracksnapValidation

extension ReportFormat {
    /// GitHub Actions workflow commands that annotate the snapshot files' lines: at most 10,
    /// errors first, then one that counts the rest.
    ///
    /// ```text
    /// ::error file=Snapshots/checkout.json,line=10,col=17,title=tracksnap value_mismatch::name differs%0Aexpected: "Order Completed"%0Aactual:   "Order Completed·"
    /// ```
    public static let github = ReportFormat(name: "github") { results, _ in
        GitHubAnnotations().render(results)
    }

    /// The Markdown step summary as a format of its own, for pull-request comments and files.
    public static let markdown = ReportFormat(name: "markdown") { results, options in
        StepSummary(options: options).render(results)
    }

    /// A Markdown summary for `$GITHUB_STEP_SUMMARY`: a table of snapshots and their status, then
    /// each snapshot's findings as a table (code, path, line, expected, actual, message).
    ///
    /// ```swift
    /// if let path = environment["GITHUB_STEP_SUMMARY"] {
    ///     try append(ReportFormat.githubStepSummary(results, options: options), to: path)
    /// }
    /// ```
    /// - Parameters:
    ///   - results: one result per snapshot.
    ///   - options: supplies the accept command shown under a failed snapshot.
    package static func githubStepSummary(_ results: [SnapshotResult], options: ReportOptions = ReportOptions())
        -> String
    {
        StepSummary(options: options).render(results)
    }
}
