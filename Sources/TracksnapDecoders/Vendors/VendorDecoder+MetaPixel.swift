import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

extension VendorDecoder {
    /// The Meta (Facebook) pixel: `/tr` or `/tr/`, the event in the query (GET) or a form body
    /// (POST), claimed on `facebook.com` and, elsewhere (a conversions proxy), when the
    /// parameters hold the pixel `id` and the event `ev`.
    ///
    /// ```swift
    /// // GET /tr/?id=123&ev=Purchase&cd[value]=12.5&cd[currency]=EUR&cd[content_ids]=["sku-1"]
    /// VendorDecoder.metaPixel.decode(request).events.first?.properties  // {"content_ids":["sku-1"],"currency":"EUR","value":12.5}
    /// ```
    /// Type: `track`. Name: `ev`. Properties: the `cd[key]` parameters, each value decoded as
    /// JSON when it parses (`12.5` a number, `[…]` an array) and kept as text otherwise.
    /// Context: the other parameters (`id`, `dl`, `rl`, `ts`, `fbp`…), bracketed ones such as
    /// `ud[em]` grouped as `{"ud": {"em": …}}`.
    public static let metaPixel = VendorDecoder(
        builtIn: "meta-pixel", rule: "/tr and /tr/ on facebook.com, elsewhere with id= and ev="
    ) { request throws(DecodeFailure) in
        guard request.trimmedPath.hasSuffix("/tr") else { return nil }
        let parameters = request.parameters
        let onFacebook = request.isHost(in: VendorDecoder.metaPixelHosts)
        guard let name = parameters.last(where: { $0.name == "ev" })?.value else {
            guard onFacebook else { return nil }
            throw DecodeFailure("request has no ev parameter")
        }
        guard onFacebook || parameters.contains(where: { $0.name == "id" }) else { return nil }
        var properties: [String: JSONValue] = [:]
        var context: [String: JSONValue] = [:]
        var groups: [String: [String: JSONValue]] = [:]
        for (key, value) in parameters where key != "ev" {
            if let open = key.firstIndex(of: "["), key.last == "]", open != key.startIndex {
                let group = String(key[..<open])
                let member = String(key[key.index(after: open)..<key.index(before: key.endIndex)])
                if group == "cd" {
                    properties[member] = Payload.jsonIfValid(value) ?? .string(value)
                } else {
                    groups[group, default: [:]][member] = .string(value)
                }
            } else {
                context[key] = .string(value)
            }
        }
        for (group, members) in groups { context[group] = .object(members) }
        return [
            AnalyticsEvent(
                vendor: "meta-pixel", type: "track", name: name, properties: .object(properties),
                context: .object(context), request: request.id, index: 0)
        ]
    }
}

extension VendorDecoder {
    static let metaPixelHosts = ["facebook.com", "facebook.net"]
}
