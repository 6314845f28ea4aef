/// Captured requests in arrival order, keeping at most `limit` of them (the oldest go first).
///
/// ```swift
/// var log = RequestLog(limit: 2)
/// log.append(a); log.append(b); log.append(c)  // true: `a` was dropped
/// log.all                                      // [b, c]
/// ```
package struct RequestLog: Sendable {
    package let limit: Int?
    private var storage: [CapturedRequest] = []
    /// Dropped requests stay in `storage` until enough of them pile up to make compacting cheap
    /// (amortized O(1) per append); memory stays within about twice the limit.
    private var start = 0

    package init(limit: Int?) {
        self.limit = limit
    }

    package var count: Int { storage.count - start }

    package var all: [CapturedRequest] { Array(storage[start...]) }

    /// Appends a request.
    ///
    /// - Returns: whether the oldest request was dropped to stay within the limit.
    @discardableResult
    package mutating func append(_ request: CapturedRequest) -> Bool {
        storage.append(request)
        guard let limit, count > limit else { return false }
        start += 1
        if start >= Swift.max(limit, 64) {
            storage.removeFirst(start)
            start = 0
        }
        return true
    }

    package mutating func removeAll() {
        storage = []
        start = 0
    }
}
