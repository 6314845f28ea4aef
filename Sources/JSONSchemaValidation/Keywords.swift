/// Which keywords each draft and 2020-12 vocabulary knows, and which of them hold subschemas.
enum Keywords {
    /// How a keyword holds subschemas.
    enum Shape {
        case single
        case array
        /// `items` up to draft-07: one schema, or an array of them.
        case singleOrArray
        /// An object whose members are schemas (`properties`, `$defs`; `dependencies`' object members).
        case map
    }

    static func subschemaShape(_ keyword: String, draft: SchemaDraft) -> Shape? {
        switch keyword {
        case "additionalProperties", "not": return .single
        case "allOf", "anyOf", "oneOf": return .array
        case "properties", "patternProperties", "definitions": return .map
        case "items": return draft == .draft2020_12 ? .single : .singleOrArray
        case "additionalItems": return draft == .draft2020_12 ? nil : .single
        case "dependencies": return draft == .draft2020_12 ? nil : .map
        case "contains", "propertyNames": return draft >= .draft6 ? .single : nil
        case "if", "then", "else": return draft >= .draft7 ? .single : nil
        case "unevaluatedItems", "unevaluatedProperties", "contentSchema": return draft == .draft2020_12 ? .single : nil
        case "prefixItems": return draft == .draft2020_12 ? .array : nil
        case "$defs", "dependentSchemas": return draft == .draft2020_12 ? .map : nil
        default: return nil
        }
    }

    /// The 2020-12 vocabularies, by URI, and what each holds.
    static let vocabularies: [String: Set<String>] = [
        "https://json-schema.org/draft/2020-12/vocab/core": [
            "$id", "$schema", "$ref", "$anchor", "$dynamicRef", "$dynamicAnchor", "$vocabulary", "$comment", "$defs",
        ],
        "https://json-schema.org/draft/2020-12/vocab/applicator": [
            "prefixItems", "items", "contains", "additionalProperties", "properties", "patternProperties",
            "dependentSchemas", "propertyNames", "if", "then", "else", "allOf", "anyOf", "oneOf", "not",
        ],
        "https://json-schema.org/draft/2020-12/vocab/unevaluated": ["unevaluatedItems", "unevaluatedProperties"],
        "https://json-schema.org/draft/2020-12/vocab/validation": [
            "type", "const", "enum", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
            "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxContains", "minContains",
            "maxProperties", "minProperties", "required", "dependentRequired",
        ],
        "https://json-schema.org/draft/2020-12/vocab/format-annotation": ["format"],
        "https://json-schema.org/draft/2020-12/vocab/format-assertion": ["format"],
        "https://json-schema.org/draft/2020-12/vocab/content": [],
        "https://json-schema.org/draft/2020-12/vocab/meta-data": [],
    ]

    /// The keywords a draft validates with (annotations such as `title` are left out).
    static func assertions(of draft: SchemaDraft) -> Set<String> {
        switch draft {
        case .draft4: draft4
        case .draft6: draft6
        case .draft7: draft7
        case .draft2020_12: draft2020_12
        }
    }

    private static let draft4: Set<String> = [
        "$ref", "type", "enum", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
        "minLength", "maxLength", "pattern", "format", "items", "additionalItems", "minItems", "maxItems",
        "uniqueItems", "properties", "patternProperties", "additionalProperties", "required", "dependencies",
        "minProperties", "maxProperties", "allOf", "anyOf", "oneOf", "not",
    ]
    private static let draft6 = draft4.union(["const", "contains", "propertyNames"])
    private static let draft7 = draft6.union(["if", "then", "else"])
    private static let draft2020_12 = vocabularies.values.reduce(into: Set<String>()) { $0.formUnion($1) }
}
