import Foundation
public import TracksnapJSON
import TracksnapRecording
import TracksnapSnapshot
import TracksnapTraffic

extension Cassette {
    /// One cassette from the recordings of several runs of the same flow: the first run's
    /// interactions and answers, with what differs between the runs' requests (a query
    /// parameter, a field of a JSON body) written as the narrowest matcher every run passes (a
    /// UUID, a timestamp, digits, else a type), so that the next run, with new ids and times,
    /// is answered too. None of DVR, Vinyl or VCR can.
    ///
    /// ```swift
    /// let (cassette, learnt) = try Cassette.learning(from: [run1, run2], names: ["run1.json", "run2.json"])
    /// learnt  // ["interaction 1: query ts (epoch-ms)", "interaction 2: /nonce (uuid)"]
    /// ```
    /// Interactions are paired by method and path, the nth of each in one run with the nth in
    /// the others. A text body that differs is kept as the first run's, and said so. Each run is
    /// read as a recording keeps it (`Interaction.recorded`), its secrets hidden before anything
    /// is compared: a token that differs between runs is `[redacted]` in each, never a pattern.
    /// - Parameters:
    ///   - runs: each run's cassette, the first run first.
    ///   - names: how errors name each run (its file).
    /// - Returns: the cassette, in tracksnap's format, and a line per value learnt.
    /// - Throws: `InputError` when a run lacks an interaction the first has (not the same flow).
    public static func learning(from runs: [Cassette], names: [String]) throws(InputError) -> (
        cassette: Cassette, learnt: [String]
    ) {
        let runs = runs.map { run in
            Cassette(
                name: run.name, format: run.format,
                interactions: run.interactions.map { $0.recorded(decodingUpTo: CassettePlayer.recordedBytesKept) })
        }
        guard let first = runs.first else { return (Cassette(format: .tracksnap, interactions: []), []) }
        var learnt: [String] = []
        var interactions: [JSONValue] = []
        // Each later run's interactions by method and path, in order: the nth pairs with the first run's nth.
        let later = runs.dropFirst().map { Dictionary(grouping: $0.interactions, by: Self.pairing) }
        var seen: [String: Int] = [:]
        for (index, interaction) in first.interactions.enumerated() {
            let key = Self.pairing(interaction)
            let occurrence = seen[key, default: 0]
            seen[key] = occurrence + 1
            var alike: [Interaction] = [interaction]
            for (offset, same) in later.enumerated() {
                guard let match = same[key]?.dropFirst(occurrence).first else {
                    let run = offset + 1
                    throw InputError(
                        file: run < names.count ? names[run] : "run \(run + 1)",
                        message:
                            "not the same flow as \(names.first ?? "the first run"): it has no request \(occurrence + 1) for \(key)"
                    )
                }
                alike.append(match)
            }
            // A run without times (a DVR cassette may lack them) is taken as recorded now.
            let times = alike.map {
                Generalizer.Run(time: $0.recordedAt.map(Date.init(timeIntervalSince1970:)) ?? Date())
            }
            var json = interaction.json.objectValue ?? [:]
            var request = json["request"]?.objectValue ?? [:]
            let place = "interaction \(index + 1)"

            // The query: a parameter whose values differ becomes a matcher; the others stay as sent.
            let queries = alike.map {
                Dictionary($0.request.captured.queryItems.map { ($0.name, $0.value) }) { _, last in last }
            }
            if queries.contains(where: { $0 != queries[0] }) {
                var query: [String: JSONValue] = [:]
                for name in queries[0].keys.sorted() {
                    let values = queries.compactMap { $0[name] }.map(JSONValue.string)
                    guard values.count == queries.count else { continue }
                    let shared = Generalizer.common(values, runs: times)
                    query[name] = shared.matcher
                    if shared.matcher != values[0] { learnt.append("\(place): query \(name) (\(shared.reason))") }
                }
                request["query"] = .object(query)
                request["url"] = .string(String(interaction.request.url.prefix { $0 != "?" }))
            }

            // The body: each JSON field that differs becomes a matcher.
            let bodies = alike.map(\.request.body)
            if case .json = bodies[0], bodies.contains(where: { $0 != bodies[0] }) {
                let values = bodies.compactMap { body -> JSONValue? in
                    if case .json(let value) = body { return value }
                    return nil
                }
                if values.count == bodies.count {
                    request["json"] = Self.common(values, at: "", runs: times, place: place, learnt: &learnt)
                }
            } else if bodies.contains(where: { $0 != bodies[0] }) {
                learnt.append("\(place): the body differs and is not JSON: kept as the first run's")
            }
            json["request"] = .object(request)
            interactions.append(.object(json))
        }
        var top: [String: JSONValue] = ["cassette": .number("1"), "interactions": .array(interactions)]
        if let name = first.name { top["name"] = .string(name) }
        let learned = try Cassette.read(Array(JSONValue.object(top).serialized().utf8), file: names.first ?? "learnt")
        return (learned.cassette, learnt)
    }

    /// What pairs an interaction with its like in another run: its method and path.
    private static func pairing(_ interaction: Interaction) -> String {
        let request = interaction.request.captured
        return "\(request.method.uppercased()) \(request.path)"
    }

    /// The value every run's JSON shares: objects by their common keys (a matcher object is a
    /// subset), arrays of one length element by element, anything else alike as it is, else the
    /// recorder's narrowest matcher.
    private static func common(
        _ values: [JSONValue], at pointer: String, runs: [Generalizer.Run], place: String, learnt: inout [String]
    ) -> JSONValue {
        if values.allSatisfy({ $0 == values[0] }) { return values[0] }
        if let objects = values.map(\.objectValue) as? [[String: JSONValue]] {
            var out: [String: JSONValue] = [:]
            for key in objects[0].keys.sorted() where objects.allSatisfy({ $0[key] != nil }) {
                out[key] = common(
                    objects.compactMap { $0[key] }, at: JSONPointer.appending(pointer, key), runs: runs, place: place,
                    learnt: &learnt)
            }
            return .object(out)
        }
        if let arrays = values.map(\.arrayValue) as? [[JSONValue]], arrays.allSatisfy({ $0.count == arrays[0].count }) {
            return .array(
                arrays[0].indices.map { index in
                    common(
                        arrays.map { $0[index] }, at: JSONPointer.appending(pointer, index), runs: runs, place: place,
                        learnt: &learnt)
                })
        }
        let shared = Generalizer.common(values, runs: runs)
        learnt.append("\(place): \(pointer.isEmpty ? "the body" : pointer) (\(shared.reason))")
        return shared.matcher
    }
}
