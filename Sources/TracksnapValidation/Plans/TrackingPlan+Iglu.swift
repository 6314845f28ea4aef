import Foundation
import JSONSchemaValidation
import TracksnapDecoders
public import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

extension TrackingPlan {
    /// The `schemas` folder of the Iglu registry a file is a schema of
    /// (`…/schemas/VENDOR/NAME/jsonschema/1-0-0`), or nil.
    package static func igluRegistry(containing file: String) -> String? {
        let parts = file.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 5, parts[parts.count - 5] == "schemas", parts[parts.count - 2] == "jsonschema",
            let version = parts.last.map({ $0.hasSuffix(".json") ? $0.dropLast(5) : $0 }),
            version.split(separator: "-").count == 3,
            version.split(separator: "-").allSatisfy({ $0.allSatisfy(\.isNumber) })
        else { return nil }
        return parts.dropLast(4).joined(separator: "/")
    }

    /// What `lint` says of an Iglu schema: the problems of its registry read whole (its schemas
    /// refer to each other), those in this file.
    package static func lintIglu(file: String) -> [Diagnostic] {
        guard let registry = igluRegistry(containing: file) else { return [] }
        do {
            _ = try loadIglu(directory: registry)
            return []
        } catch {
            return error.diagnostics.filter { $0.file == file }
        }
    }

    /// Reads a folder laid out as an Iglu registry: `schemas/VENDOR/NAME/jsonschema/1-0-0` (the
    /// folder holding `schemas`, or `schemas` itself). Each file is a self-describing JSON Schema,
    /// known by `iglu:VENDOR/NAME/jsonschema/1-0-0`; a schema naming Iglu's self-describing
    /// meta-schema in `$schema` is read as draft-04, as Iglu's are.
    ///
    /// ```swift
    /// let registry = try TrackingPlan.loadIglu(directory: "iglu")
    /// registry.definitions.map(\.name)  // ["iglu:com.acme/checkout/jsonschema/1-0-0", …]
    /// ```
    /// - Throws: `InputError` for a folder with no schema, a file that is not JSON, or an
    ///   invalid schema, each at its file, line and column.
    public static func loadIglu(directory: String, workspace: Workspace? = nil) throws(InputError) -> TrackingPlan {
        let schemasFolder =
            (directory as NSString).lastPathComponent == "schemas"
            ? directory : (directory as NSString).appendingPathComponent("schemas")
        let files = (FileManager.default.enumerator(atPath: schemasFolder)?.allObjects as? [String] ?? []).sorted()
            .filter { $0.split(separator: "/").count == 4 && !$0.hasPrefix(".") }
        var documents: [(uri: String, document: JSONDocument)] = []
        var diagnostics: [Diagnostic] = []
        for file in files {
            let path = (schemasFolder as NSString).appendingPathComponent(file)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            do throws(InputError) {
                // Confined as a named file is: a link out of the root is refused.
                if let workspace { _ = try workspace.path(path, field: "an Iglu schema") }
                let version = file.hasSuffix(".json") ? String(file.dropLast(5)) : file
                documents.append(("iglu:" + version, try JSONDocument.load(path: path)))
            } catch {
                diagnostics += error.diagnostics
            }
        }
        if documents.isEmpty, diagnostics.isEmpty {
            throw InputError(
                file: directory,
                message:
                    "no Iglu schema here: an Iglu registry holds schemas/VENDOR/NAME/jsonschema/1-0-0 files")
        }
        var registry = SchemaRegistry(defaultDraft: .draft4)
        var added: [(uri: String, document: JSONDocument, registryURI: String)] = []
        for (uri, document) in documents {
            var value = document.value
            // Iglu's own meta-schema extends draft-04 with `self`; read the schema as draft-04.
            if value["$schema"]?.stringValue?.contains("com.snowplowanalytics.self-desc") == true,
                case .object(var members) = value
            {
                members["$schema"] = nil
                value = .object(members)
            }
            let adjusted = JSONDocument(
                file: document.file, value: value, locations: document.locations, keyLocations: document.keyLocations)
            added.append((uri, document, registry.add(adjusted)))
        }
        var definitions: [Definition] = []
        for item in added {
            do throws(SchemaError) {
                definitions.append(
                    Definition(
                        type: "iglu", name: item.uri, subject: .properties,
                        schema: try JSONSchema(uri: item.registryURI, registry: registry),
                        schemaValue: item.document.value, uri: item.registryURI, file: item.document.file,
                        location: item.document.locations[""]))
            } catch {
                diagnostics += error.diagnostics
            }
        }
        guard diagnostics.isEmpty else { throw InputError(diagnostics) }
        return TrackingPlan(file: directory, format: .iglu, definitions: definitions)
    }

    /// An Iglu registry's findings on a Snowplow event: its self-describing event's data and
    /// each of its contexts' against the schema their `iglu:` URI names; a URI the registry
    /// lacks is an `unplanned_event`. Other events are not the registry's.
    func checkIglu(_ event: AnalyticsEvent, severity: (FindingCode) -> Severity, request: RequestReference)
        -> (findings: [Finding], matched: [Int])
    {
        var subjects: [(uri: String, value: JSONValue, pointer: String)] = []
        if event.type == "self_describing", let uri = event.name, uri.hasPrefix("iglu:") {
            subjects.append((uri, event.properties, "/properties"))
        }
        for (index, context) in (event.context["contexts"]?.arrayValue ?? []).enumerated() {
            guard let uri = context["schema"]?.stringValue, uri.hasPrefix("iglu:") else { continue }
            subjects.append((uri, context["data"] ?? .null, "/context/contexts/\(index)/data"))
        }
        let subject = "\(event.vendor) \(event.type)\(event.name.map { " \"\($0)\"" } ?? "") (event \(event.index + 1))"
        var findings: [Finding] = []
        var matched: [Int] = []
        for (uri, value, pointer) in subjects {
            guard let index = definitions.firstIndex(where: { $0.name == uri }) else {
                findings.append(
                    Finding(
                        code: .unplannedEvent, severity: severity(.unplannedEvent), path: pointer,
                        message: "\(subject) at \(pointer): \(uri) is not in the Iglu registry \(file)",
                        request: request, file: file))
                continue
            }
            matched.append(index)
            findings += violations(of: index, value, prefix: pointer, subject: subject, severity: severity)
                .map {
                    var finding = $0
                    finding.request = request
                    return finding
                }
        }
        return (findings, matched)
    }
}
