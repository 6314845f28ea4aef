import Foundation
public import TracksnapJSON

/// Schemas by URI, for `$ref` across documents: the drafts' meta-schemas, and any document added.
///
/// ```swift
/// var registry = SchemaRegistry()
/// try registry.add(try JSONDocument.parse(bytes, file: "plan/address.json"))  // by its `$id`
/// let order = try JSONSchema(orderDocument, registry: registry)  // may `$ref` address.json's `$id`
/// ```
/// A document is known by the URI it is added under (by default, its `$id`, else its file
/// as a `file://` URI) and by every `$id` inside it; `$anchor`s and plain-name fragments
/// (`"$id": "#item"` up to draft-07) resolve within their resource. Nothing is fetched from the
/// network: a `$ref` to a URI no added document holds is an error of the schema that makes it.
public struct SchemaRegistry: Sendable {
    /// A document and where it came from.
    struct Document: Sendable {
        let value: JSONValue
        /// The URI it was added under.
        let uri: String
        /// The file it was read from, for messages; nil for a value built in code.
        let file: String?
        let locations: [String: SourceLocation]
        let keyLocations: [String: SourceLocation]

        /// What messages call it: its file, else its URI, else `schema`.
        var name: String { file ?? (uri.isEmpty ? "schema" : uri) }
    }

    /// A place in a document: which document, and the JSON Pointer inside it.
    struct Location: Sendable, Hashable {
        let document: Int
        let pointer: String
    }

    /// What indexing learnt of a subschema: its base URI, draft and meta-schema.
    struct SchemaInfo: Sendable {
        let base: String
        let draft: SchemaDraft
        /// The `$schema` in force, when it names a meta-schema other than a draft's own.
        let metaSchema: String?
    }

    /// The draft a schema without `$schema` is read as.
    public var defaultDraft: SchemaDraft

    private(set) var documents: [Document] = []
    /// Schema resources by absolute URI without fragment.
    private(set) var resources: [String: Location] = [:]
    /// Anchors by `URI#name` (`$anchor`, `$dynamicAnchor`, and plain-name `$id`s up to draft-07).
    private(set) var anchors: [String: Location] = [:]
    /// `$dynamicAnchor`s by `URI#name`.
    private(set) var dynamicAnchors: [String: Location] = [:]
    /// Every subschema indexed, by location.
    private(set) var schemas: [Location: SchemaInfo] = [:]

    /// A registry holding the meta-schemas of draft-04, draft-06, draft-07 and 2020-12 (with its vocabularies).
    ///
    /// - Parameter defaultDraft: the draft of a schema without `$schema`; draft-07 unless told.
    public init(defaultDraft: SchemaDraft = .draft7) {
        self = MetaSchemas.registry
        self.defaultDraft = defaultDraft
    }

    /// An empty registry: what the meta-schemas' own registry starts from.
    init(empty defaultDraft: SchemaDraft) {
        self.defaultDraft = defaultDraft
    }

    /// Adds a parsed document; its locations make errors point at its lines.
    ///
    /// - Parameters:
    ///   - document: a schema file.
    ///   - uri: the URI it is retrieved by; by default its root `$id`, else `file://` and its file.
    /// - Returns: the URI the document is known by.
    @discardableResult
    public mutating func add(_ document: JSONDocument, uri: String? = nil) -> String {
        add(
            document.value, file: document.file, locations: document.locations, keyLocations: document.keyLocations,
            uri: uri ?? Self.defaultURI(of: document.value, file: document.file))
    }

    /// Adds a schema built in code, known by `uri` (and its `$id`s).
    @discardableResult
    public mutating func add(_ value: JSONValue, uri: String) -> String {
        add(value, file: nil, locations: [:], keyLocations: [:], uri: uri)
    }

    /// The URI a document is known by when none is given: its root's `$id` (or draft-04's `id`),
    /// else its file as a `file://` URI.
    static func defaultURI(of value: JSONValue, file: String) -> String {
        if let id = value["$id"]?.stringValue ?? value["id"]?.stringValue, Self.isAbsolute(id) {
            return URIReference.split(id).uri
        }
        let path = file.hasPrefix("/") ? file : "/" + file
        return "file://" + path
    }

    private static func isAbsolute(_ uri: String) -> Bool {
        guard let colon = uri.firstIndex(of: ":") else { return false }
        return !uri[..<colon].isEmpty && uri[..<colon].allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
    }

    private mutating func add(
        _ value: JSONValue, file: String?, locations: [String: SourceLocation],
        keyLocations: [String: SourceLocation], uri: String
    ) -> String {
        let documentIndex = documents.count
        let base = URIReference.split(uri).uri
        let document = Document(value: value, uri: base, file: file, locations: locations, keyLocations: keyLocations)
        documents.append(document)
        let root = Location(document: documentIndex, pointer: "")
        resources[base] = root
        let (draft, metaSchema) = draftNamed(by: document.value["$schema"]?.stringValue, otherwise: defaultDraft)
        index(document.value, at: root, base: base, draft: draft, metaSchema: metaSchema)
        return base
    }

    /// The draft a `$schema` value names: a draft's meta-schema, or a custom meta-schema in this
    /// registry (whose own `$schema` decides the draft).
    func draftNamed(by schema: String?, otherwise: SchemaDraft) -> (SchemaDraft, String?) {
        guard let schema else { return (otherwise, nil) }
        if let draft = SchemaDraft(metaSchema: schema) { return (draft, nil) }
        let uri = URIReference.split(schema).uri
        if let location = resources[uri], let info = schemas[location] { return (info.draft, uri) }
        return (otherwise, uri)
    }

    /// Records the identifiers of the schema at `location` and of every subschema under it.
    private mutating func index(
        _ value: JSONValue, at location: Location, base: String, draft: SchemaDraft, metaSchema: String?
    ) {
        guard case .object(let object) = value else {
            schemas[location] = SchemaInfo(base: base, draft: draft, metaSchema: metaSchema)
            return
        }
        var base = base
        var draft = draft
        var metaSchema = metaSchema
        let ignoresSiblings = draft.refOverridesSiblings && object["$ref"] != nil
        if !ignoresSiblings, let id = object[draft.idKeyword]?.stringValue {
            if draft.refOverridesSiblings, id.hasPrefix("#") {
                anchors[base + id] = location
            } else {
                let (uri, fragment) = URIReference.split(URIReference.resolve(id, against: base))
                base = uri
                resources[uri] = location
                if !fragment.isEmpty, draft.refOverridesSiblings { anchors[uri + "#" + fragment] = location }
                if location.pointer != "", let schema = object["$schema"]?.stringValue {
                    (draft, metaSchema) = draftNamed(by: schema, otherwise: draft)
                }
            }
        }
        if draft == .draft2020_12 {
            if let anchor = object["$anchor"]?.stringValue { anchors[base + "#" + anchor] = location }
            if let anchor = object["$dynamicAnchor"]?.stringValue {
                anchors[base + "#" + anchor] = location
                dynamicAnchors[base + "#" + anchor] = location
            }
        }
        schemas[location] = SchemaInfo(base: base, draft: draft, metaSchema: metaSchema)
        for (keyword, child) in object {
            guard let shape = Keywords.subschemaShape(keyword, draft: draft) else { continue }
            let pointer = JSONPointer.appending(location.pointer, keyword)
            switch (shape, child) {
            case (.single, _), (.singleOrArray, .object), (.singleOrArray, .bool):
                index(
                    child, at: Location(document: location.document, pointer: pointer), base: base, draft: draft,
                    metaSchema: metaSchema)
            case (.array, .array(let items)), (.singleOrArray, .array(let items)):
                for (offset, item) in items.enumerated() {
                    let itemLocation = Location(
                        document: location.document, pointer: JSONPointer.appending(pointer, offset))
                    index(item, at: itemLocation, base: base, draft: draft, metaSchema: metaSchema)
                }
            case (.map, .object(let members)):
                for (name, member) in members where member.objectValue != nil || member.boolValue != nil {
                    let memberLocation = Location(
                        document: location.document, pointer: JSONPointer.appending(pointer, name))
                    index(member, at: memberLocation, base: base, draft: draft, metaSchema: metaSchema)
                }
            default: continue
            }
        }
    }

    /// The value at `location`, if the pointer leads anywhere.
    func value(at location: Location) -> JSONValue? {
        documents[location.document].value.value(atPointer: location.pointer)
    }

    /// What indexing recorded for the schema at `location`, or for a location it did not index
    /// (a `$ref` into a non-schema), its nearest indexed ancestor's base and draft.
    func info(at location: Location) -> SchemaInfo {
        var tokens = JSONPointer.tokens(location.pointer)
        while true {
            let pointer = tokens.reduce("") { JSONPointer.appending($0, $1) }
            if let info = schemas[Location(document: location.document, pointer: pointer)] { return info }
            guard !tokens.isEmpty else { return SchemaInfo(base: "", draft: defaultDraft, metaSchema: nil) }
            tokens.removeLast()
        }
    }

    /// The location a reference resolved against `base` names, or nil.
    func resolve(_ reference: String, base: String) -> (location: Location, uri: String)? {
        let absolute = URIReference.resolve(reference, against: base)
        let (uri, fragment) = URIReference.split(absolute)
        if fragment.isEmpty {
            return resources[uri].map { ($0, uri) }
        }
        if fragment.hasPrefix("/") {
            guard let root = resources[uri], let pointer = fragment.removingPercentEncoding else { return nil }
            let location = Location(document: root.document, pointer: root.pointer + pointer)
            return value(at: location) == nil ? nil : (location, uri)
        }
        return anchors[uri + "#" + fragment].map { ($0, uri) }
    }
}
