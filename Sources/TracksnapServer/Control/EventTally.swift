package import TracksnapTraffic

/// The events a session's requests decode into, counted as they arrive, for an events wait
/// (`GET sessions/ID/requests?events=N`): each request's count is asked once (of its
/// `Observation`, so decoded once whoever else reads it), and a wait asked again after each
/// arrival adds the new requests' counts to its total, linear in the arrivals. Requests the
/// session forgot from its front (its `--max-requests`) are taken off the total; a list that
/// no longer starts with one counted (a reset) is counted again.
///
/// ```swift
/// var tally = EventTally()
/// tally.count(requests) { store.observation(of: $0).decoded($0).events.count }  // 3
/// ```
package struct EventTally {
    /// The requests counted, oldest first, from `start`: their ids and their events.
    private var counted: [(id: String, events: Int)] = []
    private var start = 0
    private var total = 0

    package init() {}

    /// The events `requests` (a session's, oldest first, only ever appended to or forgotten
    /// from the front) decode into, `events` asked only of those not counted before.
    package mutating func count(_ requests: [CapturedRequest], events: (CapturedRequest) -> Int) -> Int {
        forget(before: requests.first?.id)
        for request in requests.dropFirst(counted.count - start) {
            let found = events(request)
            counted.append((request.id, found))
            total += found
        }
        return total
    }

    /// Takes off the total the requests counted before `first`, or all of them when it is not
    /// among them.
    private mutating func forget(before first: String?) {
        guard start < counted.count, counted[start].id != first else { return }
        let kept = first.flatMap { id in counted[start...].firstIndex { $0.id == id } } ?? counted.count
        for index in start..<kept { total -= counted[index].events }
        start = kept
        if start == counted.count {
            counted = []
            start = 0
        } else if start > counted.count / 2 {
            counted.removeFirst(start)
            start = 0
        }
    }
}
