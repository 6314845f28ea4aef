import TracksnapDecoders
import TracksnapJSON
import TracksnapModel
import TracksnapValidation

/// A captured request as the inspector gets it: its secrets hidden as every control API answer
/// hides them (`Redactor`), and the events the built-in decoders read from the hidden request,
/// so that no secret reaches an event either. The redactor knows the secrets of every request
/// the reader was sent before, as an answer's knows those of every request it holds: a token
/// one request sent in its `Authorization` is hidden where a later one puts it in a URL.
///
/// ```json
/// {"request": {"id": "3", "method": "POST", "url": "http://127.0.0.1:8181/v1/batch", …},
///  "events": [{"vendor": "segment", "type": "track", "name": "Order Completed", "index": 0, …,
///              "rules": ["segment.event_size: …"]}],
///  "problems": ["segment: body is not JSON: …"]}
/// ```
///
/// `problems` lists what a decoder could not read, a body refused for its size, a cassette's
/// miss and the vendor rules the request as a whole breaks; it is absent when there is none.
/// An event's `rules` lists the vendor rules it breaks (`VendorRule`: every built-in rule of its
/// vendor, as the built-in vendor profiles check them, on the redacted request). `vendor` names
/// the decoder that claimed the request and could not read it.
enum InspectedRequest {
    /// The JSON text of one request, on one line.
    ///
    /// - Parameter redactor: knows the request's own secrets, and those of the requests before it.
    static func json(_ request: CapturedRequest, redactor: Redactor) -> String {
        let safe = redactor.redact(request)
        let decoded = Decoders.decode(safe)
        let broken = VendorRule.violations(of: VendorRule.all, safe, decoded.events)
        let events = decoded.events.map { event -> JSONValue in
            guard case .object(var fields) = event.validationView else { return event.validationView }
            fields["index"] = .number(String(event.index))
            let rules = broken.filter { $0.event?.index == event.index }.map { JSONValue.string($0.message) }
            if !rules.isEmpty { fields["rules"] = .array(rules) }
            return .object(fields)
        }
        let problems =
            [decoded.error?.description, safe.refused, safe.replayMiss].compactMap { $0 }
            + broken.filter { $0.event == nil }.map(\.message)
        var text =
            #"{"request":"# + CaptureFile.ndjsonLine(safe) + #","events":"# + JSONValue.array(events).serialized()
        if !problems.isEmpty { text += #","problems":"# + JSONValue.array(problems.map(JSONValue.string)).serialized() }
        if let error = decoded.error { text += #","vendor":"# + JSONValue.string(error.vendor).serialized() }
        let steps = layers(safe)
        if !steps.isEmpty { text += #","layers":"# + JSONValue.array(steps).serialized() }
        return text + "}"
    }

    /// The layers of a body that is more than JSON (a form, base64, JSON in a form's field…),
    /// step by step (`EncodedLayers.steps`); none for a body that is plain JSON and hides nothing.
    private static func layers(_ request: CapturedRequest) -> [JSONValue] {
        guard case .text(let body) = request.body else { return [] }
        let steps = EncodedLayers.steps(in: body)
        let plainJSON = body.drop { $0.isWhitespace }.first.map { $0 == "{" || $0 == "[" } ?? false
        guard steps.count > 1 || (steps.count == 1 && !plainJSON) else { return [] }
        return steps.map { .object(["at": .string($0.at), "value": $0.value]) }
    }
}
