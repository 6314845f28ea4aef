import Foundation
import Protobuf
import TracksnapJSON

extension ProtobufSchema {
    /// A message read by its type, as JSON: fields by their names in the `.proto`, enum values
    /// by their names, repeated fields (packed or not) as arrays, maps as objects keyed by their
    /// keys' text, messages and groups as objects, bytes as base64, every integer as a JSON
    /// number written exactly (64-bit ones too), a float or double's NaN and infinities as
    /// `"NaN"`, `"Infinity"`, `"-Infinity"`. Only the fields on the wire appear (proto3's
    /// defaults are not written). A field the type does not define is kept under its number, read
    /// schemaless (`ProtobufValue.json(_:)`).
    ///
    /// ```swift
    /// try schema.json(message, as: schema.messages["shop.v1.Checkout"]!)
    /// // {"order_id": "o-1042", "status": "PAID", "items": [{"sku": "tee", "quantity": 2}]}
    /// ```
    /// - Throws: `DecodeFailure` naming the byte offset and the field where the wire does not
    ///   carry what the type says (a string sent as a varint, text that is not UTF-8, a nested
    ///   message that does not parse).
    func json(_ message: ProtobufMessage, as type: Message) throws(DecodeFailure) -> JSONValue {
        try json(message, as: type, depth: 0)
    }

    private func json(_ message: ProtobufMessage, as type: Message, depth: Int) throws(DecodeFailure) -> JSONValue {
        guard depth < ProtobufValue.depthLimit else {
            throw DecodeFailure(
                "byte \(message.fields.first?.offset ?? 0): \(type.name) nests messages deeper than \(ProtobufValue.depthLimit) levels"
            )
        }
        var object: [String: JSONValue] = [:]
        var arrays: [String: [JSONValue]] = [:]
        var maps: [String: [String: JSONValue]] = [:]
        var unknown: [ProtobufEntry] = []
        for wire in message.fields {
            guard let field = type.fields[wire.number] else {
                unknown.append(ProtobufEntry(number: wire.number, value: ProtobufValue(wire.value)))
                continue
            }
            guard field.repeated else {
                object[field.name] = try value(wire, field, of: type, depth: depth)
                continue
            }
            if field.type == .message, let entry = field.typeName.flatMap({ messages[$0] }), entry.isMapEntry {
                let (key, value) = try mapEntry(wire, field, entry, of: type, depth: depth)
                maps[field.name, default: [:]][key] = value
            } else if case .lengthDelimited = wire.value, let element = field.type.packedElement {
                let raws: [UInt64]
                do {
                    raws = try wire.packed(element)
                } catch {
                    throw DecodeFailure("\(error) (packed field \"\(field.name)\" of \(type.name))")
                }
                for raw in raws { arrays[field.name, default: []].append(scalar(raw, field)) }
            } else {
                arrays[field.name, default: []].append(try value(wire, field, of: type, depth: depth))
            }
        }
        for (name, values) in arrays { object[name] = .array(values) }
        for (name, entries) in maps { object[name] = .object(entries) }
        if case .object(let byNumber) = ProtobufValue.json(unknown) {
            for (number, value) in byNumber { object[number] = value }
        }
        return .object(object)
    }

    /// One value of a field, its wire type checked against the field's type.
    private func value(_ wire: ProtobufField, _ field: Field, of type: Message, depth: Int) throws(DecodeFailure)
        -> JSONValue
    {
        func mismatch() -> DecodeFailure {
            DecodeFailure(
                "byte \(wire.offset): field \"\(field.name)\" (\(field.number)) of \(type.name) is \(field.type.described), but the body has \(wire.value.described) there"
            )
        }
        switch (field.type.wireType, wire.value) {
        case (.varint, .varint(let raw)), (.fixed64, .fixed64(let raw)):
            return scalar(raw, field)
        case (.fixed32, .fixed32(let raw)):
            return scalar(UInt64(raw), field)
        case (.lengthDelimited, .lengthDelimited(let bytes)):
            switch field.type {
            case .string:
                guard let text = String(validating: bytes, as: UTF8.self) else {
                    throw DecodeFailure(
                        "byte \(wire.offset): field \"\(field.name)\" (\(field.number)) of \(type.name) is a string, but its bytes are not UTF-8"
                    )
                }
                return .string(text)
            case .bytes:
                return .string(Data(bytes).base64EncodedString())
            default:
                return try nested(wire, field, of: type, depth: depth)
            }
        case (.group, .group):
            return try nested(wire, field, of: type, depth: depth)
        default:
            throw mismatch()
        }
    }

    /// A message or group field, read by its own type.
    private func nested(_ wire: ProtobufField, _ field: Field, of type: Message, depth: Int) throws(DecodeFailure)
        -> JSONValue
    {
        guard let inner = field.typeName.flatMap({ messages[$0] }) else { return ProtobufValue(wire.value).json }
        let message: ProtobufMessage
        do {
            message = try wire.message()
        } catch {
            throw DecodeFailure("\(error) (inside field \"\(field.name)\" of \(type.name), a \(inner.name))")
        }
        return try json(message, as: inner, depth: depth + 1)
    }

    /// A map field's entry: its key as text, its value read by the entry's value field.
    private func mapEntry(_ wire: ProtobufField, _ field: Field, _ entry: Message, of type: Message, depth: Int)
        throws(DecodeFailure) -> (String, JSONValue)
    {
        let message: ProtobufMessage
        do {
            message = try wire.message()
        } catch {
            throw DecodeFailure("\(error) (inside map field \"\(field.name)\" of \(type.name))")
        }
        var key: JSONValue?
        var value: JSONValue?
        for inner in message.fields {
            guard let innerField = entry.fields[inner.number] else { continue }
            let read = try self.value(inner, innerField, of: entry, depth: depth + 1)
            if inner.number == 1 { key = read } else if inner.number == 2 { value = read }
        }
        let text: String =
            switch key ?? entry.fields[1].map(defaultValue) ?? .string("") {
            case .string(let text), .number(let text): text
            case .bool(let flag): flag ? "true" : "false"
            default: ""
            }
        return (text, value ?? entry.fields[2].map(defaultValue) ?? .null)
    }

    /// What a map entry's missing key or value means: its type's default.
    private func defaultValue(_ field: Field) -> JSONValue {
        switch field.type {
        case .string, .bytes: .string("")
        case .bool: .bool(false)
        case .message, .group: .object([:])
        default: scalar(0, field)
        }
    }

    /// A number, boolean or enum from its wire bits, as the field's type reads them.
    private func scalar(_ raw: UInt64, _ field: Field) -> JSONValue {
        switch field.type {
        case .int64, .sfixed64: .number(String(Int64(bitPattern: raw)))
        case .uint64, .fixed64: .number(String(raw))
        case .int32, .sfixed32: .number(String(Int32(truncatingIfNeeded: raw)))
        case .uint32, .fixed32: .number(String(UInt32(truncatingIfNeeded: raw)))
        case .sint32:
            .number(String(Int32(truncatingIfNeeded: raw >> 1) ^ -Int32(truncatingIfNeeded: raw & 1)))
        case .sint64: .number(String(Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)))
        case .bool: .bool(raw != 0)
        case .double: Self.floating(Double(bitPattern: raw), text: nil)
        case .float:
            Self.floating(
                Double(Float(bitPattern: UInt32(truncatingIfNeeded: raw))),
                text: String(Float(bitPattern: UInt32(truncatingIfNeeded: raw))))
        case .enum:
            field.typeName.flatMap { enums[$0]?.names[Int32(truncatingIfNeeded: raw)] }.map(JSONValue.string)
                ?? .number(String(Int32(truncatingIfNeeded: raw)))
        case .string, .bytes, .message, .group: .null
        }
    }

    /// A float or double: its shortest text as a number, NaN and the infinities as protobuf's JSON writes them.
    private static func floating(_ value: Double, text: String?) -> JSONValue {
        if value.isNaN { return .string("NaN") }
        if value.isInfinite { return .string(value < 0 ? "-Infinity" : "Infinity") }
        return .number(text.flatMap(Double.init) ?? value)
    }
}

extension ProtobufSchema.FieldType {
    /// What the wire carries for this type.
    var wireType: WireType {
        switch self {
        case .double, .fixed64, .sfixed64: .fixed64
        case .float, .fixed32, .sfixed32: .fixed32
        case .string, .bytes, .message: .lengthDelimited
        case .group: .group
        default: .varint
        }
    }

    /// How a packed repeated field of this type lays out its elements; nil for types that cannot be packed.
    var packedElement: ProtobufField.PackedElement? {
        switch wireType {
        case .varint: .varint
        case .fixed32: .fixed32
        case .fixed64: .fixed64
        case .lengthDelimited, .group: nil
        }
    }

    /// The type as a message names it (`a string`, `an enum`).
    var described: String {
        let name = "\(self)"
        return (["a", "e", "i", "o", "u"].contains(name.prefix(1)) ? "an " : "a ") + name
    }

    enum WireType { case varint, fixed64, fixed32, lengthDelimited, group }
}

extension ProtobufWireValue {
    /// The wire type as a message names it.
    var described: String {
        switch self {
        case .varint: "a varint"
        case .fixed64: "a 64-bit value"
        case .fixed32: "a 32-bit value"
        case .lengthDelimited: "length-delimited bytes"
        case .group: "a group"
        }
    }
}
