import Protobuf
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

extension VendorDecoder {
    /// Firebase Analytics (Google Analytics 4 for apps): the SDK's uploads to
    /// `app-measurement.com/a` and its subdomains (`region1.app-measurement.com/a`).
    ///
    /// ```swift
    /// // POST https://app-measurement.com/a   body: a gzip'd protobuf Batch
    /// VendorDecoder.firebase.decode(request).events.map(\.name)  // ["session_start", "screen_view", "purchase"]
    /// ```
    /// Selected by host and path alone: the SDK labels the body `application/x-www-form-urlencoded`,
    /// which it is not. The body (gzip undone) is a protobuf `Batch` of bundles; every event of
    /// every bundle is an event, in order: name, and properties its parameters (string, integer
    /// and double values; nested parameters as objects, `items` as an array of them). Automatic
    /// events, parameters and user properties are named as GA4 and its BigQuery export name
    /// them (`_vs` → `screen_view`, `_sc` → `firebase_screen_class`, `_fot` → `first_open_time`);
    /// the wire name is kept in the context (`wire_name`, and `wire_names` for parameters), and a
    /// `_` name GA4 does not rename stays as sent. Context: the bundle's app and device fields
    /// (`app_id`, `app_version`, `platform`, `os_version`, `device_model`, `app_instance_id`…),
    /// its `user_properties`, and the event's `timestamp_millis`; fields the map does not know
    /// are kept by number (`bundle_fields`, `event_fields`). A body that is not protobuf is a
    /// decode error naming the byte.
    public static let firebase = VendorDecoder(
        builtIn: "firebase", rule: "/a on app-measurement.com and its subdomains (Firebase Analytics: protobuf batches)"
    ) { request throws(DecodeFailure) in
        guard request.trimmedPath == "/a", request.isHost(in: Firebase.hosts) else { return nil }
        return try Firebase.events(request)
    }
}

/// The Firebase Analytics upload, field by field.
///
/// The field numbers are this project's own map, written from public facts: the community
/// definition of the upload (lari/firebase-ga4-app-measurement-protobuf, `app-measurement.proto`:
/// `Batch`, `Bundle`, `Event`, `EventParameter`, `UserProperty`) and the debug dumps of the
/// Android measurement SDK, whose field order gives the values the community file lacks:
/// a parameter's `double_value` (5, after `float_value` 4) and nested parameters (6), a user
/// property's `float_value` (5) and `double_value` (6). The GA4 names come from the SDK's own
/// tables of internal and public names (`AppMeasurement.Event`, `.Param`, `.UserProperty`),
/// which are the names GA4's BigQuery export shows.
enum Firebase {
    static let hosts = ["app-measurement.com"]

    /// What a known field holds.
    enum Kind {
        case integer
        case text
    }

    /// `Bundle`'s fields by number, besides events (2) and user properties (3).
    static let bundleFields: [Int: (name: String, kind: Kind)] = [
        1: ("protocol_version", .integer), 4: ("upload_timestamp_millis", .integer),
        5: ("start_timestamp_millis", .integer), 6: ("end_timestamp_millis", .integer),
        7: ("previous_bundle_end_timestamp_millis", .integer), 8: ("platform", .text),
        9: ("os_version", .text), 10: ("device_model", .text), 11: ("user_default_language", .text),
        12: ("time_zone_offset_minutes", .integer), 13: ("install_source", .text), 14: ("app_id", .text),
        16: ("app_version", .text), 17: ("gmp_version", .integer), 18: ("uploading_gmp_version", .integer),
        21: ("app_instance_id", .text), 23: ("bundle_sequential_index", .integer), 25: ("gmp_app_id", .text),
        26: ("previous_bundle_start_timestamp_millis", .integer), 27: ("resettable_device_id", .text),
        30: ("firebase_instance_id", .text), 31: ("app_version_major", .integer), 35: ("config_version", .integer),
    ]

    enum Batch { static let bundle = 1 }
    enum Bundle {
        static let event = 2
        static let userProperty = 3
    }
    enum Event {
        static let parameter = 1
        static let name = 2
        static let timestamp = 3
        static let previousTimestamp = 4
    }
    enum Parameter {
        static let name = 1
        static let string = 2
        static let integer = 3
        static let float = 4
        static let double = 5
        static let nested = 6
    }
    enum UserProperty {
        static let setTimestamp = 1
        static let name = 2
        static let string = 3
        static let integer = 4
        static let float = 5
        static let double = 6
    }

    static func events(_ request: CapturedRequest) throws(DecodeFailure) -> [AnalyticsEvent] {
        guard let body = try Payload.bodyBytes(request) else { throw DecodeFailure("request has no body") }
        let batch: ProtobufMessage
        do {
            batch = try ProtobufMessage(parsing: body)
        } catch {
            throw DecodeFailure("body is not protobuf: \(error)")
        }
        var events: [AnalyticsEvent] = []
        for field in batch.fields where field.number == Batch.bundle {
            let bundle = try message(field, "a bundle")
            try append(bundle, to: &events, request: request)
        }
        return events
    }

    /// The events of one bundle, with the bundle's fields and user properties as their context.
    private static func append(_ bundle: ProtobufMessage, to events: inout [AnalyticsEvent], request: CapturedRequest)
        throws(DecodeFailure)
    {
        var context: [String: JSONValue] = [:]
        var unknown: [ProtobufEntry] = []
        var userProperties: [String: JSONValue] = [:]
        var eventFields: [ProtobufField] = []
        for field in bundle.fields {
            switch field.number {
            case Bundle.event:
                eventFields.append(field)
            case Bundle.userProperty:
                let property = try message(field, "a user property")
                guard let name = property.last(UserProperty.name)?.text else {
                    throw DecodeFailure("the user property at byte \(field.offset) has no name")
                }
                userProperties[Names.userProperties[name] ?? name] = value(
                    of: property,
                    string: UserProperty.string, integer: UserProperty.integer, float: UserProperty.float,
                    double: UserProperty.double)
            default:
                if let known = bundleFields[field.number], let value = value(field, known.kind) {
                    context[known.name] = value
                } else {
                    unknown.append(ProtobufEntry(number: field.number, value: ProtobufValue(field.value)))
                }
            }
        }
        if !userProperties.isEmpty { context["user_properties"] = .object(userProperties) }
        if !unknown.isEmpty { context["bundle_fields"] = ProtobufValue.json(unknown) }
        for field in eventFields {
            events.append(
                try event(
                    try message(field, "an event"), at: field.offset, context: context, request: request,
                    index: events.count))
        }
    }

    private static func event(
        _ event: ProtobufMessage, at offset: Int, context shared: [String: JSONValue], request: CapturedRequest,
        index: Int
    ) throws(DecodeFailure) -> AnalyticsEvent {
        guard let wireName = event.last(Event.name)?.text else {
            throw DecodeFailure("the event at byte \(offset) has no name")
        }
        var context = shared
        var properties: [String: JSONValue] = [:]
        var wireNames: [String: JSONValue] = [:]
        var unknown: [ProtobufEntry] = []
        for field in event.fields {
            switch field.number {
            case Event.name: continue
            case Event.parameter:
                let parameter = try message(field, "a parameter")
                guard let name = parameter.last(Parameter.name)?.text else {
                    throw DecodeFailure("the parameter at byte \(field.offset) has no name")
                }
                let ga4Name = Names.parameters[name] ?? name
                if ga4Name != name { wireNames[ga4Name] = .string(name) }
                properties[ga4Name] = try parameterValue(parameter)
            case Event.timestamp where field.integer != nil:
                context["timestamp_millis"] = .number(String(field.integer ?? 0))
            case Event.previousTimestamp where field.integer != nil:
                context["previous_timestamp_millis"] = .number(String(field.integer ?? 0))
            default:
                unknown.append(ProtobufEntry(number: field.number, value: ProtobufValue(field.value)))
            }
        }
        let name = Names.events[wireName] ?? wireName
        if name != wireName { context["wire_name"] = .string(wireName) }
        if !wireNames.isEmpty { context["wire_names"] = .object(wireNames) }
        if !unknown.isEmpty { context["event_fields"] = ProtobufValue.json(unknown) }
        return AnalyticsEvent(
            vendor: "firebase", type: "event", name: name, properties: .object(properties), context: .object(context),
            request: request.id, index: index)
    }

    /// A parameter's value: its string, integer, float or double, else its nested parameters
    /// (named ones as an object, unnamed ones, `items`' entries, as an array), else null.
    private static func parameterValue(_ parameter: ProtobufMessage) throws(DecodeFailure) -> JSONValue {
        let nested = parameter.fields(Parameter.nested)
        if nested.isEmpty {
            return value(
                of: parameter, string: Parameter.string, integer: Parameter.integer, float: Parameter.float,
                double: Parameter.double)
        }
        var object: [String: JSONValue] = [:]
        var array: [JSONValue] = []
        for field in nested {
            let inner = try message(field, "a nested parameter")
            if let name = inner.last(Parameter.name)?.text {
                object[Names.parameters[name] ?? name] = try parameterValue(inner)
            } else {
                array.append(try parameterValue(inner))
            }
        }
        if object.isEmpty { return .array(array) }
        return .object(object)
    }

    /// The value of a parameter or user property: the last of its value fields that is set.
    private static func value(of message: ProtobufMessage, string: Int, integer: Int, float: Int, double: Int)
        -> JSONValue
    {
        for field in message.fields.reversed() {
            switch field.number {
            case string: if let text = field.text { return .string(text) }
            case integer: if case .varint(let raw) = field.value { return .number(String(Int64(bitPattern: raw))) }
            case float, double: if let number = field.floatingPoint { return .number(number) }
            default: continue
            }
        }
        return .null
    }

    /// A known bundle field's value, nil when the wire type is not the one the map expects.
    private static func value(_ field: ProtobufField, _ kind: Kind) -> JSONValue? {
        switch kind {
        case .integer:
            guard case .varint(let raw) = field.value else { return nil }
            return .number(String(Int64(bitPattern: raw)))
        case .text:
            return field.text.map(JSONValue.string)
        }
    }

    /// A field read as a nested message, or a decode failure naming it and its byte.
    private static func message(_ field: ProtobufField, _ what: String) throws(DecodeFailure) -> ProtobufMessage {
        do {
            return try field.message()
        } catch {
            throw DecodeFailure("\(what) (field \(field.number) at byte \(field.offset)) is not a message: \(error)")
        }
    }
}
