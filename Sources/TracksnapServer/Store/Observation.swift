import Synchronization
import TracksnapDecoders
import TracksnapTraffic
import TracksnapValidation

/// What the server reads of one captured request, each part found at most once however many
/// readers ask (the log, the journal, every inspector, every events wait, every answer): its
/// secrets, the personal data its fields name, the events the built-in decoders read from it,
/// what each decoder (built-in, of one's own, a profile's) made of it (`DecodeCache`, keyed by the
/// decoder: an inspector reading with a profile shares what its decoders made with every other
/// reader whose decoders are the same ones), and the inspector's line. A reader that asks while
/// another finds a part waits for that one rather than finding it again.
///
/// Filled lazily, on the first read, not at capture: a request nothing reads (the collector
/// under load, no inspector, no wait) costs nothing, which is what keeps the capture's hot path
/// at its speed. The store keeps it beside the request for the latest requests read
/// (`CaptureStore.observation(of:)`); an older one is observed again if asked for.
///
/// ```swift
/// let observed = store.observation(of: request)
/// observed.decoded(request).events.count   // decoded once, for every reader
/// ```
final class Observation: Sendable {
    private let secrets = Mutex<Set<String>?>(nil)
    private let personalData = Mutex<[String: String]?>(nil)
    private let decoded = Mutex<DecodeResult?>(nil)
    /// What each decoder made of the request as captured: what `decoded`, the inspector's
    /// personal-data search (the `default` profile's decoders) and a reading with a profile's
    /// decoders (`InspectedRequest.Reading`) read, and a validate call's wait and validation
    /// (`CaptureStore.decodes`).
    let decodes = DecodeCache()
    /// By `InspectedRequest.Reading.id`: the built-in reading's and a few profiles'.
    private let personalFindings = Mutex<[Int: [Finding]]>([:])
    private let inspected = Mutex<(key: InspectedRequest.Key, line: String)?>(nil)

    /// The request's secrets (`CapturedRequest.carriedSecrets`).
    func secrets(of request: CapturedRequest) -> Set<String> {
        secrets.withLock { found in
            if let found { return found }
            let searched = request.carriedSecrets
            found = searched
            return searched
        }
    }

    /// The request's personal data, each value with its mask (`CapturedRequest.carriedPersonalData`).
    func personalData(of request: CapturedRequest) -> [String: String] {
        personalData.withLock { found in
            if let found { return found }
            let searched = request.carriedPersonalData(view: request.validationView)
            found = searched
            return searched
        }
    }

    /// The events every built-in decoder reads from the request as captured (`Decoders.decode`).
    func decoded(_ request: CapturedRequest) -> DecodeResult {
        decoded.withLock { found in
            if let found { return found }
            let result = withDecodes { Decoders.decode(request) }
            found = result
            return result
        }
    }

    /// How many events `decoded` holds.
    func eventCount(of request: CapturedRequest) -> Int {
        decoded(request).events.count
    }

    /// Runs `body` with what the decoders made of the request at hand (`DecodeCache.current`):
    /// only for decodings of this request as captured.
    func withDecodes<T>(_ body: () -> T) -> T {
        DecodeCache.$current.withValue(decodes, operation: body)
    }

    /// The personal data the inspector shows for the request read one way (`reading`, an
    /// `InspectedRequest.Reading.id`), found once for each: the few most recent readings are
    /// kept (`readingsKept`), so that inspectors that come and go with profiles keep no more.
    func personalFindings(reading: Int, _ find: () -> [Finding]) -> [Finding] {
        personalFindings.withLock { found in
            if let known = found[reading] { return known }
            let searched = find()
            if found.count >= Self.readingsKept {
                found = found.filter { $0.key == InspectedRequest.Reading.builtIn.id }
            }
            found[reading] = searched
            return searched
        }
    }

    /// How many readings' personal data an observation keeps at most.
    static let readingsKept = 8

    /// The inspector's line for the request as a reader's redaction leaves it (`key`): made
    /// once, and again only for a reader whose redaction differs (one that knows other secrets).
    func inspected(as key: InspectedRequest.Key, _ make: () -> String) -> String {
        inspected.withLock { kept in
            if let kept, kept.key == key { return kept.line }
            let line = make()
            kept = (key, line)
            return line
        }
    }
}
