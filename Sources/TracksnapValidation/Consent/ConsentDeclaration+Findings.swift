import TracksnapDecoders
import TracksnapJSON
import TracksnapSnapshot
package import TracksnapTraffic

extension ConsentDeclaration {
    /// The Google tags whose hits must carry Consent Mode (`gcs` or `gcd`) under a declared denial.
    static let googleTags: Set<String> = ["ga4", "universal-analytics"]
    /// Vendors' ids in the IAB's Global Vendor List, for the TC string rule. Only vendors that
    /// are registered: Google's advertising products (755) for Google's tags; Meta, Segment,
    /// Mixpanel, Amplitude, PostHog… are not in the TCF and are checked by the other rules.
    static let tcfVendors: [String: (id: Int, name: String)] = [
        "ga4": (755, "Google"), "universal-analytics": (755, "Google"), "firebase": (755, "Google"),
    ]
    /// Identifiers read or set across sites and apps, refused when ad consent is denied: Meta's
    /// browser and click ids, the ad platforms' click ids and their first-party cookies.
    static let crossSiteIdentifiers: Set<String> = [
        "_fbp", "_fbc", "fbp", "fbc", "fbclid", "gclid", "dclid", "gbraid", "wbraid", "_gcl_au", "_gcl_aw",
        "_gcl_dc", "msclkid", "_uetvid", "ttclid", "_ttp",
    ]
    /// What shows a request reads or sets an identifier on the device (TCF purpose 1): a client,
    /// user or instance id, Google's `_ga` cookie, or any cross-site identifier.
    static let deviceIdentifiers: Set<String> = crossSiteIdentifiers.union([
        "cid", "client_id", "_ga", "uid", "user_id", "app_instance_id", "anonymousId", "distinct_id", "device_id",
    ])

    /// The named values a request and its events carry, with their pointers: parameters
    /// (`/parameters/cid`), cookies (`/headers/cookie/_fbp`), and every key of each event
    /// (`/context/fbp`, at its event).
    static func identifiers(_ names: Set<String>, in request: CapturedRequest, events: [AnalyticsEvent]) -> [(
        name: String, pointer: String, event: Int?
    )] {
        var found: [(name: String, pointer: String, event: Int?)] = []
        var seen: Set<String> = []
        for item in request.parameters where names.contains(item.name) && seen.insert(item.name).inserted {
            found.append((item.name, JSONPointer.appending("/parameters", item.name), nil))
        }
        for header in request.headers where header.name.lowercased() == "cookie" {
            for pair in header.value.split(separator: ";") {
                let name = String(pair.split(separator: "=", maxSplits: 1).first?.trimmingPrefix(" ") ?? "")
                if names.contains(name), seen.insert(name).inserted {
                    found.append((name, JSONPointer.appending("/headers/cookie", name), nil))
                }
            }
        }
        func walk(_ value: JSONValue, _ pointer: String, _ event: Int) {
            if let object = value.objectValue {
                for (key, member) in object.sorted(by: { $0.key < $1.key }) {
                    let place = JSONPointer.appending(pointer, key)
                    if names.contains(key), member != .null, seen.insert(key).inserted {
                        found.append((key, place, event))
                    }
                    walk(member, place, event)
                }
            } else if let array = value.arrayValue {
                for (index, member) in array.enumerated() {
                    walk(member, JSONPointer.appending(pointer, String(index)), event)
                }
            }
        }
        for event in events { walk(event.validationView, "", event.index) }
        return found
    }
}

extension Profile {
    /// The consent findings for the traffic this profile selects, under its declared consent
    /// (none when nothing is declared): each rule broken is one `consent` finding per request.
    ///
    /// - a Consent Mode state (`gcs`, `gcd`, `npa`) that contradicts a declared one;
    /// - a Google tag's hit with no Consent Mode signal under a declared denial;
    /// - an advertising id or a cross-site identifier (`_fbp`, `gclid`…) while ad consent is denied;
    /// - a TC string that denies purpose 1 to the request's vendor (`tcfVendors`) while the
    ///   request reads or sets an identifier.
    package func consentFindings(_ requests: [CapturedRequest], selection: () -> Selection) -> [Finding] {
        guard let declared = consent else { return [] }
        let severity = severities[.consent] ?? .error
        let selection = selection()
        var findings: [Finding] = []
        for (index, decoded) in zip(selection.selected, selection.decoded) {
            let request = requests[index]
            let events = decoded.events
            let vendor = events.first?.vendor
            let signals = events.first?.consent ?? ConsentSignals.read(request)
            let reference = RequestReference(
                id: request.id, index: index, method: request.method, url: request.urlWithoutQuery)
            // The report names the request; the message starts with the rule, then the vendor.
            let subject = vendor.map { "\($0) hit" } ?? "request"
            func add(_ rule: String, _ message: String, path: String, actual: JSONValue?, event: Int? = nil) {
                findings.append(
                    Finding(
                        code: .consent, severity: severity, path: path, expected: declared.json, actual: actual,
                        message: "\(rule): \(subject): \(message)",
                        request: event.map { reference.event($0) } ?? reference))
            }

            // 1. The request's own Consent Mode says otherwise than the user chose.
            if let google = signals?.google {
                let differing = ConsentDeclaration.types.compactMap { type -> String? in
                    guard let chosen = declared.states[type], let sent = google.state(of: type), sent != chosen else {
                        return nil
                    }
                    return "\(type) \(sent.rawValue) (the user \(chosen.rawValue) it)"
                }
                if !differing.isEmpty {
                    let parameter = google.gcd != nil ? "gcd" : google.gcs != nil ? "gcs" : "npa"
                    let value = google.gcd ?? google.gcs ?? google.npa ?? ""
                    add(
                        "contradicted",
                        "its Consent Mode (\(parameter)=\(value)) says \(differing.joined(separator: ", "))",
                        path: "/parameters/\(parameter)", actual: .string(value))
                }
            }
            // 2. A Google tag with no Consent Mode at all, when the user refused something.
            if declared.deniesAny, let vendor, ConsentDeclaration.googleTags.contains(vendor),
                signals?.google?.gcs == nil, signals?.google?.gcd == nil
            {
                add(
                    "not_implemented",
                    "no Consent Mode signal (no gcs, no gcd) while the user denied \(declared.description): consent mode not implemented",
                    path: "/parameters/gcs", actual: nil)
            }
            // 3. Advertising and cross-site identifiers sent while ad consent is refused.
            if declared.deniesAds {
                var sent: [(label: String, pointer: String, event: Int?)] = []
                var masked: Set<String> = []
                let personal = PersonalData.hits(in: request, events: events)
                // A batch's shared context is in each of its events: each id once, at the first.
                for (event, hits) in personal.events {
                    for hit in hits where hit.kind == .advertisingID && masked.insert(hit.value).inserted {
                        sent.append(("advertising id \(hit.masked)", hit.pointer, event.index))
                    }
                }
                for hit in personal.request where hit.kind == .advertisingID {
                    sent.append(("advertising id \(hit.masked)", hit.pointer, nil))
                }
                for identifier in ConsentDeclaration.identifiers(
                    ConsentDeclaration.crossSiteIdentifiers, in: request, events: events)
                {
                    sent.append((identifier.name, identifier.pointer, identifier.event))
                }
                if let first = sent.first {
                    add(
                        "identifier",
                        "sends \(sent.map { "\($0.label) at \($0.pointer)" }.joined(separator: ", ")) while ad consent is denied",
                        path: first.pointer, actual: .array(sent.map { .string($0.label) }), event: first.event)
                }
            }
            // 4. The TC string refuses the vendor purpose 1 (storage and access), and the request
            // reads or sets an identifier.
            if let tcf = signals?.tcf, let vendor, let registered = ConsentDeclaration.tcfVendors[vendor] {
                let refused =
                    !tcf.purposesConsent.contains(1)
                    ? "purpose 1 (store and/or access information on a device)"
                    : !tcf.vendorConsents.contains(registered.id) ? "vendor \(registered.id) (\(registered.name))" : nil
                let identifiers = ConsentDeclaration.identifiers(
                    ConsentDeclaration.deviceIdentifiers, in: request, events: events)
                if let refused, let first = identifiers.first {
                    add(
                        "tcf_purpose_1",
                        "its TC string has no consent for \(refused), yet it reads or sets \(identifiers.map(\.name).joined(separator: ", ")) for \(registered.name) (TCF vendor \(registered.id))",
                        path: first.pointer, actual: .string(first.name), event: first.event)
                }
            }
        }
        return findings
    }
}
