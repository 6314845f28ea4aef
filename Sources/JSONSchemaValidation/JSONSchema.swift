public import Patterns
public import TracksnapJSON

/// A JSON Schema compiled once, to validate any number of instances, from any thread.
///
/// ```swift
/// let schema = try JSONSchema(try JSONDocument.parse(bytes, file: "plan/order.json"))
/// schema.isValid(["revenue": "12"])           // false
/// for violation in schema.validate(["revenue": "12"]) { print(violation) }
/// // plan/order.json:5:17: /revenue: type: "12" is not of type number
/// ```
/// The draft is the schema's `$schema` (draft-04, draft-06, draft-07 or 2020-12), else the
/// registry's default (draft-07). Compiling checks the schema against its draft's meta-schema,
/// resolves every `$ref` (inside the document, or to any document of the registry) and compiles
/// every `pattern`; what fails is a `SchemaError` at the schema's line and column.
public struct JSONSchema: Sendable {
    /// How a schema is compiled.
    public struct Options: Sendable {
        /// Whether `format` fails a string that is not in the format (`date-time`, `date`, `time`,
        /// `email`, `hostname`, `ipv4`, `ipv6`, `uri`, `uri-reference`, `uuid`); by default `format`
        /// is only an annotation, as the drafts define it.
        public var assertsFormats: Bool
        /// Whether the schema is checked against its draft's meta-schema first.
        public var checksMetaSchema: Bool

        public init(assertsFormats: Bool = false, checksMetaSchema: Bool = true) {
            self.assertsFormats = assertsFormats
            self.checksMetaSchema = checksMetaSchema
        }
    }

    private let program: Program
    private let root: Int
    /// The draft the schema is read as.
    public let draft: SchemaDraft

    /// Compiles a schema file.
    ///
    /// - Parameters:
    ///   - document: the schema, parsed with locations so that errors point at its lines.
    ///   - registry: the other schemas its `$ref`s may name (the meta-schemas are always there).
    ///   - options: format assertion and the meta-schema check.
    /// - Throws: `SchemaError`, every problem at its file, line and column.
    public init(
        _ document: JSONDocument, registry: SchemaRegistry = SchemaRegistry(), options: Options = Options()
    ) throws(SchemaError) {
        var registry = registry
        let uri = registry.add(document)
        try self.init(uri: uri, registry: registry, options: options)
    }

    /// Compiles a schema built in code, known by its `$id` (else by the empty URI).
    public init(
        _ value: JSONValue, registry: SchemaRegistry = SchemaRegistry(), options: Options = Options()
    ) throws(SchemaError) {
        var registry = registry
        let id = value["$id"]?.stringValue ?? value["id"]?.stringValue
        let uri = registry.add(value, uri: id.map { URIReference.split($0).uri } ?? "")
        try self.init(uri: uri, registry: registry, options: options)
    }

    /// Compiles the schema the registry knows by `uri` (a document's URI, an `$id`, an anchor).
    ///
    /// - Throws: `SchemaError` when no schema has that URI, or the schema is not valid.
    public init(uri: String, registry: SchemaRegistry, options: Options = Options()) throws(SchemaError) {
        guard let (location, _) = registry.resolve(uri, base: "") else {
            throw SchemaError(diagnostics: [Diagnostic(.error, file: uri, message: "no schema has the URI \(uri)")])
        }
        let draft = registry.info(at: location).draft
        self.draft = draft
        if options.checksMetaSchema, let metaSchema = MetaSchemas.validator(for: draft) {
            let document = registry.documents[location.document]
            let violations = metaSchema.validate(registry.value(at: location) ?? .null)
            if !violations.isEmpty {
                throw SchemaError(
                    diagnostics: violations.map { violation in
                        let pointer = location.pointer + violation.instancePath
                        return Diagnostic(
                            .error, file: document.name, path: pointer,
                            location: document.locations[pointer],
                            message: "not a valid \(draft.rawValue) schema: \(violation.keyword): \(violation.message)")
                    })
            }
        }
        var compiler = Compiler(registry: registry, assertsFormats: options.assertsFormats)
        root = compiler.compile(location)
        guard compiler.diagnostics.isEmpty else { throw SchemaError(diagnostics: compiler.diagnostics) }
        program = compiler.program
    }

    /// Whether `instance` is valid; stops at the first failure and builds no message.
    public func isValid(_ instance: JSONValue) -> Bool {
        var evaluator = Evaluator(program: program, collectsViolations: false)
        var none: Annotations?
        // Stopped early, it fails closed, even where a `not` turned a stopped branch into a pass.
        return evaluator.evaluate(root, instance, &none) && evaluator.stop == nil
    }

    /// Whether `instance` is valid, or the error of a pattern that could not tell (PCRE2's
    /// match or depth limit), so that what a schema decides, a profile's filter among others,
    /// never drops a value silently.
    ///
    /// - Throws: `PatternError` when a pattern hit a limit on the way.
    public func decide(_ instance: JSONValue) throws(PatternError) -> Bool {
        var evaluator = Evaluator(program: program, collectsViolations: false)
        var none: Annotations?
        let valid = evaluator.evaluate(root, instance, &none)
        if let limit = evaluator.limit { throw limit }
        return valid
    }

    /// Every failure of `instance`, in schema order; empty when it is valid.
    ///
    /// A failure inside a property or item is reported at that value's JSON Pointer; a failing
    /// `anyOf`, `oneOf`, `not`, `if` or `contains` is one failure of that keyword.
    public func validate(_ instance: JSONValue) -> [SchemaViolation] {
        var evaluator = Evaluator(program: program, collectsViolations: true)
        var none: Annotations?
        _ = evaluator.evaluate(root, instance, &none)
        let violations = evaluator.violations ?? []
        let message: String
        switch evaluator.stop {
        case nil: return violations
        case .cancelled: message = "the validation stopped before its end: its caller is gone (the task was cancelled)"
        case .exhausted:
            message =
                "the instance needs more than \(Evaluator.evaluationLimit) subschema evaluations (the bound; $ref, anyOf and oneOf fanning out): it is not valid"
        }
        return violations + [SchemaViolation(keyword: "$bound", instancePath: "", schemaPath: "#", message: message)]
    }
}
