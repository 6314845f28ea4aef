import Foundation

/// JSON read back from a rendered report, keeping booleans apart from numbers.
enum ParsedJSON: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([ParsedJSON])
    case object([String: ParsedJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let b = try? container.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? container.decode(Double.self) {
            self = .number(n)
        } else if let s = try? container.decode(String.self) {
            self = .string(s)
        } else if let a = try? container.decode([ParsedJSON].self) {
            self = .array(a)
        } else {
            self = .object(try container.decode([String: ParsedJSON].self))
        }
    }

    static func parse(_ text: String) throws -> ParsedJSON {
        try JSONDecoder().decode(ParsedJSON.self, from: Data(text.utf8))
    }

    subscript(key: String) -> ParsedJSON? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    var array: [ParsedJSON] {
        if case .array(let a) = self { return a }
        return []
    }

    var keys: Set<String> {
        if case .object(let o) = self { return Set(o.keys) }
        return []
    }

    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number(let n): n.rounded() == n ? "integer" : "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

/// A hand check of a value against the parts of JSON Schema that `report.schema.json` uses:
/// `type`, `const`, `enum`, `required`, `properties`, `additionalProperties: false`, `items`,
/// `allOf`, `minimum` and local `$ref`s. Returns one message per violation.
struct SchemaCheck {
    let root: ParsedJSON

    func violations(of value: ParsedJSON, against schema: ParsedJSON? = nil, at pointer: String = "") -> [String] {
        let schema = schema ?? root
        var out: [String] = []
        if case .string(let ref)? = schema["$ref"] {
            let target = ref.dropFirst(2).split(separator: "/").reduce(Optional(root)) { $0?[String($1)] }
            guard let target else { return ["\(pointer): unresolved \(ref)"] }
            out += violations(of: value, against: target, at: pointer)
        }
        for part in schema["allOf"]?.array ?? [] {
            out += violations(of: value, against: part, at: pointer)
        }
        if let type = schema["type"] {
            let allowed = type.stringText.map { [$0] } ?? type.array.compactMap(\.stringText)
            let actual = value.typeName
            if !allowed.contains(actual), !(actual == "integer" && allowed.contains("number")) {
                out.append("\(pointer): \(actual), expected \(allowed)")
            }
        }
        if let constant = schema["const"], constant != value { out.append("\(pointer): not \(constant)") }
        if let options = schema["enum"], !options.array.contains(value) {
            out.append("\(pointer): \(value) not in enum")
        }
        if case .number(let minimum)? = schema["minimum"], case .number(let n) = value, n < minimum {
            out.append("\(pointer): \(n) < \(minimum)")
        }
        if case .object(let members) = value {
            for key in schema["required"]?.array.compactMap(\.stringText) ?? [] where members[key] == nil {
                out.append("\(pointer): missing required \(key)")
            }
            let properties = schema["properties"]
            for (key, member) in members {
                if let propertySchema = properties?[key] {
                    out += violations(of: member, against: propertySchema, at: pointer + "/" + key)
                } else if schema["additionalProperties"] == .bool(false) {
                    out.append("\(pointer): unexpected key \(key)")
                }
            }
        }
        if case .array(let items) = value, let itemSchema = schema["items"] {
            for (i, item) in items.enumerated() {
                out += violations(of: item, against: itemSchema, at: pointer + "/\(i)")
            }
        }
        return out
    }
}

extension ParsedJSON {
    var stringText: String? {
        if case .string(let s) = self { return s }
        return nil
    }
}
