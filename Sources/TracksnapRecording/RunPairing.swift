import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

/// Pairs a later run's entries with the first run's when recording from several runs, by the
/// alignment validation uses, and refuses runs that are not the same flow. Runs that differ only
/// in order are the same flow: their order is what the recording learns.
///
/// ```swift
/// let pairing = try RunPairing.pair(run2, with: firstAsExpected, firstItems: run1, kind: .event,
///                                   ignore: rules, names: ("run1.ndjson", "run2.ndjson"))
/// pairing.counterparts[3]  // the index in run 2 of the first run's entry 3
/// pairing.inOrder          // false when run 2 sent the same entries in another order
/// ```
enum RunPairing {
    /// - Parameters:
    ///   - items: the later run's entries.
    ///   - expected: the first run's entries as a snapshot of the first run alone would write them.
    ///   - firstItems: the first run's entries (for messages).
    ///   - kind: requests or events.
    ///   - ignore: the profile's ignore rules.
    ///   - names: how messages name the first run and this one.
    /// - Returns: for each of the first run's entries, the index of its counterpart in `items`,
    ///   and whether they come in the first run's order.
    /// - Throws: `InputError` naming the later run and the first entry with no counterpart in any order.
    static func pair(
        _ items: [SnapshotRecorder.RecordedItem], with expected: [JSONValue],
        firstItems: [SnapshotRecorder.RecordedItem], kind: ExpectedEntry.Kind,
        ignore: IgnoreRules, names: (first: String, run: String)
    ) throws(InputError) -> (counterparts: [Int], inOrder: Bool) {
        let section = kind == .request ? "requests" : "events"
        let document = JSONDocument(file: names.first, value: [section: .array(expected)], locations: [:])
        let entries =
            try
            (kind == .request ? Snapshot.parse(document: document).requests : Snapshot.parse(document: document).events)
        // Any order: the assignment of least total mismatch, so that entries alike but for their
        // content (one URL, three events) pair by content, not by place.
        let alignment = Aligner(expected: entries, actual: items.map(\.view), ignore: ignore, strictObjects: false)
            .align(order: .any)

        var counterpart = [Int?](repeating: nil, count: expected.count)
        var problems: [(position: Int, message: String)] = []
        for (e, a) in alignment.pairs {
            if identity(of: entries[e]).accepts(items[a].view) {
                counterpart[e] = a
            } else {
                problems.append(
                    (
                        a,
                        "\(items[a].label) has no counterpart in the first run (\(names.first)): there, \(firstItems[e].label) stands in its place"
                    ))
            }
        }
        for (_, a) in alignment.duplicates {
            problems.append((a, "\(items[a].label) is sent more times than in the first run (\(names.first))"))
        }
        for a in alignment.unexpected {
            problems.append((a, "\(items[a].label) has no counterpart in the first run (\(names.first))"))
        }
        for e in alignment.missing {
            problems.append(
                (e, "the first run's \(firstItems[e].label) (\(names.first)) has no counterpart in this run"))
        }
        guard let first = problems.min(by: { $0.position < $1.position }) else {
            let counterparts = counterpart.compactMap { $0 }
            return (counterparts, zip(counterparts, counterparts.dropFirst()).allSatisfy { $0 < $1 })
        }
        let noun = kind == .request ? "request" : "event"
        let counts =
            items.count == firstItems.count
            ? ""
            : "; the first run has \(firstItems.count) \(noun)\(firstItems.count == 1 ? "" : "s"), this one \(items.count)"
        throw InputError(file: names.run, message: "not the same flow as the first run: \(first.message)\(counts)")
    }

    /// The fields that say which entry it is (`method` and `url`; `vendor`, `type` and `name`).
    private static func identity(of entry: ExpectedEntry) -> Matcher {
        guard case .object(let members, _) = entry.matcher else { return entry.matcher }
        let keys = ExpectedEntry.identityKeys(entry.kind)
        return .object(members.filter { keys.contains($0.key) }, strict: false)
    }
}
