import TracksnapValidation

extension ReportFormat {
    /// One self-contained HTML file: a table of snapshots, then each snapshot's differences
    /// side by side, missing entries, unexpected traffic and the accept command.
    public static let html = ReportFormat(name: "html") { results, options in
        HTMLRenderer(options: options).render(results)
    }
}
