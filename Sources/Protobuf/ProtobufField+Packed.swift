extension ProtobufField {
    /// A packed repeated field's elements (proto3's default for repeated numbers): a
    /// length-delimited field read as varints, or as 4- or 8-byte little-endian values.
    ///
    /// ```swift
    /// try field.packed(.varint)  // [3, 270, 86942]
    /// ```
    /// - Throws: `ProtobufError` at the byte where an element is cut short, or when the field is
    ///   not length-delimited.
    package func packed(_ element: PackedElement) throws(ProtobufError) -> [UInt64] {
        guard case .lengthDelimited(let bytes) = value else {
            throw ProtobufError(offset: offset, .notAMessage(field: number))
        }
        var reader = WireReader(bytes)
        var values: [UInt64] = []
        while !reader.atEnd {
            let next: Result<UInt64, ProtobufError> =
                switch element {
                case .varint: reader.varint(what: "field \(number)'s packed varint")
                case .fixed32: reader.fixed(4, field: number)
                case .fixed64: reader.fixed(8, field: number)
                }
            switch next {
            case .success(let value): values.append(value)
            case .failure(let error): throw error
            }
        }
        return values
    }

    /// How a packed field's elements are laid out.
    package enum PackedElement: Sendable {
        case varint, fixed32, fixed64
    }
}
