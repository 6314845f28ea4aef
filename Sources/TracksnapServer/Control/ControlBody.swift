import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

/// A control call's JSON object body, read field by field so that every error names the field:
/// malformed JSON, an unknown field, a wrong type.
///
/// ```swift
/// var body = try ControlBody(request.body.readableBytesView, fields: ["snapshot", "pending"], example: #"{"snapshot": "a.json"}"#)
/// let snapshot = try body.string("snapshot")  // nil when absent
/// let pending = try body.bool("pending") ?? false
/// ```
struct ControlBody {
    struct Problem: Error, Sendable {
        var message: String
    }

    private let members: [String: JSONValue]

    /// - Parameters:
    ///   - bytes: the request body; empty reads as `{}`.
    ///   - fields: the fields this call takes; any other is refused.
    ///   - example: a body the error messages show.
    init(_ bytes: some Collection<UInt8>, fields: Set<String>, example: String) throws(Problem) {
        let value: JSONValue
        if bytes.isEmpty {
            value = .object([:])
        } else {
            do {
                value = try JSONDocument.parse(Array(bytes), file: "body").value
            } catch {
                throw Problem(message: "the body is not JSON (\(error.message)); send an object such as \(example)")
            }
        }
        guard case .object(let members) = value else {
            throw Problem(message: "the body must be a JSON object such as \(example)")
        }
        if let unknown = members.keys.sorted().first(where: { !fields.contains($0) }) {
            throw Problem(
                message: "unknown field \"\(unknown)\"; this call takes \(fields.sorted().joined(separator: ", "))")
        }
        self.members = members
    }

    func contains(_ field: String) -> Bool {
        members[field] != nil && members[field] != .null
    }

    /// The field's JSON as sent; nil when absent or null.
    func value(_ field: String) -> JSONValue? {
        present(field)
    }

    func string(_ field: String) throws(Problem) -> String? {
        guard let value = present(field) else { return nil }
        guard let text = value.stringValue else { throw Problem(message: "\(field) must be a string") }
        return text
    }

    func bool(_ field: String) throws(Problem) -> Bool? {
        guard let value = present(field) else { return nil }
        guard case .bool(let flag) = value else { throw Problem(message: "\(field) must be true or false") }
        return flag
    }

    /// A number of seconds: finite, not negative, at most `maximum`.
    func seconds(_ field: String, maximum: Double) throws(Problem) -> Double? {
        guard let value = present(field) else { return nil }
        guard let number = value.doubleValue, number.isFinite, number >= 0 else {
            throw Problem(message: "\(field) must be a number of seconds, not \(value.serialized())")
        }
        return min(number, maximum)
    }

    func strings(_ field: String) throws(Problem) -> [String]? {
        guard let value = present(field) else { return nil }
        guard let items = value.arrayValue else { throw Problem(message: "\(field) must be an array of strings") }
        var texts: [String] = []
        for item in items {
            guard let text = item.stringValue else { throw Problem(message: "\(field) must be an array of strings") }
            texts.append(text)
        }
        return texts
    }

    /// One of the given words, such as a mode.
    func word(_ field: String, of choices: [String]) throws(Problem) -> String? {
        guard let text = try string(field) else { return nil }
        guard choices.contains(text) else {
            throw Problem(message: "\(field) must be one of \(choices.joined(separator: ", ")), not \"\(text)\"")
        }
        return text
    }

    private func present(_ field: String) -> JSONValue? {
        guard let value = members[field], value != .null else { return nil }
        return value
    }
}
