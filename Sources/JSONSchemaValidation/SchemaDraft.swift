/// A JSON Schema specification version, chosen by a schema's `$schema`.
///
/// ```swift
/// SchemaDraft(metaSchema: "http://json-schema.org/draft-07/schema#")  // .draft7
/// ```
public enum SchemaDraft: String, Sendable, Hashable, CaseIterable, Comparable {
    case draft4 = "draft-04"
    case draft6 = "draft-06"
    case draft7 = "draft-07"
    case draft2020_12 = "2020-12"

    /// The draft's meta-schema URI, as a schema's `$schema` names it.
    public var metaSchema: String {
        switch self {
        case .draft4: "http://json-schema.org/draft-04/schema#"
        case .draft6: "http://json-schema.org/draft-06/schema#"
        case .draft7: "http://json-schema.org/draft-07/schema#"
        case .draft2020_12: "https://json-schema.org/draft/2020-12/schema"
        }
    }

    /// The draft whose meta-schema `uri` names, with or without its empty fragment and with
    /// either scheme; nil for any other URI (a custom meta-schema, whose own `$schema` decides).
    public init?(metaSchema uri: String) {
        var text = Substring(uri)
        if text.hasSuffix("#") { text = text.dropLast() }
        if text.hasPrefix("https://") {
            text = text.dropFirst("https://".count)
        } else if text.hasPrefix("http://") {
            text = text.dropFirst("http://".count)
        }
        switch text {
        case "json-schema.org/draft-04/schema": self = .draft4
        case "json-schema.org/draft-06/schema": self = .draft6
        case "json-schema.org/draft-07/schema": self = .draft7
        case "json-schema.org/draft/2020-12/schema": self = .draft2020_12
        default: return nil
        }
    }

    public static func < (a: SchemaDraft, b: SchemaDraft) -> Bool { a.rank < b.rank }

    private var rank: Int {
        switch self {
        case .draft4: 4
        case .draft6: 6
        case .draft7: 7
        case .draft2020_12: 2020
        }
    }

    /// The keyword that gives a schema its base URI.
    var idKeyword: String { self == .draft4 ? "id" : "$id" }
    /// Whether `$ref` makes its siblings ignored (up to draft-07).
    var refOverridesSiblings: Bool { self <= .draft7 }
}
