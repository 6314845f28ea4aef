import TracksnapValidation

extension ReportFormat {
    /// A report for a terminal, readable without colour; ANSI colour only when `options.color`.
    ///
    /// ```text
    /// ✗ checkout (Snapshots/checkout.json) — 2 expected, 3 captured, 2 findings
    ///   /events/0  segment Order Completed  (line 8) ↔ captured #1
    ///       field                 expected                 actual
    ///       /properties/name      "Order Completed"        "Order Completed·"  value_mismatch  line 10
    ///   unexpected — captured, matched no expected entry:
    ///     captured #2  POST https://api.segment.io/v1/t  unexpected event segment "Cart Viewed"
    ///
    /// 1 snapshot: 0 passed, 1 failed (2 findings)
    /// To accept the new result: tracksnap accept Snapshots/checkout.json
    /// ```
    public static let text = ReportFormat(name: "text") { results, options in
        TextRenderer(options: options).render(results)
    }
}
