import Synchronization
import TracksnapDecoders
import TracksnapJSON
import TracksnapTraffic
import TracksnapValidation

/// A captured request as the inspector gets it: its secrets hidden as every control API answer
/// hides them (`Redactor`), and the events the built-in decoders (or a profile's: `Reading`)
/// read from the hidden request, so that no secret reaches an event either. The redactor knows
/// the secrets of every request the reader was sent before, as an answer's knows those of every
/// request it holds: a token one request sent in its `Authorization` is hidden where a later one
/// puts it in a URL.
///
/// ```json
/// {"request": {"id": "3", "method": "POST", "url": "http://127.0.0.1:8181/v1/batch", …},
///  "events": [{"vendor": "segment", "type": "track", "name": "Order Completed", "index": 0, …,
///              "rules": ["segment.event_size: …"]}],
///  "problems": ["segment: body is not JSON: …"]}
/// ```
///
/// `problems` lists what a decoder could not read, a body refused for its size, a cassette's
/// miss and the vendor limits the request as a whole breaks, `warnings` the recommendations it
/// does not follow (neither fails a validation by itself); each is absent when empty. An
/// event's `rules` lists the vendor limits it breaks, its `warnings` the vendor recommendations
/// it does not follow (`VendorRule`: every built-in rule of its vendor, as the built-in vendor
/// profiles check them, on the redacted request; with a profile,
/// the rules it turns on, a limit it checks as a warning among the `warnings`). `privacy`, on
/// the request and on an event, lists the personal data found in it (`personal_data` findings'
/// messages: the kind, the event, the JSON Pointer, the value masked). `vendor` names
/// the decoder that claimed the request and could not read it.
///
/// The costly part (decoding, the vendor rules, the personal-data search) is done once for a
/// request however many inspectors read it: kept in its `Observation` with the line, which a
/// reader takes as it is when its redaction leaves the request and the personal data's messages
/// as the first reader's did (every reader but one that knows other secrets: one connected
/// before a reset or after older requests were forgotten). A request its redaction leaves
/// unchanged is read with the events the server observed for it (`Observation.decoded`), those
/// an events wait counts.
enum InspectedRequest {
    /// What a reader's redaction makes of a request, which its line is made of: the request as
    /// redacted, and the personal data's messages as redacted.
    struct Key: Equatable, Sendable {
        let request: CapturedRequest
        let privacy: [String]
        /// The reading's `Reading.id`.
        let reading: Int
    }

    /// How a reader of the stream reads requests: with every built-in decoder and every built-in
    /// vendor rule (`builtIn`: the stream without `?profile=`), or as a profile does
    /// (`?profile=NAME`): its filter selects, its decoders decode (its protobuf decoder and
    /// decoders of one's own included), its vendor rules are checked at its severities and its
    /// personal-data policy finds, so that the reader sees the events `validate` with that
    /// profile reports. A request its filter leaves out shows no events.
    struct Reading: Sendable {
        /// nil: the built-in decoders and rules, and the `default` profile's personal-data search.
        let profile: Profile?
        /// Tells this reading from every other one made in the process (`builtIn` is 0): what an
        /// observation keeps the line and the personal data a reading made under.
        let id: Int

        static let builtIn = Reading(profile: nil, id: 0)
        private static let made = Atomic<Int>(0)

        private init(profile: Profile?, id: Int) {
            self.profile = profile
            self.id = id
        }

        /// Reading as `profile` does.
        init(_ profile: Profile) {
            self.init(profile: profile, id: Self.made.add(1, ordering: .relaxed).newValue)
        }

        /// The events of `safe`, the request as the reader's redaction leaves it: read with what
        /// the observation's decoders made of it when that is the request as captured.
        func decode(_ safe: CapturedRequest, captured: CapturedRequest, _ observation: Observation) -> DecodeResult {
            guard let profile else { return safe == captured ? observation.decoded(captured) : Decoders.decode(safe) }
            let select = { profile.select([safe], decodingEvents: true).decoded.first ?? .unclaimed }
            return safe == captured ? observation.withDecodes(select) : select()
        }

        /// The vendor rules a request and its events break: every built-in rule as its kind says,
        /// or those the profile checks, as it checks them (`Profile.brokenRules`).
        func broken(_ request: CapturedRequest, _ events: [AnalyticsEvent]) -> [VendorRule.Broken] {
            profile?.brokenRules(request, events) ?? VendorRule.violations(of: VendorRule.all, request, events)
        }
    }

    /// The JSON text of one request, on one line.
    ///
    /// - Parameters:
    ///   - redactor: knows the request's own secrets, and those of the requests before it.
    ///   - observation: what the server observed of the request, shared by every reader.
    ///   - reading: the built-in decoders and rules, or a profile's.
    static func json(
        _ request: CapturedRequest, redactor: Redactor, observation: Observation = Observation(),
        reading: Reading = .builtIn
    ) -> String {
        let safe = redactor.redact(request)
        let personal = observation.personalFindings(reading: reading.id) { privacy(request, observation, reading) }
        let key = Key(request: safe, privacy: personal.map { redactor.redact(text: $0.message) }, reading: reading.id)
        return observation.inspected(as: key) {
            let decoded = reading.decode(safe, captured: request, observation)
            return line(key, personal, decoded: decoded, broken: reading.broken(safe, decoded.events))
        }
    }

    /// The line of a request as `key` has it redacted, from its decoding, the vendor rules it
    /// breaks and its personal data.
    private static func line(
        _ key: Key, _ personal: [Finding], decoded: DecodeResult, broken: [VendorRule.Broken]
    ) -> String {
        let safe = key.request
        let privacy = zip(personal, key.privacy)
        let events = decoded.events.map { event in
            let own = broken.filter { $0.event?.index == event.index }
            return RequestStream.Event(
                vendor: event.vendor, type: event.type, name: event.name, properties: event.properties,
                context: event.context, index: event.index,
                rules: own.filter { $0.rule.kind == .limit }.map(\.message),
                warnings: own.filter { $0.rule.kind == .recommendation }.map(\.message),
                privacy: privacy.filter { $0.0.request?.event == event.index }.map(\.1))
        }
        let whole = broken.filter { $0.event == nil }
        let shown = RequestStream.Request(
            request: safe, events: events,
            problems: [decoded.error?.description, safe.refused, safe.replayMiss].compactMap { $0 }
                + whole.filter { $0.rule.kind == .limit }.map(\.message),
            warnings: whole.filter { $0.rule.kind == .recommendation }.map(\.message),
            privacy: privacy.filter { $0.0.request?.event == nil }.map(\.1),
            vendor: decoded.error?.vendor, layers: layers(safe))
        return Response.text(of: shown)
    }

    /// The personal data the request carries, as the reading's profile finds it (the `default`
    /// profile's for the built-in reading: the check every profile makes), each finding's message
    /// naming the kind, the event and the JSON Pointer, the value masked. Found in the request as
    /// sent: the redacted one shows only masks. A request with nothing of the kind anywhere is
    /// searched once and not decoded again; one with some is read with what the observation's
    /// decoders made of it (`Observation.withDecodes`).
    private static func privacy(_ request: CapturedRequest, _ observation: Observation, _ reading: Reading)
        -> [Finding]
    {
        guard !PersonalData.hits(in: request.validationView, addresses: { _ in true }).isEmpty else { return [] }
        let profile = reading.profile ?? Profile.builtInDefault
        // Each built-in decoder's reading is kept first, so that the profile's selection reads it.
        if reading.profile == nil { _ = observation.decoded(request) }
        return observation.withDecodes {
            profile.personalDataFindings([request]) { profile.select([request], decodingEvents: true) }
        }
    }

    /// The layers of a body that is more than JSON (a form, base64, JSON in a form's field…),
    /// step by step (`EncodedLayers.steps`); none for a body that is plain JSON and hides nothing.
    private static func layers(_ request: CapturedRequest) -> [RequestStream.Layer] {
        guard case .text(let body) = request.body else { return [] }
        let steps = EncodedLayers.steps(in: body)
        let plainJSON = body.drop { $0.isWhitespace }.first.map { $0 == "{" || $0 == "[" } ?? false
        guard steps.count > 1 || (steps.count == 1 && !plainJSON) else { return [] }
        return steps.map { RequestStream.Layer(at: $0.at, value: $0.value) }
    }
}
