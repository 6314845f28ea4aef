import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

/// A control call's JSON object body, read field by field so that every error names the field:
/// malformed JSON, an unknown field, a wrong type (a `ControlError`, 400).
///
/// ```swift
/// var body = try ControlBody(request.body.readableBytesView, fields: ["snapshot", "pending"], example: #"{"snapshot": "a.json"}"#)
/// let snapshot = try body.string("snapshot")  // nil when absent
/// let pending = try body.bool("pending") ?? false
/// ```
struct ControlBody {
    private let members: [String: JSONValue]

    /// - Parameters:
    ///   - bytes: the request body; empty reads as `{}`.
    ///   - fields: the fields this call takes; any other is refused.
    ///   - example: a body the error messages show.
    init(_ bytes: some Collection<UInt8>, fields: Set<String>, example: String) throws(ControlError) {
        let value: JSONValue
        if bytes.isEmpty {
            value = .object([:])
        } else {
            do {
                value = try JSONDocument.parse(Array(bytes), file: "body").value
            } catch {
                throw .badRequest("the body is not JSON (\(error.message)); send an object such as \(example)")
            }
        }
        guard case .object(let members) = value else {
            throw .badRequest("the body must be a JSON object such as \(example)")
        }
        if let unknown = members.keys.sorted().first(where: { !fields.contains($0) }) {
            let meant = NearestNames.didYouMean(unknown, among: fields).map { "\($0) " } ?? ""
            throw .badRequest(
                "unknown field \"\(unknown)\"; \(meant)this call takes \(fields.sorted().joined(separator: ", "))")
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

    func string(_ field: String) throws(ControlError) -> String? {
        guard let value = present(field) else { return nil }
        guard let text = value.stringValue else { throw .badRequest("\(field) must be a string") }
        return text
    }

    func bool(_ field: String) throws(ControlError) -> Bool? {
        guard let value = present(field) else { return nil }
        guard case .bool(let flag) = value else { throw .badRequest("\(field) must be true or false") }
        return flag
    }

    /// A number of seconds: finite, not negative, at most `maximum`.
    func seconds(_ field: String, maximum: Double) throws(ControlError) -> Double? {
        guard let value = present(field) else { return nil }
        guard let number = value.doubleValue, number.isFinite, number >= 0 else {
            throw .badRequest("\(field) must be a number of seconds, not \(value.serialized())")
        }
        return min(number, maximum)
    }

    func strings(_ field: String) throws(ControlError) -> [String]? {
        guard let value = present(field) else { return nil }
        guard let items = value.arrayValue else { throw .badRequest("\(field) must be an array of strings") }
        var texts: [String] = []
        for item in items {
            guard let text = item.stringValue else { throw .badRequest("\(field) must be an array of strings") }
            texts.append(text)
        }
        return texts
    }

    /// One of the given words, such as a mode.
    func word(_ field: String, of choices: [String]) throws(ControlError) -> String? {
        guard let text = try string(field) else { return nil }
        guard choices.contains(text) else {
            throw .badRequest("\(field) must be one of \(choices.joined(separator: ", ")), not \"\(text)\"")
        }
        return text
    }

    private func present(_ field: String) -> JSONValue? {
        guard let value = members[field], value != .null else { return nil }
        return value
    }
}
