/// A protobuf value read without a schema, at every depth: what `protoc --decode_raw` and
/// Python's `bbpb` show.
///
/// A length-delimited field is a nested message when its bytes parse as one entirely (and are
/// not empty), else UTF-8 text when they are valid UTF-8, else bytes. Varints stay unsigned
/// (`integer` gives the two's-complement reading); zigzag is never assumed, since nothing on the
/// wire says a field is `sint`.
///
/// ```swift
/// let fields = try ProtobufValue.read([0x0A, 0x03, 0x08, 0x96, 0x01, 0x12, 0x02, 0x68, 0x69])
/// // [1: .message([1: .varint(150)]), 2: .text("hi")]
/// ```
package indirect enum ProtobufValue: Sendable, Hashable {
    case varint(UInt64)
    case fixed64(UInt64)
    case fixed32(UInt32)
    case message([ProtobufEntry])
    case group([ProtobufEntry])
    case text(String)
    case bytes([UInt8])

    /// How deep nested messages are followed; below, a length-delimited field is text or bytes.
    package static let depthLimit = 64

    /// Reads a whole body schemaless: its fields in wire order, each nested message read too.
    ///
    /// - Throws: `ProtobufError` naming the byte offset where the body stops being protobuf. A
    ///   nested field that does not parse is no error: it is text or bytes.
    package static func read(_ bytes: [UInt8]) throws(ProtobufError) -> [ProtobufEntry] {
        try ProtobufMessage(parsing: bytes).schemaless()
    }
}

/// One field of a message read schemaless: its number and its value.
package struct ProtobufEntry: Sendable, Hashable {
    package let number: Int
    package let value: ProtobufValue

    package init(number: Int, value: ProtobufValue) {
        self.number = number
        self.value = value
    }
}

extension ProtobufMessage {
    /// Every field, length-delimited ones guessed as a message, text or bytes at every depth.
    package func schemaless() -> [ProtobufEntry] {
        schemaless(depth: 0)
    }

    fileprivate func schemaless(depth: Int) -> [ProtobufEntry] {
        fields.map { field in
            ProtobufEntry(number: field.number, value: ProtobufValue(field.value, depth: depth))
        }
    }
}

extension ProtobufValue {
    /// A wire value read schemaless, a length-delimited one guessed as a message, text or bytes.
    package init(_ wire: ProtobufWireValue) {
        self.init(wire, depth: 0)
    }

    init(_ wire: ProtobufWireValue, depth: Int) {
        switch wire {
        case .varint(let value): self = .varint(value)
        case .fixed64(let value): self = .fixed64(value)
        case .fixed32(let value): self = .fixed32(value)
        case .group(let message): self = .group(message.schemaless(depth: depth + 1))
        case .lengthDelimited(let bytes):
            if !bytes.isEmpty, depth < Self.depthLimit {
                var reader = WireReader(bytes)
                if case .success(let message) = reader.message(depth: 0) {
                    self = .message(message.schemaless(depth: depth + 1))
                    return
                }
            }
            if let text = String(validating: bytes, as: UTF8.self) {
                self = .text(text)
            } else {
                self = .bytes(Array(bytes))
            }
        }
    }

    /// A varint or fixed-size value as a signed integer (two's complement); nil otherwise.
    package var integer: Int64? {
        switch self {
        case .varint(let raw): Int64(bitPattern: raw)
        case .fixed64(let raw): Int64(bitPattern: raw)
        case .fixed32(let raw): Int64(Int32(bitPattern: raw))
        default: nil
        }
    }
}
