import Patterns
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

/// Re-recording: merges an existing entry's expectations with what was captured again, keeping
/// every matcher that still accepts the new value and taking the newly recorded value elsewhere.
///
/// The merge is guided by the captured value, so the result validates against it: whatever is
/// kept accepts it, whatever is replaced was recorded from it.
struct PatternKeeper {
    let ignore: IgnoreRules

    /// - Parameters:
    ///   - matcher: the existing expectation.
    ///   - full: the new recording of this value, every header included.
    ///   - trimmed: the new recording as it is written for a new entry (listed headers only).
    ///   - actual: the captured value (its validation view).
    /// - Returns: the JSON to write, or nil to leave the key out.
    func merge(
        _ matcher: Matcher, full: JSONValue?, trimmed: JSONValue?, actual: JSONValue?, tokens: [String] = [],
        lenient: Bool = false
    ) -> JSONValue? {
        // An ignored field is never compared: what a person wrote there stays.
        if !tokens.isEmpty, ignore.ignores(tokens) { return matcher.json }
        let recorded = trimmed ?? full
        // Runs that sent an array's elements in another order: the learnt `$unordered` replaces an array.
        if case .array = matcher, full?.objectValue?.count == 1, full?["$unordered"] != nil { return recorded }
        switch matcher {
        case .object(let members, _):
            guard let actualObject = actual?.objectValue, let fullObject = full?.objectValue else {
                return keepIfAccepted(matcher, recorded: recorded, full: full, actual: actual, lenient: lenient)
            }
            let trimmedObject = trimmed?.objectValue ?? [:]
            var out: [String: JSONValue] = [:]
            for member in members {
                // Parameters and headers are strings on the wire: `12` in a snapshot means "12".
                let childLenient =
                    lenient || (tokens.isEmpty && (member.key == "parameters" || member.key == "headers"))
                if let merged = merge(
                    member.matcher, full: fullObject[Matcher.Member.token(for: member.key)],
                    trimmed: trimmedObject[Matcher.Member.token(for: member.key)], actual: actualObject[member.key],
                    tokens: tokens + [member.token], lenient: childLenient)
                {
                    out[member.token] = merged
                }
            }
            for (key, value) in trimmedObject
            where !members.contains(where: { Matcher.Member.token(for: $0.key) == key }) {
                out[key] = value
            }
            return .object(out)
        case .array(let items):
            guard let actualArray = actual?.arrayValue, let fullArray = full?.arrayValue,
                fullArray.count == actualArray.count
            else {
                return keepIfAccepted(matcher, recorded: recorded, full: full, actual: actual, lenient: lenient)
            }
            let trimmedArray = trimmed?.arrayValue
            return .array(
                actualArray.indices.map { index in
                    let recordedItem = trimmedArray.flatMap { index < $0.count ? $0[index] : nil } ?? fullArray[index]
                    guard index < items.count else { return recordedItem }
                    return merge(
                        items[index], full: fullArray[index], trimmed: recordedItem, actual: actualArray[index],
                        tokens: tokens + [String(index)], lenient: lenient) ?? recordedItem
                })
        case .unordered(let items):
            return mergeUnordered(
                items, full: full, trimmed: trimmed, actual: actual, tokens: tokens, lenient: lenient,
                fallback: keepIfAccepted(matcher, recorded: recorded, full: full, actual: actual, lenient: lenient))
        case .szimpla(let string, let pattern):
            guard matcher.accepts(actual, lenient: lenient), !EntryRecorder.isRedaction(full) else { return recorded }
            // A Szimpla string is a literal and a pattern at once; the new file says which it was.
            guard let pattern, actual?.scalarText != string else { return recorded }
            return ["$regex": .string(pattern.source)]
        default:
            return keepIfAccepted(matcher, recorded: recorded, full: full, actual: actual, lenient: lenient)
        }
    }

    /// A `$unordered` stays one: its elements paired with the captured ones by content, as
    /// validation pairs them, each merged with its counterpart, in the snapshot's order; captured
    /// elements nothing pairs with follow, as recorded.
    private func mergeUnordered(
        _ items: [Matcher], full: JSONValue?, trimmed: JSONValue?, actual: JSONValue?, tokens: [String],
        lenient: Bool, fallback: @autoclosure () -> JSONValue?
    ) -> JSONValue? {
        guard let actualArray = actual?.arrayValue, let fullArray = full?.arrayValue ?? full?["$unordered"]?.arrayValue,
            fullArray.count == actualArray.count
        else { return fallback() }
        let trimmedArray = trimmed?.arrayValue ?? trimmed?["$unordered"]?.arrayValue
        let alignment = Aligner(
            elements: items, of: actualArray, ignore: ignore, strictObjects: false, at: tokens, lenient: lenient
        ).align(order: .any)
        var element: [Int: Int] = [:]
        for (e, a) in alignment.pairs { element[a] = e }
        let order = alignment.pairs.map(\.actual) + actualArray.indices.filter { element[$0] == nil }
        return [
            "$unordered": .array(
                order.map { a in
                    let recordedItem = trimmedArray.flatMap { a < $0.count ? $0[a] : nil } ?? fullArray[a]
                    guard let e = element[a] else { return recordedItem }
                    return merge(
                        items[e], full: fullArray[a], trimmed: recordedItem, actual: actualArray[a],
                        tokens: tokens + [String(a)], lenient: lenient) ?? recordedItem
                })
        ]
    }

    /// The existing matcher when it still accepts the value, except a literal where the new
    /// recording hides a secret: a literal there would be the secret itself.
    private func keepIfAccepted(
        _ matcher: Matcher, recorded: JSONValue?, full: JSONValue?, actual: JSONValue?, lenient: Bool
    ) -> JSONValue? {
        guard matcher.accepts(actual, lenient: lenient) else { return recorded }
        switch matcher {
        case .literal, .exact, .object, .array, .unordered:
            return EntryRecorder.isRedaction(full) ? recorded : matcher.json
        default:
            return matcher.json
        }
    }
}
