import TracksnapJSON
import TracksnapReports
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

/// Hand-built validation results covering each shape a report must render.
enum Fixtures {
    static let track = RequestReference(id: "r7", index: 7, method: "POST", url: "https://api.segment.io/v1/track")
    static let stray = RequestReference(id: "r9", index: 9, method: "POST", url: "https://api.segment.io/v1/page")

    /// Every entry matched, nothing else captured.
    static let passing = SnapshotResult(
        file: "Snapshots/home.json", name: "home", profile: "segment",
        entries: [
            EntryResult(
                path: "/events/0", location: SourceLocation(line: 5, column: 5), summary: "segment Home Viewed",
                status: .matched,
                request: RequestReference(id: "r1", index: 1, method: "POST", url: "https://api.segment.io/v1/page"))
        ],
        findings: [], selected: 1, captured: 3
    )

    /// A near miss (three differing fields and an entry-level finding), a missing entry and
    /// unexpected traffic.
    static let checkout = SnapshotResult(
        file: "Snapshots/checkout.json", name: "checkout", profile: "segment",
        entries: [
            EntryResult(
                path: "/events/0", location: SourceLocation(line: 6, column: 5), summary: "segment Checkout Started",
                status: .matched,
                request: RequestReference(id: "r3", index: 3, method: "POST", url: "https://api.segment.io/v1/track")),
            EntryResult(
                path: "/events/1", location: SourceLocation(line: 14, column: 5), summary: "segment Order Completed",
                status: .mismatched, request: track),
            EntryResult(
                path: "/events/2", location: SourceLocation(line: 25, column: 5), summary: "segment Coupon Applied",
                status: .missing, request: nil),
        ],
        findings: [
            Finding(
                code: .valueMismatch, path: "/events/1/name", entry: "/events/1",
                location: SourceLocation(line: 15, column: 15),
                expected: "Order Completed", actual: "Order Completed ", message: "name differs", request: track),
            Finding(
                code: .patternMismatch, path: "/events/1/properties/order_id", entry: "/events/1",
                location: SourceLocation(line: 17, column: 21), expected: ["$regex": "o-[0-9]+"], actual: "x-12",
                message: "order_id does not match o-[0-9]+", request: track),
            Finding(
                code: .missingKey, path: "/events/1/properties/currency", entry: "/events/1",
                location: SourceLocation(line: 18, column: 21), expected: "EUR", actual: nil,
                message: "currency is missing", request: track),
            Finding(
                code: .typeMismatch, path: "/events/1/properties/coupon", entry: "/events/1",
                location: SourceLocation(line: 19, column: 19), expected: ["$type": "string"], actual: .null,
                message: "coupon is null, not a string", request: track),
            Finding(
                code: .orderMismatch, severity: .warning, path: "/events/1", entry: "/events/1",
                location: SourceLocation(line: 14, column: 5), message: "captured before Checkout Started",
                request: track),
            Finding(
                code: .missingEvent, path: "/events/2", entry: "/events/2",
                location: SourceLocation(line: 25, column: 5),
                message: "nothing captured matched segment Coupon Applied"),
            Finding(
                code: .unexpectedEvent, path: "", entry: nil, message: "unexpected event segment \"Cart Viewed\"",
                request: stray),
        ],
        selected: 4, captured: 11
    )

    /// Values whose difference is only an invisible character.
    static func invisible(expected: String, actual: String) -> SnapshotResult {
        SnapshotResult(
            file: "Snapshots/invisible.json", name: "invisible", profile: "default",
            entries: [
                EntryResult(
                    path: "/requests/0", location: SourceLocation(line: 3, column: 5),
                    summary: "GET https://example.com/t",
                    status: .mismatched, request: track)
            ],
            findings: [
                Finding(
                    code: .valueMismatch, path: "/requests/0/parameters/ev", entry: "/requests/0",
                    location: SourceLocation(line: 4, column: 30), expected: .string(expected), actual: .string(actual),
                    message: "ev differs", request: track)
            ],
            selected: 1, captured: 1
        )
    }

    /// Strings that break naive XML, workflow commands and Markdown tables.
    static let hostile = SnapshotResult(
        file: "Snapshots/we,ird: 100%.json", name: "a</failure>]]>&\"'<b>|*x*",
        profile: "default",
        entries: [
            EntryResult(
                path: "/requests/0", location: nil, summary: "GET https://x.test/?a=1&b=<2>", status: .mismatched,
                request: nil)
        ],
        findings: [
            Finding(
                code: .valueMismatch, path: "/requests/0/body/text", entry: "/requests/0",
                location: SourceLocation(line: 2, column: 3),
                expected: "</failure>]]>", actual: "nul\u{0}bell\u{7}esc\u{1B}[31m|`tick`",
                message: "50% off\nsecond line, really: yes\r\u{0}</failure>]]>"),
            Finding(
                code: .unexpectedKey, path: "/requests/0/body/extra", entry: "/requests/0", location: nil,
                expected: nil, actual: ["k": "v, w"], message: "extra, key: 100%"),
            Finding(
                code: .countMismatch, path: "/requests/0", entry: "/requests/0", location: nil,
                message: "seen twice\u{1B}[2J\nclear screen"),
        ],
        selected: 1, captured: 1
    )

    /// A failing snapshot with `count` errors and `warnings` warnings, warnings listed first.
    static func many(errors count: Int, warnings: Int = 0) -> SnapshotResult {
        let warningFindings = (0..<warnings).map {
            Finding(
                code: .unexpectedKey, severity: .warning, path: "/events/0/properties/w\($0)", entry: "/events/0",
                location: SourceLocation(line: 100 + $0, column: 7), actual: .number($0), message: "warning \($0)")
        }
        let errorFindings = (0..<count).map {
            Finding(
                code: .valueMismatch, path: "/events/0/properties/p\($0)", entry: "/events/0",
                location: SourceLocation(line: 10 + $0, column: 7), expected: .number($0), actual: .number($0 + 1),
                message: "p\($0) differs")
        }
        return SnapshotResult(
            file: "Snapshots/many.json", name: "many", profile: "default",
            entries: [
                EntryResult(
                    path: "/events/0", location: SourceLocation(line: 4, column: 5), summary: "segment Many",
                    status: .mismatched, request: track)
            ],
            findings: warningFindings + errorFindings, selected: 1, captured: 1
        )
    }

    static let acceptOptions = ReportOptions(color: false, acceptCommand: { "tracksnap accept '\($0.file)'" })
}

/// Removes ANSI SGR sequences, to compare a coloured report with a plain one.
func strippingANSI(_ text: String) -> String {
    text.replacing(/\u{1B}\[[0-9;]*m/, with: "")
}
