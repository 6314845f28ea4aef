import Synchronization

/// Request filters of your own, by the name a profile uses for them (`{"custom": "name"}`).
public enum FilterRegistry {
    private static let filters = Mutex<[String: any RequestFilter]>([:])

    /// Registers a filter; a later registration under the same name replaces it.
    public static func register(_ name: String, _ filter: any RequestFilter) {
        filters.withLock { $0[name] = filter }
    }

    public static func filter(named name: String) -> (any RequestFilter)? {
        filters.withLock { $0[name] }
    }
}
