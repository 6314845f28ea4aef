import Synchronization
import TracksnapSnapshot
public import TracksnapTraffic

/// Turns captured requests into analytics events with a list of decoders.
///
/// ```swift
/// let result = Decoders.decode(request, using: VendorDecoder.all)
/// result.events.map(\.name)  // ["Order Completed", "Checkout Started"]
/// ```
public enum Decoders {
    /// Decodes a request with the first decoder that claims it.
    ///
    /// - Parameters:
    ///   - request: the captured request.
    ///   - decoders: the decoders to try, in order; `VendorDecoder.all` by default.
    /// - Returns: the events, `.unclaimed` when no decoder recognises the request, or
    ///   `.failed` with the reason when the claiming decoder cannot decode it.
    public static func decode(_ request: CapturedRequest, using decoders: [VendorDecoder] = VendorDecoder.all)
        -> DecodeResult
    {
        for decoder in decoders {
            let result = decode(request, by: decoder)
            if case .unclaimed = result { continue }
            return result
        }
        return .unclaimed
    }

    /// What one decoder makes of a request, read from the task's `DecodeCache` when there is one.
    package static func decode(_ request: CapturedRequest, by decoder: VendorDecoder) -> DecodeResult {
        DecodeCache.current?.decoded(request, by: decoder) ?? run(decoder, on: request)
    }

    /// The one place a decoder is run on a request for the decoding above (cached or not), so
    /// that `DecoderCalls` counts every decoding.
    static func run(_ decoder: VendorDecoder, on request: CapturedRequest) -> DecodeResult {
        let result = decoder.decode(request)
        if case .unclaimed = result { return result }
        DecoderCalls.decoded(request, by: decoder)
        return result
    }
}

/// What each decoder made of each request, kept while a check is asked again and again as
/// traffic arrives (a wait asks on every arrival, then validates): `Decoders.decode`, and so a
/// profile's selection and its vendor filters, read it while it is `current`, so that a request
/// is decoded once by its decoder for the whole wait. Keyed by the request's id and the
/// decoder (`VendorDecoder.identity`, not its vendor: one of your own may share a built-in's
/// vendor), so only for requests whose ids are unique (as a store or an in-process capture
/// numbers them; a file's may repeat). A list of decoders reads each of its decoders' entries in
/// turn, so two lists that share a decoder (the built-ins and a profile's, two inspectors on one
/// profile) share what it made of a request: the one key a decoding is kept under.
///
/// A cache may keep nothing of its own and read each request's decodings from a cache kept
/// beside the request instead (`init(perRequest:)`): the server's wait and validation read the
/// store's observation of each request, which its inspectors read too, so that one decoder
/// decodes a request once whoever asks first.
///
/// ```swift
/// let decodes = DecodeCache()
/// DecodeCache.$current.withValue(decodes) { profile.select(requests, decodingEvents: true) }
/// let shared = DecodeCache { request in store.observation(of: request).decodes }
/// ```
package final class DecodeCache: Sendable {
    /// The cache the decoding in this task reads and fills; nil decodes every time.
    @TaskLocal package static var current: DecodeCache?

    private struct Key: Hashable {
        let request: String
        let decoder: Int
    }
    /// One decoding, made under its own lock: a reader that asks while another decodes waits for
    /// that decoding rather than making it again, and a decoder that decodes with another decoder
    /// (one of your own around a built-in) takes another slot's lock, not this one's.
    private final class Slot: Sendable {
        let result = Mutex<DecodeResult?>(nil)
    }
    private let slots = Mutex<[Key: Slot]>([:])
    /// Where a request's own cache is found, when the decodings are kept beside each request.
    private let perRequest: (@Sendable (CapturedRequest) -> DecodeCache)?
    /// The caches `perRequest` found, by request id: looked up once a request, however many
    /// decoders and asks read it.
    private let found = Mutex<[String: DecodeCache]>([:])

    package init() {
        perRequest = nil
    }

    /// A cache that keeps each request's decodings in the cache `lookup` finds for it (one
    /// only for that request as captured, whose id is unique), asked once a request.
    package init(perRequest lookup: @escaping @Sendable (CapturedRequest) -> DecodeCache) {
        perRequest = lookup
    }

    /// The request's decoding by this decoder, made on the first ask.
    func decoded(_ request: CapturedRequest, by decoder: VendorDecoder) -> DecodeResult {
        if let perRequest {
            let own = found.withLock { found in
                if let known = found[request.id] { return known }
                let cache = perRequest(request)
                found[request.id] = cache
                return cache
            }
            if own !== self { return own.decoded(request, by: decoder) }
        }
        let key = Key(request: request.id, decoder: decoder.identity)
        let slot = slots.withLock { slots in
            if let known = slots[key] { return known }
            let slot = Slot()
            slots[key] = slot
            return slot
        }
        return slot.result.withLock { result in
            if let result { return result }
            let made = Decoders.run(decoder, on: request)
            result = made
            return made
        }
    }
}

/// A test's hook: counts how many times a decoder claimed and read a request whose URL
/// contains a marker (`Decoders.run`), by the decoder's vendor, as `CarriedSearches` counts
/// searches: so that a test can tell a request was decoded once per decoder set however many
/// read it.
package enum DecoderCalls {
    private static let watching = Atomic<Bool>(false)
    private static let counts = Mutex<[String: [String: Int]]>([:])

    /// Counts, from now on, the decodings of requests whose URL contains `marker`.
    package static func watch(_ marker: String) {
        counts.withLock { $0[marker] = [:] }
        watching.store(true, ordering: .releasing)
    }

    /// How many times each vendor's decoder read a request marked `marker` since it was watched.
    package static func count(_ marker: String) -> [String: Int] {
        counts.withLock { $0[marker] } ?? [:]
    }

    static func decoded(_ request: CapturedRequest, by decoder: VendorDecoder) {
        guard watching.load(ordering: .acquiring) else { return }
        counts.withLock { counts in
            for marker in counts.keys where request.url.contains(marker) {
                counts[marker]?[decoder.vendor, default: 0] += 1
            }
        }
    }
}
