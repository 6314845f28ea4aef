import TracksnapValidation

/// A snapshot's findings sorted the way a reader takes them in: per expected entry (a near miss
/// shows all its differing fields together), then missing entries, then unexpected traffic.
struct FindingGroups {
    /// The findings of one expected entry, or of one pointer that names no known entry.
    struct EntryBlock {
        var path: String
        var entry: EntryResult?
        var findings: [Finding]
        /// The captured request the entry was paired with.
        var request: RequestReference? { entry?.request ?? findings.lazy.compactMap(\.request).first }
    }

    private(set) var entries: [EntryBlock] = []
    private(set) var missing: [Finding] = []
    private(set) var unexpected: [Finding] = []
    /// Broken vendor rules, and requests a cassette had no answer for: about a captured
    /// request, not an expected entry.
    private(set) var rules: [Finding] = []
    private(set) var replayMisses: [Finding] = []
    /// Events a tracking plan lacks or refuses: about a captured event, not an expected entry.
    private(set) var plan: [Finding] = []
    /// The privacy section (`FindingCode.Category.privacy`: personal data found in the traffic,
    /// its values masked): about a captured request or event.
    private(set) var privacy: [Finding] = []
    private let entryByPath: [String: EntryResult]

    init(_ result: SnapshotResult) {
        entryByPath = Dictionary(result.entries.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        var byEntry: [String: [Finding]] = [:]
        var order: [String] = []
        for finding in result.findings {
            if finding.code.category == .privacy {
                privacy.append(finding)
                continue
            }
            switch finding.code {
            case .missingEvent: missing.append(finding)
            case .unexpectedEvent: unexpected.append(finding)
            case .vendorRule: rules.append(finding)
            case .replayMiss: replayMisses.append(finding)
            case .unplannedEvent, .planViolation: plan.append(finding)
            default:
                // A finding outside any entry (a snapshot-wide count, say) is grouped under the root.
                let key = finding.entry ?? ""
                if byEntry[key] == nil { order.append(key) }
                byEntry[key, default: []].append(finding)
            }
        }
        // Snapshot order first, then pointers the entry list does not name, as they came.
        let known = result.entries.map(\.path).filter { byEntry[$0] != nil }
        let seen = Set(known)
        for path in known + order.filter({ !seen.contains($0) }) {
            entries.append(EntryBlock(path: path, entry: entryByPath[path], findings: byEntry[path] ?? []))
        }
    }

    func entry(_ path: String?) -> EntryResult? {
        path.flatMap { entryByPath[$0] }
    }
}
