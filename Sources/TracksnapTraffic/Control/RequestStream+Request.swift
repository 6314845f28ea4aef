package import TracksnapJSON

extension RequestStream {
    /// The `request` event's data: one captured request as the inspector shows it, its secrets
    /// hidden, with the events the decoders read from it and what they found wrong
    /// (`StreamRequest` in `Schemas/control-api.openapi.json`). Every list is left out when empty.
    ///
    /// ```json
    /// {"events": [{"context": {}, "index": 0, "name": "Order Completed", "properties": {},
    ///              "rules": ["segment.event_size: …"], "type": "track", "vendor": "segment"}],
    ///  "problems": ["segment: body is not JSON: …"],
    ///  "request": {"headers": [], "id": "3", "method": "POST", "url": "http://127.0.0.1:8181/v1/batch"}}
    /// ```
    package struct Request: Sendable, Equatable, Codable {
        /// The request, its secrets hidden, as a line of tracksnap's NDJSON (`CapturedRequest` in
        /// the schema).
        package var request: CapturedRequest
        /// The decoded events, in batch order.
        package var events: [Event]
        /// What a decoder could not read, a body refused for its size, a cassette's miss, and
        /// the vendor limits the request as a whole breaks.
        package var problems: [String]
        /// The vendor recommendations the request as a whole does not follow.
        package var warnings: [String]
        /// The personal data found in the request outside its events, each value masked.
        package var privacy: [String]
        /// The decoder that claimed the request and could not read it.
        package var vendor: String?
        /// A body that is more than JSON (a form, base64, JSON in a form's field…), step by step.
        package var layers: [Layer]

        package init(
            request: CapturedRequest, events: [Event], problems: [String] = [], warnings: [String] = [],
            privacy: [String] = [], vendor: String? = nil, layers: [Layer] = []
        ) {
            self.request = request
            self.events = events
            self.problems = problems
            self.warnings = warnings
            self.privacy = privacy
            self.vendor = vendor
            self.layers = layers
        }

        private enum CodingKeys: String, CodingKey {
            case request, events, problems, warnings, privacy, vendor, layers
        }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let record = try container.decode(NDJSONRecord.self, forKey: .request)
            guard let id = record.id?.value else {
                throw DecodingError.dataCorruptedError(
                    forKey: .request, in: container, debugDescription: "the request has no id")
            }
            guard let isBase64 = NDJSONRecord.isBase64(record.bodyEncoding) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .request, in: container,
                    debugDescription: NDJSONRecord.unknownEncoding(record.bodyEncoding))
            }
            request = record.request(id: id, body: record.body.map { isBase64 ? .base64($0) : .text($0) })
            events = try container.decode([Event].self, forKey: .events)
            problems = try container.decodeIfPresent([String].self, forKey: .problems) ?? []
            warnings = try container.decodeIfPresent([String].self, forKey: .warnings) ?? []
            privacy = try container.decodeIfPresent([String].self, forKey: .privacy) ?? []
            vendor = try container.decodeIfPresent(String.self, forKey: .vendor)
            layers = try container.decodeIfPresent([Layer].self, forKey: .layers) ?? []
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(NDJSONRecord(request), forKey: .request)
            try container.encode(events, forKey: .events)
            try container.encodeUnlessEmpty(problems, forKey: .problems)
            try container.encodeUnlessEmpty(warnings, forKey: .warnings)
            try container.encodeUnlessEmpty(privacy, forKey: .privacy)
            try container.encodeIfPresent(vendor, forKey: .vendor)
            try container.encodeUnlessEmpty(layers, forKey: .layers)
        }
    }

    /// One decoded event of a `Request`: what a snapshot's `events` entry is compared with
    /// (`AnalyticsEvent.validationView`), its index in the batch, and what the inspector says of
    /// it. Every list is left out when empty.
    package struct Event: Sendable, Equatable, Codable {
        package var vendor: String
        package var type: String
        package var name: String?
        package var properties: JSONValue
        package var context: JSONValue
        /// Its position in its request's batch, from 0.
        package var index: Int
        /// The vendor limits it breaks (`VendorRule`, kind `limit`), as messages.
        package var rules: [String]
        /// The vendor recommendations it does not follow.
        package var warnings: [String]
        /// The personal data found in it, each value masked.
        package var privacy: [String]

        package init(
            vendor: String, type: String, name: String?, properties: JSONValue, context: JSONValue, index: Int,
            rules: [String] = [], warnings: [String] = [], privacy: [String] = []
        ) {
            self.vendor = vendor
            self.type = type
            self.name = name
            self.properties = properties
            self.context = context
            self.index = index
            self.rules = rules
            self.warnings = warnings
            self.privacy = privacy
        }

        private enum CodingKeys: String, CodingKey {
            case vendor, type, name, properties, context, index, rules, warnings, privacy
        }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            vendor = try container.decode(String.self, forKey: .vendor)
            type = try container.decode(String.self, forKey: .type)
            name = try container.decodeIfPresent(String.self, forKey: .name)
            properties = try container.decode(JSONValue.self, forKey: .properties)
            context = try container.decode(JSONValue.self, forKey: .context)
            index = try container.decode(Int.self, forKey: .index)
            rules = try container.decodeIfPresent([String].self, forKey: .rules) ?? []
            warnings = try container.decodeIfPresent([String].self, forKey: .warnings) ?? []
            privacy = try container.decodeIfPresent([String].self, forKey: .privacy) ?? []
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(vendor, forKey: .vendor)
            try container.encode(type, forKey: .type)
            try container.encodeIfPresent(name, forKey: .name)
            try container.encode(properties, forKey: .properties)
            try container.encode(context, forKey: .context)
            try container.encode(index, forKey: .index)
            try container.encodeUnlessEmpty(rules, forKey: .rules)
            try container.encodeUnlessEmpty(warnings, forKey: .warnings)
            try container.encodeUnlessEmpty(privacy, forKey: .privacy)
        }
    }

    /// One step of a body read layer by layer (`EncodedLayers.steps`): where, and what was
    /// found there.
    package struct Layer: Sendable, Equatable, Codable {
        /// A JSON Pointer into the layer before ("" the body itself).
        package var at: String
        package var value: JSONValue

        package init(at: String, value: JSONValue) {
            self.at = at
            self.value = value
        }
    }
}

extension KeyedEncodingContainer {
    /// A list left out when it is empty, as the stream's lists are.
    fileprivate mutating func encodeUnlessEmpty<T: Encodable>(_ items: [T], forKey key: Key) throws {
        if !items.isEmpty { try encode(items, forKey: key) }
    }
}
