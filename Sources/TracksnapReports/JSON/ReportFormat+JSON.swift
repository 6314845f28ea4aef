import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

extension ReportFormat {
    /// A JSON document with a stable, versioned schema (`ValidationReport`, described for other
    /// languages by `Schemas/report.schema.json`), keys sorted.
    ///
    /// ```json
    /// { "findings": [ { "code": "value_mismatch", "snapshot": "Snapshots/checkout.json", … } ],
    ///   "passed": false, "snapshots": [ { "file": "Snapshots/checkout.json", … } ], "version": 1 }
    /// ```
    public static let json = ReportFormat(name: "json") { results, options in
        ValidationReport(results, options: options).json
    }
}
