/// Captured requests in arrival order, keeping at most `limit` of them (the oldest go first).
///
/// ```swift
/// var log = RequestLog(limit: 2)
/// log.append(a); log.append(b); log.append(c)  // true: `a` was dropped
/// log.all                                      // [b, c]
/// ```
package struct RequestLog: Sendable {
    /// With a limit, once full, each new request drops the oldest, so that exactly `limit`
    /// requests are held, never more, at O(1) per append.
    private var ring: Ring<CapturedRequest>

    package init(limit: Int?) {
        ring = Ring(limit: limit)
    }

    package var limit: Int? { ring.limit }

    package var count: Int { ring.count }

    /// How many requests the storage holds, dropped ones included if any were kept: equal to
    /// `count`, so that a test can show a dropped request is freed at once.
    package var retained: Int { ring.retained }

    package var all: [CapturedRequest] { ring.all }

    /// The latest `count` requests (all of them when fewer are held), oldest first.
    package func latest(_ count: Int) -> [CapturedRequest] { ring.latest(count) }

    /// Appends a request.
    ///
    /// - Returns: whether the oldest request was dropped to stay within the limit.
    @discardableResult
    package mutating func append(_ request: CapturedRequest) -> Bool {
        ring.append(request) != nil
    }

    package mutating func removeAll() {
        ring.removeAll()
    }
}
