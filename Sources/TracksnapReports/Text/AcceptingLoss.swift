import TracksnapJSON
import TracksnapValidation

extension SnapshotResult {
    /// What accepting the capture (re-recording the snapshot from it) would remove: the
    /// expected entries nothing captured matched, named as the report names them; nil when
    /// nothing expected would be lost. Shown before every suggestion to accept, so that
    /// accepting a failure never drops an event without a word.
    ///
    /// ```swift
    /// result.acceptingLoss
    /// // 1 expected entry that nothing captured matched: /requests/1 POST https://collect.example/v1/track (line 8)
    /// ```
    package var acceptingLoss: String? {
        let lost = entries.filter { $0.status == .missing }
        guard !lost.isEmpty else { return nil }
        let shown = 3
        var names = lost.prefix(shown).map { entry in
            [entry.path, VisibleText.inline(entry.summary), entry.location.map { "(line \($0.line))" }]
                .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        }
        if lost.count > shown { names.append("and \(lost.count - shown) more") }
        let noun = lost.count == 1 ? "entry" : "entries"
        return "\(lost.count) expected \(noun) that nothing captured matched: " + names.joined(separator: ", ")
    }
}
