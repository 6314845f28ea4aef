import TracksnapJSON
import TracksnapSnapshot

extension PersonalData {
    /// `tracksnap lint`'s warnings about a snapshot whose recorded values hold personal data
    /// (written by hand, or recorded by a tracksnap that wrote them as sent): one per value, at
    /// the line and column of the value that holds it, naming the kind, the value masked. What
    /// the snapshot's profile (its `validator`, else `default`) and its own `"personalData"`
    /// turn off or allow is not reported; a matcher's own text (a `$regex`) is searched too.
    ///
    /// ```text
    /// Snapshots/signup.json:9:22: warning: email in clear at /events/0/properties/contact: a***@example.com; …
    /// ```
    static func lintWarnings(in snapshot: Snapshot, document: JSONDocument, workspace: Workspace) -> [Diagnostic] {
        guard let top = document.value.objectValue else { return [] }
        let profile = (try? Profile.load(snapshot.validator ?? "default", workspace: workspace))?.personalData
        let policy = PersonalDataPolicy.applying(snapshot, to: profile ?? PersonalDataPolicy()).0
        var warnings: [Diagnostic] = []
        for section in ["requests", "events"] {
            for (index, entry) in (top[section]?.arrayValue ?? []).enumerated() {
                for hit in hits(in: entry, addresses: { $0.first == "properties" })
                where policy.severity(of: hit.kind, forbidden: true) != nil && !policy.allows(hit.kind, at: hit.path) {
                    // Inside an encoding, the pointer goes on past the file's value: the warning
                    // stands at the value that holds it.
                    var tokens = [section, String(index)] + hit.path
                    var pointer = tokens.reduce("") { JSONPointer.appending($0, $1) }
                    while tokens.count > 2, snapshot.locations[pointer] == nil {
                        tokens.removeLast()
                        pointer = tokens.reduce("") { JSONPointer.appending($0, $1) }
                    }
                    let shown = ([section, String(index)] + hit.path).reduce("") { JSONPointer.appending($0, $1) }
                    warnings.append(
                        Diagnostic(
                            .warning, file: document.file, path: pointer, location: snapshot.locations[pointer],
                            message:
                                "\(hit.kind.rawValue) in clear at \(shown): \(hit.masked); a snapshot is committed: write a pattern ({\"$regex\": …}; `tracksnap record` writes one) or allow the field in \"personalData\""
                        ))
                }
            }
        }
        return warnings
    }
}
