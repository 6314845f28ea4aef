import TracksnapDecoders
import TracksnapJSON
import TracksnapTraffic

/// The rules of Segment, Amplitude, Mixpanel and PostHog, as each documents its HTTP API.
extension VendorRule {
    /// Segment's HTTP Tracking API: "a maximum of 32KB per call" and "500KB per batch request"
    /// (the libraries count a KB as 1,024 bytes).
    static let segment: [VendorRule] = [
        VendorRule(id: "segment.call_size", summary: "a call (one message of a batch) is at most 32 KB") {
            request, events in
            let body = request.bodyText.flatMap {
                try? JSONDocument.parse(Array($0.utf8), file: "", trackLocations: false)
            }
            let calls = body?.value.objectValue?["batch"]?.arrayValue ?? body.map { [$0.value] } ?? []
            return events.enumerated().compactMap { index, event in
                guard event.index < calls.count else { return nil }
                let size = RuleText.size(calls[event.index])
                guard size > 32 * 1024 else { return nil }
                return .init(event: index, message: "the call has \(size) bytes; Segment refuses calls over 32 KB")
            }
        },
        VendorRule(id: "segment.batch_size", summary: "a request is at most 500 KB") { request, _ in
            let size = request.bodyBytes?.count ?? 0
            guard size > 500 * 1024 else { return [] }
            return [.init(event: nil, message: "the request has \(size) bytes; Segment refuses batches over 500 KB")]
        },
    ]

    /// Amplitude's HTTP V2 API: ids of at least 5 characters (unless the request's
    /// `options.min_id_length` says otherwise), at most 2,000 events and 1 MB per request.
    static let amplitude: [VendorRule] = [
        VendorRule(
            id: "amplitude.id_length",
            summary: "user_id and device_id have at least 5 characters (options.min_id_length)"
        ) { _, events in
            events.enumerated().flatMap { index, event -> [Violation] in
                let context = event.context.objectValue ?? [:]
                let minimum = context["options"]?.objectValue?["min_id_length"]?.doubleValue.map { Int($0) } ?? 5
                return ["user_id", "device_id"].compactMap { key in
                    guard let id = context[key]?.stringValue, id.count < minimum else { return nil }
                    return .init(
                        event: index, path: JSONPointer.appending("/context", key),
                        message:
                            "\(key) \(RuleText.quoted(id)) has \(id.count) characters; Amplitude refuses ids under \(minimum)"
                    )
                }
            }
        },
        VendorRule(id: "amplitude.events_per_request", summary: "a request holds at most 2,000 events") {
            _, events in
            guard events.count > 2000 else { return [] }
            return [.init(event: nil, message: "\(events.count) events in one request; Amplitude takes 2,000")]
        },
        VendorRule(id: "amplitude.request_size", summary: "a request is at most 1 MB") { request, _ in
            let size = request.bodyBytes?.count ?? 0
            guard size > 1_000_000 else { return [] }
            return [.init(event: nil, message: "the request has \(size) bytes; Amplitude refuses requests over 1 MB")]
        },
    ]

    /// Mixpanel's ingestion API: at most 2,000 events per request and 255 properties per event.
    static let mixpanel: [VendorRule] = [
        VendorRule(id: "mixpanel.events_per_request", summary: "a request holds at most 2,000 events") {
            _, events in
            guard events.count > 2000 else { return [] }
            return [.init(event: nil, message: "\(events.count) events in one request; Mixpanel takes 2,000")]
        },
        VendorRule(id: "mixpanel.property_count", summary: "an event has at most 255 properties") { _, events in
            events.enumerated().compactMap { index, event in
                let count = event.properties.objectValue?.count ?? 0
                guard count > 255 else { return nil }
                return .init(
                    event: index, path: "/properties", message: "\(count) properties; Mixpanel keeps 255 per event")
            }
        },
    ]

    /// PostHog's capture API: every event names its `distinct_id`.
    static let posthog: [VendorRule] = [
        VendorRule(id: "posthog.distinct_id", summary: "every event has a distinct_id") { _, events in
            events.enumerated().compactMap { index, event in
                let id = event.context.objectValue?["distinct_id"] ?? event.properties.objectValue?["distinct_id"]
                if let text = id?.scalarText, !text.isEmpty, id != .null { return nil }
                return .init(
                    event: index, path: "/context/distinct_id",
                    message: "no distinct_id; PostHog refuses events without one")
            }
        }
    ]
}
