import Foundation
package import TracksnapJSON
import Yams

/// A YAML file read into the same shape as a JSON one: its values as `JSONValue`, each with its
/// line and column, so that a VCR cassette or a RudderStack tracking plan is read, and its
/// problems located, as a JSON file is.
///
/// ```swift
/// let yaml = try YAMLDocument.parse(bytes, file: "Cassettes/login.yml")
/// yaml.document.locations["/interactions/0/request"]  // 3:5
/// ```
package struct YAMLDocument: Sendable {
    package let document: JSONDocument
    /// The JSON Pointers of `!!binary` values (kept as their base64 text in `document`).
    package let binary: Set<String>

    /// More values than this (aliases can repeat a subtree many times over) is refused: in one
    /// document, and in all the documents of a stream together.
    package static let valueLimit = 1_000_000
    /// More documents than this in one stream (`---` between them) is refused.
    package static let documentLimit = 10_000
    /// As for JSON documents.
    package static let depthLimit = 512

    /// - Throws: `InputError` at the line and column libyaml names, or for a document that
    ///   expands beyond `valueLimit` values or nests deeper than `depthLimit`.
    package static func parse(_ bytes: some Collection<UInt8>, file: String) throws(InputError) -> YAMLDocument {
        FileParses.parsed(file)
        let text = try text(bytes, file: file)
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            throw located(error, file: file)
        }
        return try converted(root ?? Node("", Tag(.null)), file: file)
    }

    /// Every document of a YAML stream (`---` between them), each with its lines and columns
    /// in the one file, as a folder's files are read one by one.
    ///
    /// - Throws: as `parse(_:file:)` does, for the first document that cannot be read; when the
    ///   documents together expand beyond `valueLimit` values (five alias bombs just under the
    ///   limit each are one bomb), or there are more than `documentLimit` of them.
    package static func parseAll(_ bytes: some Collection<UInt8>, file: String) throws(InputError) -> [YAMLDocument] {
        FileParses.parsed(file)
        let text = try text(bytes, file: file)
        var documents: [YAMLDocument] = []
        var values = 0
        do {
            let parser = try Parser(yaml: text)
            while let root = try parser.nextRoot() {
                guard documents.count < documentLimit else {
                    throw InputError(
                        file: file, location: root.mark.map { SourceLocation(line: $0.line, column: $0.column) },
                        message: "more than \(documentLimit) YAML documents in one file")
                }
                documents.append(try converted(root, file: file, counted: &values))
            }
        } catch let error as InputError {
            throw error
        } catch {
            throw located(error, file: file)
        }
        return documents
    }

    private static func text(_ bytes: some Collection<UInt8>, file: String) throws(InputError) -> String {
        guard let text = String(validating: Array(bytes), as: UTF8.self) else {
            throw InputError(file: file, message: "not UTF-8 text")
        }
        return text
    }

    private static func converted(_ root: Node, file: String) throws(InputError) -> YAMLDocument {
        var values = 0
        return try converted(root, file: file, counted: &values)
    }

    /// The document, its values added to `counted`: the limit holds for all of them together.
    private static func converted(_ root: Node, file: String, counted: inout Int) throws(InputError) -> YAMLDocument {
        var converter = Converter(file: file, count: counted)
        defer { counted = converter.count }
        let value = try converter.value(root, at: "", depth: 0)
        return YAMLDocument(
            document: JSONDocument(
                file: file, value: value, locations: converter.locations, keyLocations: converter.keyLocations),
            binary: converter.binary)
    }

    private static func located(_ error: any Error, file: String) -> InputError {
        guard let error = error as? YamlError else { return InputError(file: file, message: "not YAML: \(error)") }
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let message = [context?.text, problem].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ": ")
            return InputError(
                file: file, location: SourceLocation(line: mark.line, column: mark.column), message: "YAML: \(message)")
        default:
            return InputError(file: file, message: "YAML: \(error)")
        }
    }

    private struct Converter {
        let file: String
        var locations: [String: SourceLocation] = [:]
        var keyLocations: [String: SourceLocation] = [:]
        var binary: Set<String> = []
        var count = 0

        mutating func value(_ node: Node, at pointer: String, depth: Int) throws(InputError) -> JSONValue {
            count += 1
            let location = node.mark.map { SourceLocation(line: $0.line, column: $0.column) }
            guard count <= YAMLDocument.valueLimit, depth <= YAMLDocument.depthLimit else {
                throw InputError(
                    file: file, location: location,
                    message: count > YAMLDocument.valueLimit
                        ? "more than \(YAMLDocument.valueLimit) values (aliases repeating a part many times over?)"
                        : "nested more than \(YAMLDocument.depthLimit) levels deep")
            }
            if let location { locations[pointer] = location }
            switch node {
            case .scalar(let scalar):
                return Self.scalar(scalar, node: node, at: pointer, binary: &binary)
            case .sequence(let sequence):
                var items: [JSONValue] = []
                for (index, item) in sequence.enumerated() {
                    items.append(try value(item, at: JSONPointer.appending(pointer, index), depth: depth + 1))
                }
                return .array(items)
            case .mapping(let mapping):
                var members: [String: JSONValue] = [:]
                for (key, item) in mapping {
                    guard let name = key.scalar?.string else {
                        throw InputError(
                            file: file, location: key.mark.map { SourceLocation(line: $0.line, column: $0.column) },
                            message:
                                "a mapping key is a string here, not a \(key.sequence == nil ? "mapping" : "sequence")")
                    }
                    let member = JSONPointer.appending(pointer, name)
                    if let mark = key.mark {
                        keyLocations[member] = SourceLocation(line: mark.line, column: mark.column)
                    }
                    members[name] = try value(item, at: member, depth: depth + 1)
                }
                return .object(members)
            case .alias:
                throw InputError(file: file, location: location, message: "an unresolved YAML alias")
            }
        }

        /// A scalar as its resolved tag says: numbers keep their text when it is JSON's, `!!binary`
        /// is its base64 text (whitespace removed) and its pointer is noted.
        static func scalar(_ scalar: Node.Scalar, node: Node, at pointer: String, binary: inout Set<String>)
            -> JSONValue
        {
            switch Tag.Name(rawValue: node.tag.rawValue) {
            case .null: return .null
            case .bool: return node.bool.map(JSONValue.bool) ?? .string(scalar.string)
            case .int: return node.int.map { .number(String($0)) } ?? .string(scalar.string)
            case .float:
                guard let double = node.float, double.isFinite else { return .string(scalar.string) }
                return .number(String(double))
            case .binary:
                binary.insert(pointer)
                return .string(scalar.string.filter { !$0.isWhitespace })
            default: return .string(scalar.string)
            }
        }
    }
}
