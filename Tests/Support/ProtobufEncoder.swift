/// The tests' own protobuf writer, apart from tracksnap's reader: fields appended in order.
///
/// ```swift
/// var message = ProtobufEncoder()
/// message.varint(1, 150)
/// message.string(2, "hi")
/// message.bytes  // [0x08, 0x96, 0x01, 0x12, 0x02, 0x68, 0x69]
/// ```
public struct ProtobufEncoder: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    /// Wire type 0.
    public mutating func varint(_ field: Int, _ value: UInt64) {
        tag(field, 0)
        Self.append(varint: value, to: &bytes)
    }

    /// Wire type 0, a signed value in two's complement (`int64`: ten bytes when negative).
    public mutating func int64(_ field: Int, _ value: Int64) {
        varint(field, UInt64(bitPattern: value))
    }

    /// Wire type 1: `double`.
    public mutating func double(_ field: Int, _ value: Double) {
        fixed64(field, value.bitPattern)
    }

    /// Wire type 1.
    public mutating func fixed64(_ field: Int, _ value: UInt64) {
        tag(field, 1)
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// Wire type 5.
    public mutating func fixed32(_ field: Int, _ value: UInt32) {
        tag(field, 5)
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    /// Wire type 2: UTF-8 text.
    public mutating func string(_ field: Int, _ text: String) {
        lengthDelimited(field, Array(text.utf8))
    }

    /// Wire type 2: a nested message.
    public mutating func message(_ field: Int, _ message: ProtobufEncoder) {
        lengthDelimited(field, message.bytes)
    }

    /// Wire type 2: any bytes.
    public mutating func lengthDelimited(_ field: Int, _ value: [UInt8]) {
        tag(field, 2)
        Self.append(varint: UInt64(value.count), to: &bytes)
        bytes += value
    }

    private mutating func tag(_ field: Int, _ wireType: UInt64) {
        Self.append(varint: UInt64(field) << 3 | wireType, to: &bytes)
    }

    private static func append(varint value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }
}
