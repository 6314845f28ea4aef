import TracksnapDecoders
import TracksnapJSON
import TracksnapTraffic

/// GA4's collection limits, as Google states them for the Measurement Protocol ("Limitations")
/// and in "Event collection limits" and "Event naming rules": what GA4 drops, silently.
extension VendorRule {
    static let ga4: [VendorRule] = [
        VendorRule(
            id: "ga4.event_name_length",
            summary: "an event name has at most 40 characters (longer ones are not collected)"
        ) { _, events in
            events.enumerated().compactMap { index, event in
                guard let name = event.name, name.count > 40 else { return nil }
                return .init(
                    event: index, path: "/name",
                    message: "the name has \(name.count) characters; GA4 drops events whose name is over 40")
            }
        },
        VendorRule(
            id: "ga4.event_name_characters",
            summary: "an event name starts with a letter and holds only letters, digits and underscores"
        ) { _, events in
            events.enumerated().compactMap { index, event in
                guard let name = event.name, !GA4Names.isValid(name) else { return nil }
                return .init(
                    event: index, path: "/name",
                    message: "\(RuleText.quoted(name)) must start with a letter and hold only letters, digits and _")
            }
        },
        VendorRule(
            id: "ga4.reserved_event_name",
            summary:
                "the Measurement Protocol refuses reserved event names (session_start, first_visit…) and the prefixes _, firebase_, ga_, google_"
        ) { request, events in
            // gtag.js sends some of these names itself (page_view, session_start…): only events an
            // app sends through the Measurement Protocol are its own choice.
            guard GA4Names.isMeasurementProtocol(request) else { return [] }
            return events.enumerated().compactMap { index, event in
                guard let name = event.name else { return nil }
                if GA4Names.reservedEvents.contains(name) {
                    return .init(event: index, path: "/name", message: "\"\(name)\" is a name GA4 reserves")
                }
                guard let prefix = GA4Names.reservedPrefix(of: name) else { return nil }
                return .init(
                    event: index, path: "/name",
                    message: "\(RuleText.quoted(name)) starts with \(prefix), which GA4 reserves")
            }
        },
        VendorRule(id: "ga4.parameter_count", summary: "an event has at most 25 parameters") { _, events in
            events.enumerated().compactMap { index, event in
                let count = event.properties.objectValue?.count ?? 0
                guard count > 25 else { return nil }
                return .init(
                    event: index, path: "/properties",
                    message: "\(count) parameters; GA4 collects 25 per event and drops the rest")
            }
        },
        VendorRule(
            id: "ga4.parameter_name",
            summary:
                "a parameter name has at most 40 characters, starts with a letter, holds only letters, digits and _, and has no reserved prefix (_, firebase_, ga_, google_, gtag.)"
        ) { _, events in
            events.enumerated().flatMap { index, event in
                GA4Names.parameters(of: event).compactMap { path, name -> Violation? in
                    guard let problem = GA4Names.problem(withParameter: name) else { return nil }
                    return .init(event: index, path: path, message: problem)
                }
            }
        },
        VendorRule(
            id: "ga4.parameter_value_length",
            summary: "a parameter's text value (an item's too) has at most 100 characters (500 on GA4 360)"
        ) { _, events in
            events.enumerated().flatMap { index, event in
                GA4Names.parameterValues(of: event).compactMap { path, text -> Violation? in
                    guard text.count > 100 else { return nil }
                    return .init(
                        event: index, path: path,
                        message: "the value has \(text.count) characters; GA4 keeps the first 100 (500 on 360)")
                }
            }
        },
        VendorRule(id: "ga4.user_properties", summary: GA4Names.userPropertySummary) { _, events in
            // A request's user properties are every event's: each set is checked once, at the
            // first event that carries it.
            var seen: [JSONValue] = []
            return events.enumerated().flatMap { index, event -> [Violation] in
                let properties = event.context.objectValue?["user_properties"] ?? .object([:])
                if seen.contains(properties) { return [] }
                seen.append(properties)
                return GA4Names.userPropertyViolations(event, index: index)
            }
        },
        VendorRule(
            id: "ga4.events_per_request", summary: "a Measurement Protocol request holds at most 25 events"
        ) { request, events in
            guard GA4Names.isMeasurementProtocol(request), events.count > 25 else { return [] }
            return [
                .init(event: nil, message: "\(events.count) events in one request; the Measurement Protocol takes 25")
            ]
        },
        VendorRule(
            id: "ga4.request_size", summary: "a Measurement Protocol request's body is smaller than 130 kB"
        ) { request, _ in
            let size = request.bodyBytes?.count ?? 0
            guard GA4Names.isMeasurementProtocol(request), size >= 130_000 else { return [] }
            return [
                .init(
                    event: nil, message: "the body has \(size) bytes; the Measurement Protocol takes less than 130 kB")
            ]
        },
        VendorRule(
            id: "ga4.purchase_items", kind: .recommendation,
            summary: "a purchase carries transaction_id, currency and items, as GA4's recommended events describe it"
        ) { _, events in
            events.enumerated().compactMap { index, event in
                guard event.name == "purchase", let properties = event.properties.objectValue else { return nil }
                let missing = ["transaction_id", "currency", "items"].filter { properties[$0] == nil }
                guard !missing.isEmpty else { return nil }
                return .init(
                    event: index, path: "/properties",
                    message: "a purchase without \(missing.joined(separator: ", ")), which GA4's reports of it need")
            }
        },
    ]
}

/// GA4's names: what they may be, and where an event holds them.
enum GA4Names {
    static let reservedPrefixes = ["_", "firebase_", "ga_", "google_"]
    /// The Measurement Protocol's reserved event names.
    static let reservedEvents: Set<String> = [
        "ad_activeview", "ad_click", "ad_exposure", "ad_impression", "ad_query", "ad_reward", "adunit_exposure",
        "app_background", "app_clear_data", "app_exception", "app_remove", "app_store_refund",
        "app_store_subscription_cancel", "app_store_subscription_convert", "app_store_subscription_renew",
        "app_update", "app_upgrade", "dynamic_link_app_open", "dynamic_link_app_update", "dynamic_link_first_open",
        "error", "first_open", "first_visit", "in_app_purchase", "notification_dismiss", "notification_foreground",
        "notification_open", "notification_receive", "os_update", "session_start", "session_start_with_rollout",
        "user_engagement",
    ]
    static let reservedUserProperties: Set<String> = [
        "first_open_time", "first_visit_time", "last_deep_link_referrer", "user_id", "first_open_after_install",
    ]
    static let userPropertySummary =
        "at most 25 user properties, each name at most 24 characters with no reserved prefix and not reserved (user_id…), each text value at most 36 characters"

    static func isMeasurementProtocol(_ request: CapturedRequest) -> Bool { request.path.hasSuffix("/mp/collect") }

    /// A letter, then letters, digits and underscores.
    static func isValid(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic else { return false }
        return name.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" }
    }

    static func reservedPrefix(of name: String, among prefixes: [String] = reservedPrefixes) -> String? {
        prefixes.first { name.hasPrefix($0) }
    }

    /// What is wrong with a parameter name, if anything: one problem, the first of length,
    /// characters and prefix.
    static func problem(withParameter name: String) -> String? {
        if name.count > 40 {
            return "the parameter name \(RuleText.quoted(name)) has \(name.count) characters; GA4 takes 40"
        }
        if let prefix = reservedPrefix(of: name, among: reservedPrefixes + ["gtag."]) {
            return "the parameter name \(RuleText.quoted(name)) starts with \(prefix), which GA4 reserves"
        }
        if !isValid(name) {
            return
                "the parameter name \(RuleText.quoted(name)) must start with a letter and hold only letters, digits and _"
        }
        return nil
    }

    /// Each parameter's pointer and name: the event's, then each item's.
    static func parameters(of event: AnalyticsEvent) -> [(String, String)] {
        let properties = event.properties.objectValue ?? [:]
        var out = properties.keys.sorted().map { (JSONPointer.appending("/properties", $0), $0) }
        for (index, item) in (properties["items"]?.arrayValue ?? []).enumerated() {
            let base = JSONPointer.appending(JSONPointer.appending("/properties", "items"), index)
            out += (item.objectValue ?? [:]).keys.sorted().map { (JSONPointer.appending(base, $0), $0) }
        }
        return out
    }

    /// Each text parameter value's pointer and text: the event's, then each item's.
    static func parameterValues(of event: AnalyticsEvent) -> [(String, String)] {
        let properties = event.properties.objectValue ?? [:]
        var out = properties.keys.sorted().compactMap { key in
            properties[key]?.stringValue.map { (JSONPointer.appending("/properties", key), $0) }
        }
        for (index, item) in (properties["items"]?.arrayValue ?? []).enumerated() {
            let base = JSONPointer.appending(JSONPointer.appending("/properties", "items"), index)
            let fields = item.objectValue ?? [:]
            out += fields.keys.sorted().compactMap { key in
                fields[key]?.stringValue.map { (JSONPointer.appending(base, key), $0) }
            }
        }
        return out
    }

    /// The user properties' violations: count, names, values. gtag.js sends `up.NAME=value`, the
    /// Measurement Protocol `"user_properties": {"NAME": {"value": …}}`; both are the event's
    /// `context.user_properties`.
    static func userPropertyViolations(_ event: AnalyticsEvent, index: Int) -> [VendorRule.Violation] {
        let properties = event.context.objectValue?["user_properties"]?.objectValue ?? [:]
        var out: [VendorRule.Violation] = []
        if properties.count > 25 {
            out.append(
                .init(
                    event: index, path: "/context/user_properties",
                    message: "\(properties.count) user properties; GA4 collects 25"))
        }
        for name in properties.keys.sorted() {
            let path = JSONPointer.appending("/context/user_properties", name)
            if name.count > 24 {
                out.append(
                    .init(
                        event: index, path: path,
                        message:
                            "the user property name \(RuleText.quoted(name)) has \(name.count) characters; GA4 takes 24"
                    ))
            } else if reservedUserProperties.contains(name) {
                out.append(.init(event: index, path: path, message: "\"\(name)\" is a user property name GA4 reserves"))
            } else if let prefix = reservedPrefix(of: name) {
                out.append(
                    .init(
                        event: index, path: path,
                        message:
                            "the user property name \(RuleText.quoted(name)) starts with \(prefix), which GA4 reserves")
                )
            }
            let value = properties[name]?.objectValue?["value"] ?? properties[name]
            if let text = value?.stringValue, text.count > 36 {
                out.append(
                    .init(
                        event: index, path: path,
                        message: "the user property's value has \(text.count) characters; GA4 keeps 36"))
            }
        }
        return out
    }
}
