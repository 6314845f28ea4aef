/// A `JSONValue` under any `Encoder` or `Decoder`: under `JSONValueCoder` it is taken as it is,
/// so that a number keeps its text (`12.50`); under another coder (Foundation's `JSONEncoder`,
/// say) a number goes through `Int` or `Double`.
extension JSONValue: Codable {
    public func encode(to encoder: any Encoder) throws {
        if let encoder = encoder as? JSONValueCoder.ValueEncoder {
            encoder.node.value = self
            return
        }
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let bool): try container.encode(bool)
        case .number(let text):
            if let int = Int(text) { try container.encode(int) } else { try container.encode(Double(text) ?? 0) }
        case .string(let string): try container.encode(string)
        case .array(let items): try container.encode(items)
        case .object(let members): try container.encode(members)
        }
    }

    public init(from decoder: any Decoder) throws {
        if let decoder = decoder as? JSONValueCoder.ValueDecoder {
            self = decoder.value
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let int = try? container.decode(Int.self) {
            self = .number(int)
        } else if let double = try? container.decode(Double.self) {
            self = .number(double)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let items = try? container.decode([JSONValue].self) {
            self = .array(items)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }
}
