import TracksnapJSON
public import TracksnapTraffic

extension TracksnapClient {
    /// The snapshots under the server root's `Snapshots/` and the pending recordings beside
    /// them, each with its diff (`GET /__tracksnap/snapshots`): what the inspector reviews.
    ///
    /// ```swift
    /// for item in try await client.snapshots().snapshots where item.pending != nil { print(item.diff ?? "") }
    /// ```
    public func snapshots() async throws(TracksnapClientError) -> SnapshotListAnswer {
        try await send(.get, "snapshots").decode(SnapshotListAnswer.self, as: "a list of snapshots")
    }

    /// Moves the pending recording `X.new.json` over the snapshot `X.json`, as `tracksnap
    /// accept` does (`POST /__tracksnap/snapshots/accept`).
    ///
    /// - Parameter snapshot: `X.json` or `X.new.json`, relative to the server's root.
    /// - Throws: `TracksnapClientError`: 404 when nothing is pending.
    @discardableResult
    public func accept(snapshot: String) async throws(TracksnapClientError) -> PendingDecisionAnswer {
        try await decide("accept", snapshot)
    }

    /// Deletes the pending recording `X.new.json`, as `tracksnap reject` does
    /// (`POST /__tracksnap/snapshots/reject`).
    @discardableResult
    public func reject(snapshot: String) async throws(TracksnapClientError) -> PendingDecisionAnswer {
        try await decide("reject", snapshot)
    }

    private func decide(_ decision: String, _ snapshot: String) async throws(TracksnapClientError)
        -> PendingDecisionAnswer
    {
        try await send(.post, "snapshots/" + decision, body: .object(["snapshot": .string(snapshot)]))
            .decode(PendingDecisionAnswer.self, as: "a decision")
    }
}
