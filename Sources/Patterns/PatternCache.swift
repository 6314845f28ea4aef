import Synchronization

/// The process-wide cache of compiled patterns behind `Pattern.cached(_:options:)`.
///
/// Bounded: when full it is emptied and starts again, which keeps a lookup to one dictionary
/// access under the lock; a workload with more distinct patterns than the bound recompiles
/// some, and none is held longer than a `Pattern` value needs it.
final class PatternCache: Sendable {
    static let shared = PatternCache(capacity: 4096)

    private struct Key: Hashable {
        let source: String
        let options: Pattern.Options
    }

    let capacity: Int
    private let entries = Mutex<[Key: CompiledPattern]>([:])

    init(capacity: Int) {
        self.capacity = capacity
    }

    func compiled(source: String, options: Pattern.Options) throws(PatternError) -> CompiledPattern {
        let key = Key(source: source, options: options)
        if let found = entries.withLock({ $0[key] }) { return found }
        // Compiled outside the lock so that one slow compilation does not stall every thread;
        // if two threads race, the first stored wins and the other copy is dropped.
        let compiled = try CompiledPattern(source: source, options: options)
        return entries.withLock { entries in
            if let found = entries[key] { return found }
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = compiled
            return compiled
        }
    }

    var count: Int { entries.withLock { $0.count } }
}
