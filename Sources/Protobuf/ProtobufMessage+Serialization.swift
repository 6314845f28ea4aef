extension ProtobufMessage {
    /// The message written back to the wire: the same fields in the same order, varints in their
    /// shortest form, length-delimited bytes as they were. Reading it again gives the same
    /// fields (the fuzz target's property).
    ///
    /// ```swift
    /// try ProtobufMessage(parsing: body).serialized() == body  // when body's varints are minimal
    /// ```
    package func serialized() -> [UInt8] {
        var out: [UInt8] = []
        write(into: &out)
        return out
    }

    private func write(into out: inout [UInt8]) {
        for field in fields {
            let number = UInt64(field.number) << 3
            switch field.value {
            case .varint(let value):
                Self.varint(number | 0, into: &out)
                Self.varint(value, into: &out)
            case .fixed64(let value):
                Self.varint(number | 1, into: &out)
                for index in 0..<8 { out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
            case .lengthDelimited(let bytes):
                Self.varint(number | 2, into: &out)
                Self.varint(UInt64(bytes.count), into: &out)
                out.append(contentsOf: bytes)
            case .group(let message):
                Self.varint(number | 3, into: &out)
                message.write(into: &out)
                Self.varint(number | 4, into: &out)
            case .fixed32(let value):
                Self.varint(number | 5, into: &out)
                for index in 0..<4 { out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt32(index)))) }
            }
        }
    }

    private static func varint(_ value: UInt64, into out: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            out.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        out.append(UInt8(value))
    }
}
