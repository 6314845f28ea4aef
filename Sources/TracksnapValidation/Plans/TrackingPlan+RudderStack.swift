import Foundation
public import TracksnapJSON
import TracksnapSnapshot
package import TracksnapYAML

extension TrackingPlan {
    /// Reads a RudderStack tracking plan as rudder-cli's Data Catalog writes it: YAML files
    /// (`version: rudder/v0.1`, or `rudder/v1`) of `kind: events`, `properties`, `custom-types`,
    /// and one `tp` (`tracking-plan`) whose `event_rule`s name an event and its properties by
    /// reference (`$ref: "#/events/GROUP/ID"`, or `"#event:ID"`), each `required` or not.
    ///
    /// ```swift
    /// let plan = try TrackingPlan.loadRudderStack(path: "plans/rudder")
    /// plan.definitions.map(\.title)  // ["track \"Order Completed\"", "identify"]
    /// ```
    /// A folder is read with every YAML file under it, and holds one tracking plan; a file is
    /// its own documents (`---` between them) with the YAML files beside it for the catalog,
    /// and its tracking plan is the one read. An event's properties (an identify's or
    /// group's traits) are checked against a JSON Schema built from its rule: each property's
    /// type and config, `required`, nested properties, and `allow_unplanned` (`additional_properties`)
    /// as `additionalProperties`, false unless the rule says true, as rudder-cli sends it.
    /// - Throws: `InputError` for malformed YAML, a reference to no event, property or custom
    ///   type, an invalid type or config, or no tracking plan: each at its file, line and column.
    public static func loadRudderStack(path: String, workspace: Workspace? = nil) throws(InputError) -> TrackingPlan {
        var isDirectory: ObjCBool = false
        let isFolder = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
        let folder = isFolder ? path : (path as NSString).deletingLastPathComponent
        // A file's catalog is beside it; a folder's anywhere under it.
        var files = yamlFiles(under: folder.isEmpty ? "." : folder, recursively: isFolder)
        if !isFolder {
            let named = URL(fileURLWithPath: path).standardizedFileURL.path
            files = [path] + files.filter { URL(fileURLWithPath: $0).standardizedFileURL.path != named }
        }
        var catalog = RudderStackCatalog()
        for file in files {
            // A file found in the folder is confined as a named one is: a link out of the root is refused.
            if let workspace {
                do throws(InputError) {
                    _ = try workspace.path(file, field: "a RudderStack plan's file")
                } catch {
                    catalog.diagnostics += error.diagnostics
                    continue
                }
            }
            guard let bytes = FileManager.default.contents(atPath: file) else {
                catalog.diagnostics.append(Diagnostic(.error, file: file, message: "cannot be read"))
                continue
            }
            do throws(InputError) {
                for yaml in try YAMLDocument.parseAll(bytes, file: file) { catalog.add(yaml.document) }
            } catch {
                catalog.diagnostics += error.diagnostics
            }
        }
        let plans = catalog.plans.filter { isFolder || $0.file == path }
        guard plans.count == 1, let plan = plans.first else {
            if !catalog.diagnostics.isEmpty { throw InputError(catalog.diagnostics) }
            let message =
                plans.isEmpty
                ? "no RudderStack tracking plan here: a YAML file with `version: rudder/v0.1` and `kind: tp` (or `tracking-plan`) is one"
                : "\(plans.count) RudderStack tracking plans here (\(plans.map(\.file).joined(separator: ", "))): name the file of the one to check"
            throw InputError(file: path, message: message)
        }
        return try catalog.compile(plan, as: path)
    }

    /// Whether a folder is laid out as an Iglu registry rather than a RudderStack project: it is
    /// `schemas`, or holds one, or holds no YAML file.
    static func isIgluRegistry(_ folder: String) -> Bool {
        var isDirectory: ObjCBool = false
        let schemas = (folder as NSString).appendingPathComponent("schemas")
        if (folder as NSString).lastPathComponent == "schemas"
            || FileManager.default.fileExists(atPath: schemas, isDirectory: &isDirectory) && isDirectory.boolValue
        {
            return true
        }
        return yamlFiles(under: folder).isEmpty
    }

    /// Whether a plan path names a YAML file, which only RudderStack plans are.
    static func isYAML(_ path: String) -> Bool { SourceFile.isYAML(path) }

    /// Whether a YAML file holds a RudderStack Data Catalog document (`version: rudder/…`), as
    /// `tracksnap lint` and a folder's listing tell one from a cassette, asking next
    /// (`Cassette.isCassette`) of the same parse.
    package static func isRudderStack(_ file: SourceFile) -> Bool { !rudderStackKinds(file).isEmpty }

    /// A RudderStack YAML file's problems, for `tracksnap lint`: a file holding a tracking plan
    /// has those of the plan it makes with its folder's catalog (which name the catalog's files
    /// too); a catalog file's are found with the plan that uses it.
    ///
    /// ```swift
    /// TrackingPlan.lintRudderStack(file: "plans/rudder/tracking-plan.yaml")  // [plans/rudder/properties.yaml:9:11: error: "money" is not a type: …]
    /// ```
    package static func lintRudderStack(file: String) -> [Diagnostic] {
        let kinds = rudderStackKinds(SourceFile(path: file))
        guard kinds.contains("tp") || kinds.contains("tracking-plan") else { return [] }
        do throws(InputError) {
            _ = try loadRudderStack(path: file)
            return []
        } catch {
            return error.diagnostics
        }
    }

    /// The kinds of a YAML file's RudderStack documents; none when it is not one, or not YAML.
    private static func rudderStackKinds(_ file: SourceFile) -> [String] {
        guard file.isYAML, file.bytes != nil, let documents = try? file.documents() else { return [] }
        return documents.map(\.document.value).filter(RudderStackCatalog.isCatalog).compactMap {
            $0["kind"]?.stringValue
        }
    }

    /// The YAML files under a folder (or only in it), sorted, hidden ones left out.
    private static func yamlFiles(under folder: String, recursively: Bool = true) -> [String] {
        let entries =
            recursively
            ? FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []
            : (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return entries.sorted().filter { entry in
            isYAML(entry) && !entry.split(separator: "/").contains { $0.hasPrefix(".") }
        }
        .map { folder == "." ? $0 : (folder as NSString).appendingPathComponent($0) }
    }
}

/// A RudderStack project's documents by kind, and the JSON Schema each property and custom type
/// stands for, built once (their problems reported once, where they are written).
struct RudderStackCatalog {
    /// An item of a catalog document: `/spec/events/2` of `events.yaml`.
    struct Item {
        let document: JSONDocument
        let pointer: String
        var value: JSONValue { document.value.value(atPointer: pointer) ?? .null }
    }

    /// What a reference can name, as v0.1 writes it (`#/events/GROUP/ID`) and v1 (`#event:ID`).
    enum Kind: String {
        case events, properties
        case customTypes = "custom-types"

        var singular: String {
            switch self {
            case .events: "event"
            case .properties: "property"
            case .customTypes: "custom-type"
            }
        }
    }

    static let primitiveTypes = ["string", "number", "integer", "boolean", "object", "array", "null"]
    /// A property's or custom type's config keys (v0.1 camelCase, v1 snake_case) and the JSON
    /// Schema keyword each is; `itemTypes` becomes `items`.
    static let configKeywords: [String: String] = [
        "enum": "enum", "minimum": "minimum", "maximum": "maximum", "pattern": "pattern", "format": "format",
        "minLength": "minLength", "min_length": "minLength", "maxLength": "maxLength", "max_length": "maxLength",
        "exclusiveMinimum": "exclusiveMinimum", "exclusive_minimum": "exclusiveMinimum",
        "exclusiveMaximum": "exclusiveMaximum", "exclusive_maximum": "exclusiveMaximum",
        "multipleOf": "multipleOf", "multiple_of": "multipleOf", "minItems": "minItems", "min_items": "minItems",
        "maxItems": "maxItems", "max_items": "maxItems", "uniqueItems": "uniqueItems", "unique_items": "uniqueItems",
        "additionalProperties": "additionalProperties", "additional_properties": "additionalProperties",
        "itemTypes": "items", "item_types": "items",
    ]
    static let eventTypes = ["track", "page", "screen", "identify", "group"]

    /// The config keys a document's spec version writes: rudder/v1's snake_case, or v0.1's camelCase.
    static func configKeys(of document: JSONDocument) -> [String] {
        let v1 = document.value["version"]?.stringValue == "rudder/v1"
        return configKeywords.keys.filter { v1 ? !$0.contains(where: \.isUppercase) : !$0.contains("_") }.sorted()
    }

    var diagnostics: [Diagnostic] = []
    var items: [Kind: [String: Item]] = [:]
    var plans: [JSONDocument] = []
    /// Schemas built so far, by kind and id (nil: built with errors).
    private var built: [String: JSONValue?] = [:]
    private var building: Set<String> = []

    static func isCatalog(_ value: JSONValue) -> Bool {
        value["version"]?.stringValue?.hasPrefix("rudder/") == true && value["kind"]?.stringValue != nil
    }

    mutating func error(_ document: JSONDocument, _ pointer: String, _ message: String) {
        diagnostics.append(
            Diagnostic(
                .error, file: document.file, path: pointer, location: Self.location(in: document, pointer),
                message: message))
    }

    /// Where a value stands, or the nearest value holding it that has a place.
    static func location(in document: JSONDocument, _ pointer: String) -> SourceLocation? {
        var pointer = pointer
        while true {
            if let location = document.locations[pointer] { return location }
            guard let slash = pointer.lastIndex(of: "/") else { return nil }
            pointer = String(pointer[..<slash])
        }
    }

    /// Files a document by its kind; other kinds (categories, sources…) and other YAML are left alone.
    mutating func add(_ document: JSONDocument) {
        guard Self.isCatalog(document.value), let kind = document.value["kind"]?.stringValue else { return }
        switch kind {
        case "tp", "tracking-plan": plans.append(document)
        case "events": add(document, "events", as: .events)
        case "properties": add(document, "properties", as: .properties)
        case "custom-types": add(document, "types", as: .customTypes)
        default: break
        }
    }

    private mutating func add(_ document: JSONDocument, _ key: String, as kind: Kind) {
        let pointer = "/spec/\(key)"
        guard let list = document.value.value(atPointer: pointer)?.arrayValue else {
            error(document, pointer, "a \(kind.rawValue) file has spec.\(key), a list")
            return
        }
        for index in list.indices {
            let item = JSONPointer.appending(pointer, index)
            guard let id = list[index]["id"]?.stringValue, !id.isEmpty else {
                error(document, item, "a \(kind.singular) has an \"id\"")
                continue
            }
            if let first = items[kind]?[id] {
                let place = Self.location(in: first.document, first.pointer).map { ":\($0.line)" } ?? ""
                error(
                    document, item + "/id",
                    "\(kind.singular) \"\(id)\" is defined twice; first in \(first.document.file)\(place)")
                continue
            }
            items[kind, default: [:]][id] = Item(document: document, pointer: item)
        }
    }

    /// The item a reference names, or nil with the error at the reference.
    mutating func resolve(_ reference: JSONValue?, _ kind: Kind, in document: JSONDocument, at pointer: String) -> Item?
    {
        let text = reference?.stringValue ?? ""
        var id: String?
        if text.hasPrefix("#/\(kind.rawValue)/") {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            if parts.count == 4, !parts[3].isEmpty { id = String(parts[3]) }
        } else if text.hasPrefix("#\(kind.singular):") {
            id = String(text.dropFirst(kind.singular.count + 2))
        }
        guard let id else {
            error(
                document, pointer,
                "a reference to a \(kind.singular) is \"#/\(kind.rawValue)/GROUP/ID\" (rudder/v0.1) or \"#\(kind.singular):ID\" (rudder/v1), not \(reference.map { $0.stringValue.map { "\"\($0)\"" } ?? $0.typeName } ?? "nothing")"
            )
            return nil
        }
        guard let item = items[kind]?[id] else {
            let known = (items[kind]?.keys.sorted() ?? []).prefix(10).joined(separator: ", ")
            error(
                document, pointer,
                "$ref \"\(text)\" names no \(kind.singular) of the catalog\(known.isEmpty ? "" : " (\(known))")")
            return nil
        }
        return item
    }

    /// The JSON Schema a property or custom type stands for; nil when it has errors (reported once).
    mutating func schema(of item: Item, _ kind: Kind) -> JSONValue? {
        let key = "\(kind.rawValue)\u{0}\(item.document.file)\u{0}\(item.pointer)"
        if let done = built[key] { return done }
        guard !building.contains(key) else {
            error(item.document, item.pointer, "this \(kind.singular) contains itself")
            return nil
        }
        building.insert(key)
        let errors = diagnostics.count
        var schema = typeSchema(of: item)
        if kind == .customTypes, let list = item.value["properties"] {
            schema.merge(objectSchema(list, in: item.document, at: item.pointer + "/properties")) { $1 }
        }
        let result: JSONValue? = diagnostics.count == errors ? .object(schema) : nil
        building.remove(key)
        built[key] = result
        return result
    }

    /// `type` (or v1's `types`), the config (`propConfig` or `config`) and v1's `item_type(s)`.
    private mutating func typeSchema(of item: Item) -> [String: JSONValue] {
        let value = item.value
        var schema: [String: JSONValue] = [:]
        var types: [(name: String, pointer: String)] = []
        if let list = value["types"]?.arrayValue {
            types = list.indices.map { (list[$0].stringValue ?? "", item.pointer + "/types/\($0)") }
        } else if let type = value["type"] {
            let pointer = item.pointer + "/type"
            guard let text = type.stringValue else {
                error(item.document, pointer, "a type is a string, not \(type.typeName)")
                return [:]
            }
            types = text.split(separator: ",").map { ($0.trimmingCharacters(in: .whitespaces), pointer) }
        }
        var primitives: [JSONValue] = []
        var custom: [JSONValue] = []
        for (name, pointer) in types {
            if Self.primitiveTypes.contains(name) {
                primitives.append(.string(name))
            } else if name.hasPrefix("#") {
                guard let customType = resolve(.string(name), .customTypes, in: item.document, at: pointer) else {
                    continue
                }
                custom.append(self.schema(of: customType, .customTypes) ?? .bool(true))
            } else {
                error(
                    item.document, pointer,
                    "\"\(name)\" is not a type: one of \(Self.primitiveTypes.joined(separator: ", ")), or a custom type (\"#/custom-types/GROUP/ID\")"
                )
            }
        }
        let typed: [String: JSONValue] = primitives.isEmpty ? [:] : ["type": .array(primitives)]
        if custom.count == 1, primitives.isEmpty, case .object(let members) = custom[0] {
            schema = members
        } else if !custom.isEmpty {
            schema["anyOf"] = .array(custom + (typed.isEmpty ? [] : [.object(typed)]))
        } else {
            schema = typed
        }
        let configKey = value["propConfig"] != nil ? "propConfig" : "config"
        if let config = value[configKey] {
            merge(config: config, in: item.document, at: item.pointer + "/" + configKey, into: &schema)
        }
        for key in ["item_type", "item_types"] where value[key] != nil {
            merge(
                config: .object([key == "item_type" ? "item_types" : key: value[key] ?? .null]), in: item.document,
                at: item.pointer + "/" + key, into: &schema)
        }
        return schema
    }

    private mutating func merge(
        config: JSONValue, in document: JSONDocument, at pointer: String, into schema: inout [String: JSONValue]
    ) {
        guard let members = config.objectValue else {
            error(document, pointer, "a config is a mapping of keywords (enum, minimum, pattern…)")
            return
        }
        for (key, value) in members.sorted(by: { $0.key < $1.key }) {
            let member = JSONPointer.appending(pointer, key)
            // v1's `item_type` is one type where `item_types` is a list.
            let key = key == "item_type" ? "item_types" : key
            guard let keyword = Self.configKeywords[key] else {
                diagnostics.append(
                    Diagnostic(
                        .error, file: document.file, path: member,
                        location: document.keyLocations[member] ?? Self.location(in: document, member),
                        message:
                            "unknown config keyword \"\(key)\"; one of \(Self.configKeys(of: document).joined(separator: ", "))"
                    ))
                continue
            }
            guard keyword == "items" else {
                schema[keyword] = value
                continue
            }
            let names = value.arrayValue ?? [value]
            var items: [JSONValue] = []
            var primitives: [JSONValue] = []
            for (index, name) in names.enumerated() {
                let at = value.arrayValue == nil ? member : JSONPointer.appending(member, index)
                if let text = name.stringValue, Self.primitiveTypes.contains(text) {
                    primitives.append(name)
                } else if let customType = resolve(name, .customTypes, in: document, at: at) {
                    items.append(self.schema(of: customType, .customTypes) ?? .bool(true))
                }
            }
            if !primitives.isEmpty { items.append(.object(["type": .array(primitives)])) }
            schema["items"] = items.count == 1 ? items[0] : .object(["anyOf": .array(items)])
        }
    }

    /// `properties`/`required` from a list of property references (`$ref` or v1's `property`,
    /// `required`, nested `properties`), as an event rule or an object custom type lists them.
    private mutating func objectSchema(_ list: JSONValue, in document: JSONDocument, at pointer: String)
        -> [String: JSONValue]
    {
        guard let entries = list.arrayValue else {
            error(document, pointer, "properties are a list of {$ref, required}")
            return [:]
        }
        var properties: [String: JSONValue] = [:]
        var required: [JSONValue] = []
        for (index, entry) in entries.enumerated() {
            let at = JSONPointer.appending(pointer, index)
            let referenceKey = entry["property"] != nil ? "property" : "$ref"
            guard let item = resolve(entry[referenceKey], .properties, in: document, at: at + "/" + referenceKey)
            else { continue }
            guard let name = (item.value["name"] ?? item.value["id"])?.stringValue else { continue }
            var schema = self.schema(of: item, .properties)?.objectValue ?? [:]
            if let nested = entry["properties"] {
                schema["type"] = schema["type"] ?? .string("object")
                schema.merge(objectSchema(nested, in: document, at: at + "/properties")) { $1 }
            }
            if let additional = entry["additionalProperties"] ?? entry["additional_properties"] {
                schema["additionalProperties"] = additional
            }
            properties[name] = .object(schema)
            if entry["required"]?.boolValue == true { required.append(.string(name)) }
        }
        var schema: [String: JSONValue] = ["properties": .object(properties)]
        if !required.isEmpty { schema["required"] = .array(required) }
        return schema
    }

    /// The tracking plan's event rules as definitions: one JSON Schema each, compiled together,
    /// each of its places a line of the tracking plan file (the rule, its property references,
    /// their `required`).
    mutating func compile(_ plan: JSONDocument, as path: String) throws(InputError) -> TrackingPlan {
        // Every property and custom type, used or not, so that each one's problems are reported.
        for kind in [Kind.customTypes, .properties] {
            for item in (items[kind] ?? [:]).values.sorted(by: {
                ($0.document.file, $0.pointer) < ($1.document.file, $1.pointer)
            }) {
                _ = self.schema(of: item, kind)
            }
        }
        // Each rule's schema stands where the rule does (`/spec/rules/N`), so that what the plan
        // reader says of it (a duplicate's first definition) names the rule.
        var schemas: [JSONValue] = []
        var locations: [String: SourceLocation] = [:]
        var definitions: [(type: String, name: String?, pointer: String)] = []
        let rules = plan.value.value(atPointer: "/spec/rules")
        if rules != nil, rules?.arrayValue == nil { error(plan, "/spec/rules", "rules are a list of event_rule") }
        for (index, rule) in (rules?.arrayValue ?? []).enumerated() {
            let at = JSONPointer.appending("/spec/rules", index)
            guard rule["type"]?.stringValue == "event_rule" else {
                error(plan, at + "/type", "a rule's type is event_rule")
                continue
            }
            // v0.1: `event: {$ref, allow_unplanned}`; v1: `event: "#event:ID"`, `additional_properties`.
            let eventPointer = rule["event"]?.objectValue != nil ? at + "/event/$ref" : at + "/event"
            guard let event = resolve(plan.value.value(atPointer: eventPointer), .events, in: plan, at: eventPointer)
            else { continue }
            let eventType = event.value["event_type"]?.stringValue ?? "track"
            guard Self.eventTypes.contains(eventType) else {
                error(
                    event.document, event.pointer + "/event_type",
                    "an event_type is one of \(Self.eventTypes.joined(separator: ", "))")
                continue
            }
            let name = event.value["name"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
            if eventType == "track", name == nil {
                error(event.document, event.pointer, "a track event has a \"name\"")
                continue
            }
            let schemaPointer = at
            var schema = objectSchema(rule["properties"] ?? .array([]), in: plan, at: at + "/properties")
            schema["type"] = .string("object")
            let additionalPointer = [at + "/event/allow_unplanned", at + "/additional_properties"].first {
                plan.value.value(atPointer: $0) != nil
            }
            schema["additionalProperties"] = .bool(
                additionalPointer.flatMap { plan.value.value(atPointer: $0)?.boolValue } ?? false)
            placeProperties(
                rule["properties"], listedAt: at + "/properties", in: plan, schema: .object(schema), at: schemaPointer,
                &locations)
            if let additionalPointer {
                locations[schemaPointer + "/additionalProperties"] = plan.locations[additionalPointer]
            }
            Self.place(.object(schema), at: schemaPointer, Self.location(in: plan, at), &locations)
            schemas += Array(repeating: .null, count: index - schemas.count) + [.object(schema)]
            let type = eventType
            definitions.append((type, type == "identify" || type == "group" ? nil : name, schemaPointer))
        }
        let document = JSONDocument(
            file: plan.file, value: ["spec": ["rules": .array(schemas)]], locations: locations,
            keyLocations: locations)
        var reader = PlanReader(document: document, format: .rudderStack)
        for definition in definitions {
            reader.define(
                type: definition.type, name: definition.name, schemaAt: definition.pointer, subject: .properties)
        }
        let found = diagnostics + reader.diagnostics
        guard found.isEmpty else { throw InputError(found) }
        let compiled = try reader.finish()
        return TrackingPlan(file: path, format: .rudderStack, definitions: compiled.definitions)
    }

    /// The places of an object schema built from a list of property references: each property's
    /// schema at its reference (a nested list's at theirs), each `required` at its `required`.
    private func placeProperties(
        _ list: JSONValue?, listedAt listPointer: String, in plan: JSONDocument, schema: JSONValue,
        at schemaPointer: String,
        _ locations: inout [String: SourceLocation]
    ) {
        for (index, entry) in (list?.arrayValue ?? []).enumerated() {
            let entryPointer = JSONPointer.appending(listPointer, index)
            let referenceKey = entry["property"] != nil ? "property" : "$ref"
            guard let reference = entry[referenceKey], let property = peek(reference),
                let name = (property["name"] ?? property["id"])?.stringValue
            else { continue }
            let location = Self.location(in: plan, entryPointer + "/" + referenceKey)
            let propertySchema = schema["properties"]?[name] ?? .null
            let propertyPointer = JSONPointer.appending(schemaPointer + "/properties", name)
            placeProperties(
                entry["properties"], listedAt: entryPointer + "/properties", in: plan, schema: propertySchema,
                at: propertyPointer, &locations)
            Self.place(propertySchema, at: propertyPointer, location, &locations)
            if let requiredIndex = schema["required"]?.arrayValue?.firstIndex(of: .string(name)) {
                locations[JSONPointer.appending(schemaPointer + "/required", requiredIndex)] =
                    plan.locations[entryPointer + "/required"] ?? location
            }
        }
    }

    /// The catalog item a reference names, without reporting anything.
    private func peek(_ reference: JSONValue) -> JSONValue? {
        guard let text = reference.stringValue else { return nil }
        let id =
            text.hasPrefix("#property:")
            ? String(text.dropFirst("#property:".count)) : String(text.split(separator: "/").last ?? "")
        return items[.properties]?[id]?.value
    }

    /// Gives every value under `pointer` that has no place yet the place `location`.
    private static func place(
        _ value: JSONValue, at pointer: String, _ location: SourceLocation?, _ locations: inout [String: SourceLocation]
    ) {
        guard let location else { return }
        if locations[pointer] == nil { locations[pointer] = location }
        if let members = value.objectValue {
            for (key, member) in members {
                place(member, at: JSONPointer.appending(pointer, key), location, &locations)
            }
        } else if let elements = value.arrayValue {
            for (index, element) in elements.enumerated() {
                place(element, at: JSONPointer.appending(pointer, index), location, &locations)
            }
        }
    }
}
