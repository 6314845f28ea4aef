extension DecodingError {
    /// Where in the document the error is (`log.entries[3].request.url`) and what was wrong,
    /// worded for the person who has to fix the file.
    var placeAndMessage: (place: String, message: String) {
        switch self {
        case .keyNotFound(let key, let context):
            return (Self.place(context.codingPath + [key]), "missing")
        case .valueNotFound(let type, let context):
            return (Self.place(context.codingPath), "is null, expected \(Self.describe(type))")
        case .typeMismatch(let type, let context):
            return (Self.place(context.codingPath), "expected \(Self.describe(type))")
        case .dataCorrupted(let context):
            return (Self.place(context.codingPath), context.debugDescription)
        @unknown default:
            return ("", String(describing: self))
        }
    }

    private static func place(_ path: [any CodingKey]) -> String {
        var out = ""
        for key in path {
            if let index = key.intValue {
                out += "[\(index)]"
            } else {
                if !out.isEmpty { out += "." }
                out += key.stringValue
            }
        }
        return out
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Double.Type: "a number"
        case is Bool.Type: "a boolean"
        default:
            String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }
}
