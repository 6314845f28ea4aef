import Foundation
import Protobuf
import TracksnapJSON

extension ProtobufValue {
    /// The value as JSON: a varint as a signed 64-bit integer (as `bbpb` reads `int`), a fixed
    /// 32- or 64-bit value as an unsigned integer, text as a string, bytes as base64, a message
    /// or group as an object keyed by field number (`ProtobufValue.json(_:)`).
    var json: JSONValue {
        switch self {
        case .varint(let raw): .number(String(Int64(bitPattern: raw)))
        case .fixed64(let raw): .number(String(raw))
        case .fixed32(let raw): .number(String(raw))
        case .message(let entries), .group(let entries): Self.json(entries)
        case .text(let text): .string(text)
        case .bytes(let bytes): .string(Data(bytes).base64EncodedString())
        }
    }

    /// Fields as a JSON object keyed by their number (`"1"`), a repeated field as an array in
    /// wire order.
    ///
    /// ```swift
    /// ProtobufValue.json(try ProtobufValue.read(body))  // {"1": [{"2": "_vs"}, {"2": "purchase"}], "4": 1732176000120}
    /// ```
    static func json(_ entries: [ProtobufEntry]) -> JSONValue {
        var grouped: [Int: [JSONValue]] = [:]
        for entry in entries { grouped[entry.number, default: []].append(entry.value.json) }
        return .object(
            Dictionary(
                uniqueKeysWithValues: grouped.map { number, values in
                    (String(number), values.count == 1 ? values[0] : .array(values))
                }))
    }
}
