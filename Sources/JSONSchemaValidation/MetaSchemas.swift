import TracksnapJSON

/// The drafts' meta-schemas, compiled into the module (`PackageResources`, from `MetaSchemas/`:
/// copies of json-schema.org's, as the `jsonschema-specifications` package ships them).
enum MetaSchemas {
    /// A registry of the meta-schemas alone: what every `SchemaRegistry` starts from.
    static let registry: SchemaRegistry = {
        var registry = SchemaRegistry(empty: .draft7)
        let files: [[UInt8]] = [
            PackageResources.draft_04_json, PackageResources.draft_06_json, PackageResources.draft_07_json,
            PackageResources.draft2020_12_json, PackageResources.draft2020_12_core_json,
            PackageResources.draft2020_12_applicator_json, PackageResources.draft2020_12_unevaluated_json,
            PackageResources.draft2020_12_validation_json, PackageResources.draft2020_12_meta_data_json,
            PackageResources.draft2020_12_format_annotation_json,
            PackageResources.draft2020_12_format_assertion_json, PackageResources.draft2020_12_content_json,
        ]
        for bytes in files {
            guard let document = try? JSONDocument.parse(bytes, file: "meta-schema", trackLocations: false),
                let id = document.value["$id"]?.stringValue ?? document.value["id"]?.stringValue
            else { continue }
            registry.add(document.value, uri: id)
        }
        return registry
    }()

    private static let validators: [SchemaDraft: JSONSchema] = {
        var validators: [SchemaDraft: JSONSchema] = [:]
        for draft in SchemaDraft.allCases {
            validators[draft] = try? JSONSchema(
                uri: draft.metaSchema, registry: registry, options: JSONSchema.Options(checksMetaSchema: false))
        }
        return validators
    }()

    /// The compiled meta-schema of a draft.
    static func validator(for draft: SchemaDraft) -> JSONSchema? { validators[draft] }
}
