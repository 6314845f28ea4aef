import TracksnapJSON

extension PlanReader {
    /// The call types a native plan's events take.
    static let nativeTypes = ["track", "page", "screen", "identify", "group"]
    static let nativeKeys = ["$schema", "plan", "description", "events"]
    static let nativeEventKeys = ["type", "name", "description", "schema"]

    /// `{"plan": 1, "events": [{"type": "track", "name": "Order Completed", "schema": {…}}]}`:
    /// a schema describes the event's properties (an identify's or group's traits).
    mutating func readNative() {
        guard let top = document.value.objectValue else { return }
        for key in top.keys.sorted() where !Self.nativeKeys.contains(key) {
            error("/\(key)", "unknown key \"\(key)\"; a plan has \(Self.nativeKeys.joined(separator: ", "))")
        }
        if top["plan"] != 1 { error("/plan", "\"plan\" is the plan format's version: 1") }
        guard let events = top["events"]?.arrayValue else {
            error("/events", "\"events\" is an array of {\"type\", \"name\", \"schema\"}")
            return
        }
        for (index, event) in events.enumerated() {
            let pointer = JSONPointer.appending("/events", index)
            guard let fields = event.objectValue else {
                error(pointer, "an event is an object with \"type\", \"name\" and \"schema\"")
                continue
            }
            for key in fields.keys.sorted() where !Self.nativeEventKeys.contains(key) {
                error(
                    JSONPointer.appending(pointer, key),
                    "unknown key \"\(key)\"; an event has \(Self.nativeEventKeys.joined(separator: ", "))")
            }
            guard let type = fields["type"]?.stringValue, Self.nativeTypes.contains(type) else {
                error(
                    JSONPointer.appending(pointer, "type"),
                    "\"type\" is one of \(Self.nativeTypes.joined(separator: ", "))")
                continue
            }
            let name = fields["name"]?.stringValue
            if fields["name"] != nil, name == nil || name?.isEmpty == true {
                error(JSONPointer.appending(pointer, "name"), "\"name\" is the event's name, a non-empty string")
                continue
            }
            if type == "track", name == nil {
                error(pointer, "a track event has a \"name\"")
                continue
            }
            if type == "identify" || type == "group", name != nil {
                error(JSONPointer.appending(pointer, "name"), "an \(type) call has no name")
                continue
            }
            define(
                type: type, name: name, schemaAt: JSONPointer.appending(pointer, "schema"), in: pointer,
                subject: .properties)
        }
    }

    /// Segment's Public API types, and the call type each stands for (`COMMON`: every call).
    static let segmentTypes: [String: String?] = [
        "TRACK": "track", "IDENTIFY": "identify", "GROUP": "group", "PAGE": "page", "SCREEN": "screen",
        "COMMON": .none,
    ]

    /// `{"rules": [{"key": "Order Completed", "type": "TRACK", "jsonSchema": {…}, "version": 1}]}`,
    /// as `GET /tracking-plans/{id}/rules` answers it (also inside its `data`). Of several
    /// versions of one rule, the highest is the plan's.
    ///
    /// Segment's Typewriter keeps a copy of such a plan (`plan.json`) with each rule unwrapped:
    /// its `jsonSchema` is the API's `properties.properties` (it describes the event's
    /// properties) and carries `eventMetadata: {name, type}`, the event's name as the API gave
    /// it. Typewriter tells the two apart by `eventMetadata`, and so does this reader.
    mutating func readSegmentPublicAPI() {
        let rulesPointer = document.value["rules"] != nil ? "/rules" : "/data/rules"
        let rules = document.value.value(atPointer: rulesPointer)?.arrayValue ?? []
        var latest: [String: (index: Int, version: Double)] = [:]
        var order: [String] = []
        for (index, rule) in rules.enumerated() {
            let pointer = JSONPointer.appending(rulesPointer, index)
            let names = Self.segmentTypes.keys.sorted().joined(separator: ", ")
            guard let typeName = rule["type"]?.stringValue, let type = Self.segmentTypes[typeName] else {
                error(JSONPointer.appending(pointer, "type"), "a rule's \"type\" is one of \(names)")
                continue
            }
            if type == "track", rule["key"]?.stringValue?.isEmpty != false {
                error(pointer, "a TRACK rule has a \"key\": the event's name")
                continue
            }
            if rule["jsonSchema"] == nil {
                error(pointer, "a rule has a \"jsonSchema\"")
                continue
            }
            let key = "\(typeName)\u{0}\(rule["key"]?.stringValue ?? "")"
            let version = rule["version"]?.doubleValue ?? 0
            if let seen = latest[key], seen.version >= version { continue }
            if latest[key] == nil { order.append(key) }
            latest[key] = (index, version)
        }
        for key in order {
            guard let index = latest[key]?.index else { continue }
            let rule = rules[index]
            let type = rule["type"]?.stringValue.flatMap { Self.segmentTypes[$0] } ?? nil
            // Typewriter's unwrapped rule: its key may have lost a "#", its eventMetadata has not.
            let metadata = rule["jsonSchema"]?["eventMetadata"]
            let key = metadata?["name"]?.stringValue ?? rule["key"]?.stringValue
            let name = type == "identify" || type == "group" ? nil : key.flatMap { $0.isEmpty ? nil : $0 }
            define(
                type: type, name: name,
                schemaAt: JSONPointer.appending(JSONPointer.appending(rulesPointer, index), "jsonSchema"),
                in: JSONPointer.appending(rulesPointer, index), subject: metadata == nil ? .call : .properties)
        }
    }

    /// mParticle's match types and the call type each stands for.
    static let mParticleTypes = [
        "custom_event": "track", "screen_view": "screen", "user_attributes": "identify",
    ]

    /// `{"version_document": {"data_points": [{"match": {"type": "custom_event", "criteria":
    /// {"event_name": "Order Completed"}}, "validator": {"type": "json_schema", "definition": {…}}}]}}`,
    /// as mParticle's Data Planning API answers a plan version (or its `version_document` alone).
    /// A custom event's or screen view's schema describes the mParticle event (its
    /// `data.custom_attributes` are the properties); user attributes' describe the attributes.
    /// Other match types (commerce events, identities…) are left out: no decoder makes them.
    mutating func readMParticle() {
        let base = document.value["version_document"] != nil ? "/version_document" : ""
        let points = document.value.value(atPointer: base + "/data_points")?.arrayValue ?? []
        for (index, point) in points.enumerated() {
            let pointer = JSONPointer.appending(base + "/data_points", index)
            guard let matchType = point["match"]?["type"]?.stringValue else {
                error(pointer, "a data point has a \"match\" with a \"type\"")
                continue
            }
            guard let type = Self.mParticleTypes[matchType] else { continue }
            guard point["validator"]?["definition"] != nil else { continue }
            let criteria = point["match"]?["criteria"]
            let name = (criteria?["event_name"] ?? criteria?["screen_name"])?.stringValue
            if type == "track", name?.isEmpty != false {
                error(JSONPointer.appending(pointer, "match"), "a custom_event's criteria has an \"event_name\"")
                continue
            }
            define(
                type: type, name: type == "identify" ? nil : name,
                schemaAt: JSONPointer.appending(JSONPointer.appending(pointer, "validator"), "definition"), in: pointer,
                subject: type == "identify" ? .properties : .mParticleEvent)
        }
    }

    /// `{"rules": {"events": [{"name": "Order Completed", "rules": {…}}], "identify_traits": {…},
    /// "group_traits": {…}, "global": {…}}}`, as the Config API's tracking plan has it.
    /// An event's and `global`'s schema describes the whole call; `identify_traits` and
    /// `group_traits` describe the traits, unless they describe a call (a `traits` property).
    mutating func readSegmentConfigAPI() {
        guard let rules = document.value["rules"]?.objectValue else { return }
        for (index, event) in (rules["events"]?.arrayValue ?? []).enumerated() {
            let pointer = JSONPointer.appending("/rules/events", index)
            guard let name = event["name"]?.stringValue, !name.isEmpty else {
                error(pointer, "an event rule has a \"name\": the event's name")
                continue
            }
            define(
                type: "track", name: name, schemaAt: JSONPointer.appending(pointer, "rules"), in: pointer,
                subject: .call)
        }
        if rules["events"] != nil, rules["events"]?.arrayValue == nil {
            error("/rules/events", "\"events\" is an array of {\"name\", \"rules\"}")
        }
        for (key, type) in [("identify_traits", "identify"), ("group_traits", "group")] {
            guard let schema = rules[key], schema.objectValue?.isEmpty == false else { continue }
            let describesCall = schema["properties"]?["traits"] != nil
            define(type: type, name: nil, schemaAt: "/rules/\(key)", subject: describesCall ? .call : .properties)
        }
        if let global = rules["global"], global.objectValue?.isEmpty == false {
            define(type: nil, name: nil, schemaAt: "/rules/global", subject: .call)
        }
    }
}
