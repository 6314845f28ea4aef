import Foundation
package import JSONSchemaValidation
public import TracksnapJSON
import TracksnapSnapshot

/// A tracking plan: what any event may be, whatever vendor sent it. Each `Definition` names a
/// call (`track` "Order Completed", `identify`, `group`, `page`/`screen` by name, or every call)
/// and carries a JSON Schema compiled once.
///
/// ```swift
/// let plan = try TrackingPlan.load(path: "Validators/shop.plan.json")
/// plan.definitions.map(\.title)  // ["track \"Order Completed\"", "identify"]
/// ```
/// Read from a native plan (`{"plan": 1, "events": [{"type": "track", "name": "Order Completed",
/// "schema": {…}}]}`), or a Segment tracking plan as its Public API (`rules: [{key, type,
/// jsonSchema, version}]`) or its Config API (`rules: {events, identify_traits, group_traits,
/// global}`) exports it, an mParticle data plan; `Format.detect(_:)` tells them apart. A folder is
/// an Iglu registry (`loadIglu(directory:)`) or, like a YAML file, RudderStack's tracking plan
/// (`loadRudderStack(path:)`).
public struct TrackingPlan: Sendable {
    /// The formats a plan file can take.
    public enum Format: String, Sendable, Hashable {
        /// tracksnap's own: `{"plan": 1, "events": [{"type", "name", "schema"}]}`, where a
        /// schema describes the event's `properties` (or an identify's or group's traits).
        case native
        /// Segment's Public API: `{"rules": [{"key", "type", "jsonSchema", "version"}]}`, also
        /// inside the answer's `data`; a schema describes the whole call. Also Typewriter's
        /// `plan.json`, whose rules' schemas, unwrapped and marked with `eventMetadata`, describe
        /// the event's properties.
        case segmentPublicAPI = "segment-public-api"
        /// Segment's Config API: `{"rules": {"events": [{"name", "rules"}], "identify_traits",
        /// "group_traits", "global"}}`; a schema describes the whole call.
        case segmentConfigAPI = "segment-config-api"
        /// A folder laid out as an Iglu registry (`schemas/VENDOR/NAME/jsonschema/1-0-0`),
        /// applied to Snowplow's self-describing events and contexts by their `iglu:` URI.
        case iglu
        /// An mParticle data plan version (`{"version_document": {"data_points": [{"match",
        /// "validator"}]}}`, or the version document alone): custom events, screen views and user
        /// attributes, each with a JSON Schema of the mParticle event.
        case mParticle = "mparticle"
        /// RudderStack's tracking plan as rudder-cli's Data Catalog writes it: YAML files of
        /// `kind: events`, `properties`, `custom-types` and one `tp` (or `tracking-plan`) whose
        /// event rules name the events and their properties; a folder of them, or one file.
        case rudderStack = "rudderstack"
    }

    /// What a definition's schema is checked against: the event's properties (or traits)
    /// alone, or the whole call as Segment's libraries send it (`CallView`).
    public enum Subject: Sendable, Hashable {
        case properties
        case call
        /// The event as mParticle's data plans describe it: `{"data": {"event_name" or
        /// "screen_name", "custom_attributes"}}`, the properties as custom attributes.
        case mParticleEvent
    }

    /// One planned event.
    public struct Definition: Sendable {
        /// The call type (`track`, `identify`, `group`, `page`, `screen`), or nil for every call
        /// (Segment's common and global rules).
        public var type: String?
        /// The event's name (a track's event, a page's or screen's name); nil for any of its type.
        public var name: String?
        public var subject: Subject
        package var schema: JSONSchema
        /// The schema as written, for the fragment a finding quotes.
        public var schemaValue: JSONValue
        /// The URI the schema is known by in the plan's registry.
        package var uri: String
        /// The plan file and where the definition stands in it.
        public var file: String
        public var location: SourceLocation?

        /// How findings and coverage name it: `track "Order Completed"`, `identify`, `every call`.
        public var title: String {
            guard let type else { return "every call" }
            if type == "iglu", let name { return name }
            return name.map { "\(type) \"\($0)\"" } ?? type
        }

        /// Whether a definition of an event (not every call's) applies to this call.
        func names(type: String, name: String?) -> Bool {
            self.type == type && (self.name == nil || self.name == name)
        }
    }

    /// The plan file, as named.
    public let file: String
    public let format: Format
    public let definitions: [Definition]
    /// The definitions by type, then by name and of every name of the type, and those of every
    /// call, so that an event finds its own without a pass over the plan.
    let byType: [String: OfType]
    let everyCall: [Int]

    /// One type's definitions: by event name, and those of every event of the type.
    struct OfType: Sendable {
        var named: [String: [Int]] = [:]
        var unnamed: [Int] = []
    }

    init(file: String, format: Format, definitions: [Definition]) {
        self.file = file
        self.format = format
        self.definitions = definitions
        var byType: [String: OfType] = [:]
        var everyCall: [Int] = []
        for (index, definition) in definitions.enumerated() {
            guard let type = definition.type else {
                everyCall.append(index)
                continue
            }
            if let name = definition.name {
                byType[type, default: OfType()].named[name, default: []].append(index)
            } else {
                byType[type, default: OfType()].unnamed.append(index)
            }
        }
        self.byType = byType
        self.everyCall = everyCall
    }

    /// Reads and compiles a plan file, an Iglu registry folder (`loadIglu(directory:)`), or a
    /// RudderStack tracking plan, a YAML file or a folder of them (`loadRudderStack(path:)`).
    ///
    /// - Parameters:
    ///   - path: the plan file or folder.
    ///   - workspace: when given (the control API's), every file found in a plan folder goes
    ///     through its `path(_:field:)`: a symbolic link that leads outside the root is refused.
    /// - Throws: `InputError` for a file that cannot be read or parsed, a plan of no known
    ///   format, a definition without its type or name, or an invalid schema or unresolvable
    ///   `$ref`: each at the plan file's line and column.
    public static func load(path: String, workspace: Workspace? = nil) throws(InputError) -> TrackingPlan {
        try load(path: path, named: path, workspace: workspace)
    }

    /// `load(path:workspace:)`, a plan file named `name` (as its caller named it, before it was
    /// resolved) in what the plan reports: its errors and its events' locations. A folder's files
    /// (Iglu, RudderStack) are named by their paths as found.
    package static func load(path: String, named name: String, workspace: Workspace?) throws(InputError)
        -> TrackingPlan
    {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            return try isIgluRegistry(path)
                ? loadIglu(directory: path, workspace: workspace) : loadRudderStack(path: path, workspace: workspace)
        }
        if isYAML(path) { return try loadRudderStack(path: path, workspace: workspace) }
        return try parse(document: JSONDocument.load(path: path, named: name))
    }

    /// Compiles a plan already parsed.
    ///
    /// - Throws: `InputError`, each problem at the file's line and column.
    public static func parse(document: JSONDocument) throws(InputError) -> TrackingPlan {
        var reader = PlanReader(document: document)
        switch Format.detect(document.value) {
        case .native: reader.readNative()
        case .segmentPublicAPI: reader.readSegmentPublicAPI()
        case .segmentConfigAPI: reader.readSegmentConfigAPI()
        case .mParticle: reader.readMParticle()
        case .iglu, .rudderStack, nil:
            reader.error(
                "",
                "not a tracking plan: expected a native plan ({\"plan\": 1, \"events\": […]}), a Segment tracking plan as its Public API ({\"rules\": [{\"key\", \"type\", \"jsonSchema\"}]}) or Config API ({\"rules\": {\"events\": […]}}) exports it, or an mParticle data plan version ({\"version_document\": {\"data_points\": […]}})"
            )
        }
        return try reader.finish()
    }

    /// The definitions that apply to a call: its event's own (by type and name), and every call's.
    func definitions(type: String, name: String?) -> (own: [Definition], common: [Definition]) {
        (
            definitions.filter { $0.type != nil && $0.names(type: type, name: name) },
            definitions.filter { $0.type == nil }
        )
    }
}

extension TrackingPlan.Format {
    /// The format of a plan's top-level value, or nil when it is none of them.
    ///
    /// ```swift
    /// TrackingPlan.Format.detect(["plan": 1, "events": []])  // .native
    /// ```
    public static func detect(_ value: JSONValue) -> Self? {
        // A profile has `"plan"` too (a path), and `"rules"` (vendor rules by vendor name).
        if value["plan"]?.doubleValue != nil { return .native }
        if (value["version_document"] ?? value)["data_points"]?.arrayValue != nil { return .mParticle }
        let rules = value["rules"] ?? value["data"]?["rules"]
        if rules?.arrayValue != nil { return .segmentPublicAPI }
        let configKeys = ["events", "identify_traits", "group_traits", "global"]
        if let object = rules?.objectValue, configKeys.contains(where: { object[$0] != nil }) {
            return .segmentConfigAPI
        }
        return nil
    }

    /// Whether a file is a plan, as `tracksnap lint` tells plans from profiles and snapshots.
    package static func isPlan(_ value: JSONValue) -> Bool { detect(value) != nil }
}

/// Reads a plan document's definitions, gathering every problem at its line and column, then
/// compiles the schemas together (so that one may `$ref` another's `$id`).
struct PlanReader {
    let document: JSONDocument
    let format: TrackingPlan.Format
    private(set) var diagnostics: [Diagnostic] = []
    /// Each definition's schema pointer in the document, with what it is.
    private var pending:
        [(pointer: String, definition: String, type: String?, name: String?, subject: TrackingPlan.Subject)] = []

    init(document: JSONDocument, format: TrackingPlan.Format? = nil) {
        self.document = document
        self.format = format ?? TrackingPlan.Format.detect(document.value) ?? .native
    }

    mutating func error(_ pointer: String, _ message: String) {
        diagnostics.append(
            Diagnostic(
                .error, file: document.file, path: pointer, location: document.locations[pointer], message: message))
    }

    /// A definition whose schema is at `pointer`, written at `definition` (the event's object;
    /// by default the schema's place), where coverage points.
    mutating func define(
        type: String?, name: String?, schemaAt pointer: String, in definition: String? = nil,
        subject: TrackingPlan.Subject
    ) {
        let value = document.value.value(atPointer: pointer)
        guard let value, value.objectValue != nil || value.boolValue != nil else {
            let title = [type, name.map { "\"\($0)\"" }].compactMap { $0 }.joined(separator: " ")
            guard let value else {
                // Absent, it has no place of its own: the definition's is where to add it.
                error(
                    definition ?? pointer,
                    "\(title.isEmpty ? "the definition" : title) has no schema; "
                        + "write \"schema\": true to accept any properties, or a JSON Schema of them")
                return
            }
            error(pointer, "a schema is a JSON object (or true or false), not \(value.typeName)")
            return
        }
        if let duplicate = pending.first(where: { $0.type == type && $0.name == name && type != nil }) {
            let title = name.map { "\(type ?? "") \"\($0)\"" } ?? (type ?? "")
            let line = document.locations[duplicate.definition].map { " (line \($0.line))" } ?? ""
            error(pointer, "\(title) is defined twice; the first definition is at \(duplicate.definition)\(line)")
            return
        }
        pending.append((pointer, definition ?? pointer, type, name, subject))
    }

    /// Compiles every definition's schema; throws every problem found.
    func finish() throws(InputError) -> TrackingPlan {
        var diagnostics = diagnostics
        var registry = SchemaRegistry()
        // `./shop.plan.json` would be a URI the registry normalizes to another: name the file plainly.
        let file = document.file.split(separator: "/", omittingEmptySubsequences: false).filter { $0 != "." }
            .joined(separator: "/")
        let base = "file://" + (file.hasPrefix("/") ? file : "/" + file)
        var uris: [String] = []
        for item in pending {
            let uri = base + "?definition=" + item.pointer
            registry.add(document.subdocument(at: item.pointer), uri: uri)
            uris.append(uri)
        }
        var definitions: [TrackingPlan.Definition] = []
        for (item, uri) in zip(pending, uris) {
            do throws(SchemaError) {
                let schema = try JSONSchema(uri: uri, registry: registry)
                definitions.append(
                    TrackingPlan.Definition(
                        type: item.type, name: item.name, subject: item.subject, schema: schema,
                        schemaValue: document.value.value(atPointer: item.pointer) ?? .bool(true), uri: uri,
                        file: document.file,
                        location: document.locations[item.definition]))
            } catch {
                // Diagnostics of a subdocument: their pointers are relative to the schema.
                diagnostics += error.diagnostics.map { diagnostic in
                    var diagnostic = diagnostic
                    diagnostic.path = diagnostic.path.map { item.pointer + $0 }
                    return diagnostic
                }
            }
        }
        guard diagnostics.isEmpty else { throw InputError(diagnostics) }
        return TrackingPlan(file: document.file, format: format, definitions: definitions)
    }
}

extension JSONDocument {
    /// The value at `pointer` as a document of its own, keeping its lines and columns in this
    /// file: a schema embedded in a plan compiles as a schema, its errors at the plan's lines.
    func subdocument(at pointer: String) -> JSONDocument {
        func rebased(_ locations: [String: SourceLocation]) -> [String: SourceLocation] {
            var result: [String: SourceLocation] = [:]
            for (key, location) in locations where key == pointer || key.hasPrefix(pointer + "/") {
                result[String(key.dropFirst(pointer.count))] = location
            }
            return result
        }
        return JSONDocument(
            file: file, value: value.value(atPointer: pointer) ?? .null, locations: rebased(locations),
            keyLocations: rebased(keyLocations))
    }
}
