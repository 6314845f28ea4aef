/// Captured requests in arrival order, keeping at most `limit` of them (the oldest go first).
///
/// ```swift
/// var log = RequestLog(limit: 2)
/// log.append(a); log.append(b); log.append(c)  // true: `a` was dropped
/// log.all                                      // [b, c]
/// ```
package struct RequestLog: Sendable {
    package let limit: Int?
    /// With a limit, a ring: once full, the newest request overwrites the oldest at `start`,
    /// so that exactly `limit` requests are held, never more, at O(1) per append.
    private var storage: [CapturedRequest] = []
    private var start = 0

    package init(limit: Int?) {
        self.limit = limit
    }

    package var count: Int { storage.count }

    /// How many requests the storage holds, dropped ones included if any were kept: equal to
    /// `count`, so that a test can show a dropped request is freed at once.
    package var retained: Int { storage.count }

    package var all: [CapturedRequest] { Array(storage[start...] + storage[..<start]) }

    /// Appends a request.
    ///
    /// - Returns: whether the oldest request was dropped to stay within the limit.
    @discardableResult
    package mutating func append(_ request: CapturedRequest) -> Bool {
        guard let limit, storage.count >= limit else {
            storage.append(request)
            return false
        }
        guard limit > 0 else { return true }
        storage[start] = request
        start = (start + 1) % limit
        return true
    }

    package mutating func removeAll() {
        storage = []
        start = 0
    }
}
