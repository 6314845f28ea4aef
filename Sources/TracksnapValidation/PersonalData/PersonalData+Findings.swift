package import TracksnapDecoders
import TracksnapJSON
package import TracksnapSnapshot
package import TracksnapTraffic

extension PersonalData {
    /// Vendors whose terms forbid sending personal data: a hit in their events is an error.
    static let forbiddingVendors: [String: String] = [
        "ga4": "Google Analytics forbids sending personal data (Analytics terms, 7 Privacy)",
        "firebase": "Google Analytics for Firebase forbids sending personal data (Analytics terms, 7 Privacy)",
        "universal-analytics": "Google Analytics forbids sending personal data (Analytics terms, 7 Privacy)",
    ]
    /// Meta's advanced-matching fields, which must be SHA-256 hashed: a value in clear is an error.
    static let metaMatchingFields: Set<String> = ["ud", "user_data"]
    /// The calls that set a user's profile, which carry email and phone by design: a CDP's
    /// identify (Segment, RudderStack, mParticle), Mixpanel's people updates (`engage`),
    /// Amplitude's and PostHog's identify (`$identify`, `$set`).
    static let profileCalls: [String: Set<String>] = [
        "segment": ["identify"], "rudderstack": ["identify"], "mparticle": ["identify"], "mixpanel": ["engage"],
        "amplitude": ["identify"], "posthog": ["identify", "set"],
    ]

    /// The hits in one request and the events decoded from it, each value once per event: the
    /// events' own (IP addresses in their `properties` only), then what the request carries that
    /// none of its events does (its URL's parameters, headers, a body member no decoder kept).
    static func hits(in request: CapturedRequest, events: [AnalyticsEvent]) -> (
        events: [(AnalyticsEvent, [Hit])], request: [Hit]
    ) {
        var inEvents: Set<String> = []
        let byEvent = events.map { event in
            let hits = PersonalData.hits(in: event.validationView, vendor: event.vendor) { $0.first == "properties" }
            inEvents.formUnion(hits.map(\.value))
            return (event, hits)
        }
        let own = PersonalData.hits(in: request.validationView, vendor: events.first?.vendor).filter {
            !inEvents.contains($0.value)
        }
        return (byEvent, own)
    }

    /// Why a hit is at its severity when a vendor's rule decides it, and whether the vendor
    /// forbids it.
    static func rule(vendor: String?, path: [String]) -> (forbidden: Bool, why: String?) {
        guard let vendor else { return (false, nil) }
        if let why = forbiddingVendors[vendor] { return (true, why) }
        if vendor.hasPrefix("meta"), path.contains(where: metaMatchingFields.contains) {
            return (true, "Meta's advanced-matching fields must be SHA-256 hashed")
        }
        return (false, nil)
    }

    /// Whether a call that sets a user's profile carries this hit by design: in its traits.
    static func isIdentifyTrait(_ event: AnalyticsEvent, at path: [String]) -> Bool {
        // RudderStack's identify keeps its traits in the call's own context: `/context/context/traits`.
        isProfileCall(event) && (path.first == "properties" || path.contains("traits"))
    }

    static func isProfileCall(_ event: AnalyticsEvent) -> Bool {
        profileCalls[event.vendor]?.contains(event.type) ?? false
    }
}

extension Profile {
    /// The personal data in the traffic this profile selects (`selection`, asked only when the
    /// check is on): a `personal_data` finding per value and request, naming the kind, the
    /// request, the first event that carries it and the JSON Pointer, the value masked.
    package func personalDataFindings(_ requests: [CapturedRequest], selection: () -> Selection) -> [Finding] {
        personalData(in: requests, selection: selection).findings
    }

    /// The same findings, and every value found (reported or allowed), by value, with its mask:
    /// what a report must mask wherever it quotes the traffic, an IP address found in an event's
    /// properties included, which no search of the request alone finds.
    package func personalData(in requests: [CapturedRequest], selection: () -> Selection) -> (
        findings: [Finding], found: [String: String]
    ) {
        let policy = personalData
        guard policy.check != .off || policy.kinds.values.contains(where: { $0 != .off }) else { return ([], [:]) }
        // `"severity": {"personal_data": "warning"}` makes every hit a warning.
        let ceiling = severities[.personalData] ?? .error
        let selection = selection()
        var findings: [Finding] = []
        var masks: [String: String] = [:]
        for (index, decoded) in zip(selection.selected, selection.decoded) {
            let request = requests[index]
            let reference = RequestReference(
                id: request.id, index: index, method: request.method, url: request.urlWithoutQuery)
            let events: [AnalyticsEvent]
            if case .events(let decodedEvents) = decoded { events = decodedEvents } else { events = [] }
            let found = PersonalData.hits(in: request, events: events)
            // A value is one finding per request, at the first event that carries it: the context
            // a batch shares (Firebase's bundle, an SDK's device) is copied into each of its events.
            var reported: Set<String> = []
            func add(_ hit: PersonalData.Hit, vendor: String?, subject: String, reference: RequestReference) {
                masks[hit.value] = hit.masked
                guard !reported.contains(hit.value) else { return }
                // Where the test declares ad consent, an advertising id is the consent check's:
                // allowed when granted, a `consent` finding when denied (one finding, not two).
                if hit.kind == .advertisingID, consent?.states["ad_storage"] != nil { return }
                // An advertising id is a matter of consent, not of a vendor's ban: at most a warning.
                let rule = PersonalData.rule(vendor: vendor, path: hit.path)
                let forbidden = rule.forbidden && hit.kind != .advertisingID
                guard !policy.allows(hit.kind, at: hit.path),
                    let severity = policy.severity(of: hit.kind, forbidden: forbidden)
                else { return }
                reported.insert(hit.value)
                let why = forbidden && severity == .error ? rule.why.map { "; \($0)" } ?? "" : ""
                findings.append(
                    Finding(
                        code: .personalData, severity: ceiling == .warning ? .warning : severity, path: hit.pointer,
                        actual: .string(hit.masked),
                        message: "\(hit.kind.rawValue): \(subject) at \(hit.pointer): \(hit.masked)\(why)",
                        request: reference))
            }
            for (event, hits) in found.events {
                let subject =
                    "\(event.vendor) \(event.type)\(event.name.map { " \"\($0)\"" } ?? "") (event \(event.index + 1))"
                for hit in hits where policy.traits || !PersonalData.isIdentifyTrait(event, at: hit.path) {
                    add(hit, vendor: event.vendor, subject: subject, reference: reference.event(event.index))
                }
            }
            // What a profile call carries by design (its values are in `inEvents`) stays allowed in
            // its request too; what a decoder left out of it is the request's.
            for hit in found.request {
                add(
                    hit, vendor: events.first?.vendor,
                    subject: "request #\(index + 1) \(request.method) \(reference.url)",
                    reference: reference)
            }
        }
        return (findings, masks)
    }
}

extension PersonalData {
    /// The pattern a recording writes in place of a value of this kind (a PCRE2 pattern matching
    /// any value of the kind, so that the next run's different email still matches), never the
    /// value itself.
    ///
    /// ```swift
    /// PersonalData.recordedPattern(for: .email)  // [A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}
    /// ```
    package static func recordedPattern(for kind: Kind) -> String {
        switch kind {
        case .email: #"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}"#
        case .phone: #"\+?[0-9(][0-9 ().-]{5,}[0-9]"#
        case .paymentCard: #"[0-9][0-9 -]{11,22}[0-9]"#
        case .iban: #"[A-Z]{2}[0-9]{2}[A-Z0-9 ]{11,40}"#
        case .advertisingID: #"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}"#
        case .ipAddress: #"[0-9A-Fa-f:.]{2,45}"#
        case .coordinates: #"-?[0-9]{1,3}\.[0-9]+(,\s*-?[0-9]{1,3}\.[0-9]+)?"#
        case .nationalID: #"[A-Za-z0-9][A-Za-z0-9 -]{7,14}[A-Za-z0-9]"#
        }
    }
}

extension Profile {
    /// The personal data a recording must not write in clear: each value one of these requests
    /// or their events carries, by its kind, as the check finds it — but a kind this profile
    /// (or the snapshot's own `"personalData"`) turns off, or a field its `allow` lists name.
    /// Unlike the check, a profile call's traits are hidden too: they need not fail a run, but
    /// a snapshot is a file people commit.
    ///
    /// - Parameters:
    ///   - requests: each captured request with the events decoded from it.
    ///   - snapshot: the snapshot re-recorded, whose own `"personalData"` applies over the profile's.
    package func personalDataToHide(
        _ requests: [(request: CapturedRequest, events: [AnalyticsEvent])], snapshot: Snapshot?
    ) -> [String: PersonalData.Kind] {
        var policy = personalData
        if let snapshot { policy = PersonalDataPolicy.applying(snapshot, to: policy).0 }
        var hidden: [String: PersonalData.Kind] = [:]
        for (request, events) in requests {
            let found = PersonalData.hits(in: request, events: events)
            for hit in found.events.flatMap(\.1) + found.request
            where policy.severity(of: hit.kind, forbidden: true) != nil && !policy.allows(hit.kind, at: hit.path) {
                hidden[hit.value] = hit.kind
            }
        }
        return hidden
    }
}
