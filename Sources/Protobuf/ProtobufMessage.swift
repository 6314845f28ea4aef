/// One level of a protobuf message read from the wire, without a schema: its fields in the order
/// sent, each with its number, its wire value and the byte it starts at.
///
/// A length-delimited field stays bytes (`.lengthDelimited`) until a reader asks for it as a
/// message (`ProtobufField.message()`), as text or as bytes: the wire does not say which it is.
/// `ProtobufMessage.schemaless(_:)` makes that guess for every field at every depth.
///
/// ```swift
/// let message = try ProtobufMessage(parsing: [0x08, 0x96, 0x01, 0x12, 0x02, 0x68, 0x69])
/// message.first(1)?.integer   // 150
/// message.first(2)?.text      // "hi"
/// ```
package struct ProtobufMessage: Sendable, Hashable {
    /// The fields in wire order; a repeated field is several entries with one number.
    package var fields: [ProtobufField]

    package init(fields: [ProtobufField]) {
        self.fields = fields
    }

    /// Reads one message that fills the bytes entirely.
    ///
    /// - Parameter bytes: the message; a slice keeps its indices, so offsets in errors and
    ///   fields count from the start of the buffer it was cut from.
    /// - Throws: `ProtobufError` naming the byte offset where the bytes stop being protobuf:
    ///   truncated, a wire type of 6 or 7, a length past the end, a varint over 10 bytes.
    package init(parsing bytes: ArraySlice<UInt8>) throws(ProtobufError) {
        var reader = WireReader(bytes)
        switch reader.message(depth: 0) {
        case .success(let message): self = message
        case .failure(let error): throw error
        }
    }

    /// Reads one message that fills the bytes entirely; offsets count from the first byte.
    package init(parsing bytes: [UInt8]) throws(ProtobufError) {
        try self.init(parsing: bytes[...])
    }

    /// The fields with this number, in wire order.
    package func fields(_ number: Int) -> [ProtobufField] {
        fields.filter { $0.number == number }
    }

    /// The first field with this number.
    package func first(_ number: Int) -> ProtobufField? {
        fields.first { $0.number == number }
    }

    /// The last field with this number: protobuf's rule for a singular field sent twice.
    package func last(_ number: Int) -> ProtobufField? {
        fields.last { $0.number == number }
    }
}

/// A field as it came off the wire.
package struct ProtobufField: Sendable, Hashable {
    /// The field number (1 … 2^29 − 1).
    package let number: Int
    /// The offset of its tag from the start of the body.
    package let offset: Int
    package let value: ProtobufWireValue

    package init(number: Int, offset: Int, value: ProtobufWireValue) {
        self.number = number
        self.offset = offset
        self.value = value
    }

    /// A varint as a signed 64-bit integer (two's complement, as `int64` and `int32` send
    /// negatives; zigzag is not assumed), or a fixed-size integer; nil for other wire types.
    package var integer: Int64? {
        switch value {
        case .varint(let raw): Int64(bitPattern: raw)
        case .fixed64(let raw): Int64(bitPattern: raw)
        case .fixed32(let raw): Int64(Int32(bitPattern: raw))
        default: nil
        }
    }

    /// A 64-bit field read as a `double`, a 32-bit one as a `float`; nil for other wire types.
    package var floatingPoint: Double? {
        switch value {
        case .fixed64(let raw): Double(bitPattern: raw)
        case .fixed32(let raw): Double(Float(bitPattern: raw))
        default: nil
        }
    }

    /// A length-delimited field's bytes as UTF-8 text, when they are valid UTF-8.
    package var text: String? {
        guard case .lengthDelimited(let bytes) = value else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// A length-delimited field's bytes.
    package var bytes: ArraySlice<UInt8>? {
        guard case .lengthDelimited(let bytes) = value else { return nil }
        return bytes
    }

    /// The field read as a nested message: a length-delimited field parsed entirely, or a group.
    ///
    /// - Throws: `ProtobufError` at the byte where the bytes stop being a message, or when the
    ///   field is a number (`what` names the field for that message).
    package func message() throws(ProtobufError) -> ProtobufMessage {
        switch value {
        case .lengthDelimited(let bytes): return try ProtobufMessage(parsing: bytes)
        case .group(let message): return message
        default: throw ProtobufError(offset: offset, .notAMessage(field: number))
        }
    }
}

/// The five things a protobuf field can be on the wire (wire types 0, 1, 2, 5, and 3 … 4).
package enum ProtobufWireValue: Sendable, Hashable {
    /// Wire type 0: `int32`, `int64`, `uint32`, `uint64`, `sint32`, `sint64`, `bool`, `enum`.
    case varint(UInt64)
    /// Wire type 1: `fixed64`, `sfixed64`, `double`.
    case fixed64(UInt64)
    /// Wire type 2: `string`, `bytes`, a nested message, a packed repeated field.
    case lengthDelimited(ArraySlice<UInt8>)
    /// Wire type 5: `fixed32`, `sfixed32`, `float`.
    case fixed32(UInt32)
    /// Wire types 3 and 4: a group, proto2's older way to nest a message.
    case group(ProtobufMessage)
}
