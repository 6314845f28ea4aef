/// The message and enum types of a descriptor set, the file `protoc --descriptor_set_out=FILE`
/// writes (a `google.protobuf.FileDescriptorSet`): what a body needs to be read with field
/// names and enum names.
///
/// The set is itself protobuf, read here with the schemaless reader and the field numbers of
/// `google/protobuf/descriptor.proto`, which protobuf keeps stable: no generated code.
///
/// ```swift
/// let schema = try ProtobufSchema(descriptorSet: bytes)   // protoc --include_imports --descriptor_set_out=shop.pb shop.proto
/// schema.messages["shop.v1.Checkout"]?.fields[2]?.name    // "order_id"
/// ```
package struct ProtobufSchema: Sendable {
    /// Every message type by its full name (`shop.v1.Checkout`, `shop.v1.Checkout.Item`).
    package private(set) var messages: [String: Message] = [:]
    /// Every enum type by its full name.
    package private(set) var enums: [String: Enum] = [:]

    /// A message type: its full name and its fields by number.
    package struct Message: Sendable {
        package let name: String
        package var fields: [Int: Field]
        /// A map's entry type (`map<string, int64>`), whose fields are `key` (1) and `value` (2).
        package var isMapEntry: Bool
    }

    /// One field of a message type.
    package struct Field: Sendable {
        package let name: String
        package let number: Int
        package let type: FieldType
        package let repeated: Bool
        /// The message or enum type's full name, for `.message`, `.group` and `.enum`.
        package var typeName: String?
    }

    /// An enum type: its value names by number (the first name where numbers alias).
    package struct Enum: Sendable {
        package let name: String
        package var names: [Int32: String]
    }

    /// `FieldDescriptorProto.Type`.
    package enum FieldType: Int, Sendable {
        case double = 1
        case float, int64, uint64, int32, fixed64, fixed32, bool, string, group, message, bytes, uint32
        case `enum`, sfixed32, sfixed64, sint32, sint64
    }

    /// Why bytes are not a descriptor set a body can be read with.
    package struct SchemaError: Error, Sendable, CustomStringConvertible {
        package let description: String
        init(_ description: String) { self.description = description }
    }

    package init() {}

    /// Reads a `FileDescriptorSet`.
    ///
    /// - Throws: `SchemaError` when the bytes are not protobuf (with the byte offset), or not a
    ///   descriptor set (a type without a name, a field type that does not exist), or when a
    ///   field names a type the set does not define (compile with `--include_imports`).
    package init(descriptorSet bytes: [UInt8]) throws(SchemaError) {
        let set: ProtobufMessage
        do throws(ProtobufError) {
            set = try ProtobufMessage(parsing: bytes)
        } catch {
            throw SchemaError("it is not protobuf: \(error)")
        }
        for file in set.fields(1) {
            let file = try Self.message(file)
            let package = file.last(2)?.text ?? ""
            for message in file.fields(4) { try add(message: try Self.message(message), scope: package) }
            for item in file.fields(5) { try add(enum: try Self.message(item), scope: package) }
        }
        guard !messages.isEmpty || !enums.isEmpty else {
            throw SchemaError("it defines no message type (protoc --descriptor_set_out writes a descriptor set)")
        }
        try resolveTypeNames()
    }

    /// Several descriptor sets as one; a type defined twice keeps its first definition.
    package mutating func merge(_ other: ProtobufSchema) {
        messages.merge(other.messages) { mine, _ in mine }
        enums.merge(other.enums) { mine, _ in mine }
    }

    private static func join(_ scope: String, _ name: String) -> String {
        scope.isEmpty ? name : scope + "." + name
    }

    private mutating func add(message: ProtobufMessage, scope: String, depth: Int = 0) throws(SchemaError) {
        guard depth < ProtobufValue.depthLimit else {
            throw SchemaError("message types nest deeper than \(ProtobufValue.depthLimit) levels in \(scope)")
        }
        guard let short = message.last(1)?.text, !short.isEmpty else {
            throw SchemaError(
                "it is not a descriptor set: a message type in \(scope.isEmpty ? "it" : scope) has no name")
        }
        let name = Self.join(scope, short)
        var fields: [Int: Field] = [:]
        for item in message.fields(2) {
            let field = try Self.message(item)
            guard let fieldName = field.last(1)?.text, let number = field.last(3)?.integer,
                let rawType = field.last(5)?.integer
            else {
                throw SchemaError("it is not a descriptor set: a field of \(name) lacks its name, number or type")
            }
            guard let type = FieldType(rawValue: Int(rawType)) else {
                throw SchemaError("it is not a descriptor set: field \(name).\(fieldName) has type \(rawType)")
            }
            fields[Int(number)] = Field(
                name: fieldName, number: Int(number), type: type, repeated: field.last(4)?.integer == 3,
                typeName: field.last(6)?.text)
        }
        var isMapEntry = false
        if let options = message.last(7) { isMapEntry = try Self.message(options).last(7)?.integer == 1 }
        messages[name] = Message(name: name, fields: fields, isMapEntry: isMapEntry)
        for nested in message.fields(3) { try add(message: try Self.message(nested), scope: name, depth: depth + 1) }
        for nested in message.fields(4) { try add(enum: try Self.message(nested), scope: name) }
    }

    /// A field of the descriptor set read as the message descriptor.proto says it is.
    private static func message(_ field: ProtobufField) throws(SchemaError) -> ProtobufMessage {
        do throws(ProtobufError) {
            return try field.message()
        } catch {
            throw SchemaError("it is not a descriptor set: \(error)")
        }
    }

    private mutating func add(enum item: ProtobufMessage, scope: String) throws(SchemaError) {
        guard let short = item.last(1)?.text, !short.isEmpty else {
            throw SchemaError("it is not a descriptor set: an enum type in \(scope.isEmpty ? "it" : scope) has no name")
        }
        var names: [Int32: String] = [:]
        for value in item.fields(2) {
            guard let value = try? value.message(), let name = value.last(1)?.text else { continue }
            let number = Int32(truncatingIfNeeded: value.last(2)?.integer ?? 0)
            if names[number] == nil { names[number] = name }
        }
        let name = Self.join(scope, short)
        enums[name] = Enum(name: name, names: names)
    }

    /// Every message, group and enum field's type name made a full name defined in the set:
    /// protoc writes them fully qualified (`.shop.v1.Item`); a relative one is looked up from the
    /// innermost scope out, as protoc resolves it.
    private mutating func resolveTypeNames() throws(SchemaError) {
        for (messageName, message) in messages {
            for (number, field) in message.fields {
                guard [.message, .group, .enum].contains(field.type) else { continue }
                let isEnum = field.type == .enum
                guard let written = field.typeName, !written.isEmpty else {
                    throw SchemaError("it is not a descriptor set: field \(messageName).\(field.name) names no type")
                }
                let (knownEnums, knownMessages) = (enums, messages)
                let defined = { (name: String) in isEnum ? knownEnums[name] != nil : knownMessages[name] != nil }
                var resolved: String?
                if written.hasPrefix(".") {
                    let full = String(written.dropFirst())
                    if defined(full) { resolved = full }
                } else {
                    var scope = messageName
                    while resolved == nil {
                        let candidate = Self.join(scope, written)
                        if defined(candidate) { resolved = candidate }
                        guard let dot = scope.lastIndex(of: ".") else {
                            if defined(written) { resolved = written }
                            break
                        }
                        scope = String(scope[..<dot])
                    }
                }
                guard let resolved else {
                    throw SchemaError(
                        "field \(messageName).\(field.name) is of type \(written), which it does not define (compile with protoc --include_imports)"
                    )
                }
                messages[messageName]?.fields[number]?.typeName = resolved
            }
        }
    }
}
