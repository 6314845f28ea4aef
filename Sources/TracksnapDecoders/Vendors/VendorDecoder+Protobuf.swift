import Protobuf
import TracksnapJSON
package import TracksnapSnapshot
import TracksnapTraffic

/// The message types of one or more descriptor sets (`protoc --descriptor_set_out=FILE`), as a
/// profile's `"protobuf"` key names them.
///
/// ```swift
/// var descriptors = try ProtobufDescriptors(bytes: Array(contents))  // throws "it is not protobuf: byte 3: …"
/// descriptors.defines("shop.v1.Checkout")                             // true
/// ```
package struct ProtobufDescriptors: Sendable {
    let schema: ProtobufSchema

    /// Reads one descriptor set.
    /// - Throws: the reason, for a person (`it is not protobuf: byte 3: …`, `field shop.v1.A.b is of type …`).
    package init(bytes: [UInt8]) throws(ProtobufDescriptorError) {
        do {
            schema = try ProtobufSchema(descriptorSet: bytes)
        } catch {
            throw ProtobufDescriptorError(reason: error.description)
        }
    }

    /// Several sets as one; a type defined twice keeps its first definition.
    package init(merging sets: [ProtobufDescriptors]) {
        var schema = ProtobufSchema()
        for set in sets { schema.merge(set.schema) }
        self.schema = schema
    }

    /// Whether a message type of this full name is defined.
    package func defines(_ type: String) -> Bool { schema.messages[type] != nil }

    /// Every message type's full name, sorted (map entries left out).
    package var messageTypes: [String] { schema.messages.values.filter { !$0.isMapEntry }.map(\.name).sorted() }
}

/// Why a file is not a descriptor set a body can be read with.
package struct ProtobufDescriptorError: Error, Sendable {
    package let reason: String
}

/// The message type a profile names for the requests at some URLs (`"protobuf": {"messages": […]}`).
package struct ProtobufRoute: Sendable {
    /// Which requests: a filter on the URL without its query.
    package let url: any RequestFilter
    /// The message type's full name (`shop.v1.Checkout`).
    package let type: String

    package init(url: any RequestFilter, type: String) {
        self.url = url
        self.type = type
    }
}

extension VendorDecoder {
    /// Bodies read by the message types of a descriptor set, one type per URL pattern: the
    /// decoder a profile's `"protobuf"` key makes. Each request at a route's URL is one event of
    /// vendor `protobuf`, type `message`, named by its message type, whose properties are the
    /// message as JSON (`ProtobufSchema.json(_:as:)`). Gzip bodies are inflated first, whatever
    /// the content type says.
    ///
    /// ```swift
    /// let decoder = VendorDecoder.protobuf(schema, routes: [ProtobufRoute(url: FieldFilter(.url, "https://api.shop.example/v1/checkout"), type: "shop.v1.Checkout")])
    /// decoder.decode(request).events.first?.properties  // {"order_id": "o-1042", "status": "PAID", …}
    /// ```
    /// A body that does not read as its type is a decode error naming the byte and the field.
    package static func protobuf(_ descriptors: ProtobufDescriptors, routes: [ProtobufRoute]) -> VendorDecoder {
        let schema = descriptors.schema
        return VendorDecoder(
            builtIn: "protobuf",
            rule: "bodies at the profile's URLs, by the message types of its descriptor set (\"protobuf\")"
        ) { request throws(DecodeFailure) in
            var type: ProtobufSchema.Message?
            for route in routes {
                let matches: Bool
                do {
                    matches = try route.url.decide(request)
                } catch {
                    throw DecodeFailure("the URL pattern for \(route.type) cannot decide: \(error)")
                }
                if matches {
                    type = schema.messages[route.type]
                    break
                }
            }
            guard let type else { return nil }
            let message: ProtobufMessage
            do {
                message = try ProtobufMessage(parsing: try Payload.bodyBytes(request) ?? [])
            } catch {
                throw DecodeFailure("body is not a \(type.name): \(error)")
            }
            let properties = try schema.json(message, as: type)
            return [
                AnalyticsEvent(
                    vendor: "protobuf", type: "message", name: type.name, properties: properties,
                    context: .object(["message_type": .string(type.name)]), request: request.id, index: 0)
            ]
        }
    }
}
