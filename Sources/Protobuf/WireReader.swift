/// Reads fields off the wire, one level deep (groups excepted, which the wire nests itself).
///
/// Failures are values (`Result`), not thrown: the schemaless reader tries every
/// length-delimited field as a message, and most of those tries fail on text.
struct WireReader {
    /// How deep groups may nest before the reader stops: deeper input is an error, not a stack overflow.
    static let groupDepthLimit = 64

    private let bytes: ArraySlice<UInt8>
    private var position: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        position = bytes.startIndex
    }

    /// Whether every byte has been read.
    var atEnd: Bool { position >= bytes.endIndex }

    /// Every field to the end of the bytes.
    mutating func message(depth: Int) -> Result<ProtobufMessage, ProtobufError> {
        var fields: [ProtobufField] = []
        while position < bytes.endIndex {
            switch field(depth: depth, group: nil) {
            case .success(let field?): fields.append(field)
            case .success(nil):
                return .failure(ProtobufError(offset: position, .unmatchedEndGroup(field: 0)))
            case .failure(let error): return .failure(error)
            }
        }
        return .success(ProtobufMessage(fields: fields))
    }

    /// One field; nil at the end-group tag of `group`.
    private mutating func field(depth: Int, group: Int?) -> Result<ProtobufField?, ProtobufError> {
        let start = position
        let tag: UInt64
        switch varint(what: "a field's tag") {
        case .success(let value): tag = value
        case .failure(let error): return .failure(error)
        }
        let number = tag >> 3
        guard number >= 1, number <= 0x1FFF_FFFF else {
            return .failure(ProtobufError(offset: start, .badFieldNumber(number)))
        }
        let field = Int(number)
        switch tag & 7 {
        case 0:
            return varint(what: "field \(field)'s varint").map {
                ProtobufField(number: field, offset: start, value: .varint($0))
            }
        case 1:
            return fixed(8, field: field).map { ProtobufField(number: field, offset: start, value: .fixed64($0)) }
        case 5:
            return fixed(4, field: field).map {
                ProtobufField(number: field, offset: start, value: .fixed32(UInt32(truncatingIfNeeded: $0)))
            }
        case 2:
            let lengthAt = position
            let length: UInt64
            switch varint(what: "field \(field)'s length") {
            case .success(let value): length = value
            case .failure(let error): return .failure(error)
            }
            let left = bytes.endIndex - position
            guard length <= UInt64(left) else {
                return .failure(
                    ProtobufError(offset: lengthAt, .lengthPastEnd(field: field, length: length, left: left)))
            }
            let end = position + Int(length)
            let value = bytes[position..<end]
            position = end
            return .success(ProtobufField(number: field, offset: start, value: .lengthDelimited(value)))
        case 3:
            guard depth < Self.groupDepthLimit else {
                return .failure(ProtobufError(offset: start, .tooDeep(limit: Self.groupDepthLimit)))
            }
            var fields: [ProtobufField] = []
            while true {
                guard position < bytes.endIndex else {
                    return .failure(ProtobufError(offset: start, .unterminatedGroup(field: field)))
                }
                switch self.field(depth: depth + 1, group: field) {
                case .success(let inner?): fields.append(inner)
                case .success(nil):
                    return .success(
                        ProtobufField(number: field, offset: start, value: .group(ProtobufMessage(fields: fields))))
                case .failure(let error): return .failure(error)
                }
            }
        case 4:
            guard field == group else {
                return .failure(ProtobufError(offset: start, .unmatchedEndGroup(field: field)))
            }
            return .success(nil)
        default:
            return .failure(ProtobufError(offset: start, .badWireType(Int(tag & 7), field: field)))
        }
    }

    /// A little-endian fixed-size value of 4 or 8 bytes.
    mutating func fixed(_ size: Int, field: Int) -> Result<UInt64, ProtobufError> {
        guard bytes.endIndex - position >= size else {
            return .failure(ProtobufError(offset: position, .truncated(what: "field \(field)'s \(size * 8)-bit value")))
        }
        var value: UInt64 = 0
        for index in 0..<size {
            value |= UInt64(bytes[position + index]) << (8 * UInt64(index))
        }
        position += size
        return .success(value)
    }

    /// A base-128 varint of at most 10 bytes; bits beyond 64 are dropped, as protobuf's own
    /// parsers drop them.
    mutating func varint(what: @autoclosure () -> String) -> Result<UInt64, ProtobufError> {
        let start = position
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while position < bytes.endIndex {
            let byte = bytes[position]
            position += 1
            if shift < 64 { value |= UInt64(byte & 0x7F) << shift }
            if byte & 0x80 == 0 { return .success(value) }
            shift += 7
            if shift >= 70 { return .failure(ProtobufError(offset: start, .varintTooLong)) }
        }
        return .failure(ProtobufError(offset: start, .truncated(what: what())))
    }
}
