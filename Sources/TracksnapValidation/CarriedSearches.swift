import Synchronization
import TracksnapTraffic

/// How many times the requests a test marks were searched for what they carry (their secrets,
/// `CapturedRequest.carriedSecrets`, and their personal data, `carriedPersonalData`): each such
/// search walks the whole request, body included, at any depth of any encoding, so that a test
/// can hold the server to one of each per request however many readers want it.
///
/// ```swift
/// CarriedSearches.watch("/e/counted")
/// // … a request to /e/counted captured and read by several readers …
/// CarriedSearches.count("/e/counted")  // (secrets: 1, personalData: 1)
/// ```
///
/// Nothing is counted until a marker is watched; then only the searches of requests whose URL
/// contains a marker, so that tests running in parallel do not count each other's.
package enum CarriedSearches {
    private static let watching = Atomic<Bool>(false)
    private static let counts = Mutex<[String: (secrets: Int, personalData: Int)]>([:])

    /// Counts, from now on, the searches of requests whose URL contains `marker`.
    package static func watch(_ marker: String) {
        counts.withLock { $0[marker] = (0, 0) }
        watching.store(true, ordering: .releasing)
    }

    /// The searches counted for `marker` since it was watched.
    package static func count(_ marker: String) -> (secrets: Int, personalData: Int) {
        counts.withLock { $0[marker] } ?? (0, 0)
    }

    static func searched(_ request: CapturedRequest, secrets: Bool) {
        guard watching.load(ordering: .acquiring) else { return }
        counts.withLock { counts in
            for (marker, count) in counts where request.url.contains(marker) {
                counts[marker] =
                    secrets ? (count.secrets + 1, count.personalData) : (count.secrets, count.personalData + 1)
            }
        }
    }
}
