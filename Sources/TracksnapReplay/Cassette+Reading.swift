import Foundation
public import TracksnapCore
import TracksnapModel

extension Cassette {
    /// Reads a cassette file as the tool that wrote it reads it, telling the format by its shape.
    ///
    /// ```swift
    /// let (cassette, warnings) = try Cassette.read(path: "Fixtures/vcr/login.json")
    /// for warning in warnings { print(warning) }  // Fixtures/vcr/login.json:4:7: warning: no "recorded_at"; …
    /// ```
    /// What the tool's own writer always writes but the file lacks (DVR's `name` and
    /// `recorded_at`, a response's `url` or headers) is a warning at its place; what leaves an
    /// interaction nothing to replay (no URL, no status a response can have) is an error.
    /// - Returns: the cassette, and the warnings found in it.
    /// - Throws: `InputError` with every error, each at its file, line and column.
    public static func read(path: String) throws(InputError) -> (cassette: Cassette, warnings: [Diagnostic]) {
        try read(JSONDocument.load(path: path))
    }

    /// Reads a cassette from the bytes of a file; see `read(path:)`.
    public static func read(_ bytes: some Collection<UInt8>, file: String) throws(InputError) -> (
        cassette: Cassette, warnings: [Diagnostic]
    ) {
        let document: JSONDocument
        do {
            document = try JSONDocument.parse(bytes, file: file)
        } catch {
            throw InputError(file: error.file, location: error.location, message: error.message)
        }
        return try read(document)
    }

    private static func read(_ document: JSONDocument) throws(InputError) -> (
        cassette: Cassette, warnings: [Diagnostic]
    ) {
        var reader = CassetteReader(document: document)
        let cassette = reader.cassette()
        let errors = reader.parser.diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty, let cassette else { throw InputError(errors) }
        return (cassette, reader.parser.diagnostics.filter { $0.severity != .error })
    }
}

/// Reads one cassette document, collecting every problem at its JSON Pointer (and so at its
/// line and column).
private struct CassetteReader {
    let document: JSONDocument
    var parser: MatcherParser

    init(document: JSONDocument) {
        self.document = document
        parser = MatcherParser(document: document)
    }

    mutating func cassette() -> Cassette? {
        let root = document.value
        if let tracks = root.arrayValue {
            return Cassette(format: .vinyl, interactions: interactions(tracks, at: "", format: .vinyl))
        }
        guard let top = root.objectValue, let list = top["interactions"] else {
            parser.error(
                "",
                "not a cassette: expected tracksnap's or DVR's {\"name\", \"interactions\": […]} or Vinyl's array of tracks, found \(root.typeName == "object" ? "an object without \"interactions\"" : root.typeName)"
            )
            return nil
        }
        let format: Cassette.Format = top["cassette"] == nil ? .dvr : .tracksnap
        if let version = top["cassette"], version != .number("1") {
            parser.error("/cassette", "cassette format \(version.serialized()): this tracksnap reads format 1")
            return nil
        }
        guard let items = list.arrayValue else {
            parser.error("/interactions", "\"interactions\" is an array, not \(list.typeName)")
            return nil
        }
        let name = top["name"]?.stringValue
        if name == nil, format == .dvr {
            parser.warning("", "no \"name\": DVR's own writer always writes one, and DVR refuses a cassette without it")
        }
        return Cassette(
            name: name, format: format, interactions: interactions(items, at: "/interactions", format: format))
    }

    mutating func interactions(_ items: [JSONValue], at pointer: String, format: Cassette.Format) -> [Interaction] {
        items.enumerated().compactMap { index, item in
            interaction(item, at: JSONPointer.appending(pointer, index), format: format)
        }
    }

    mutating func interaction(_ value: JSONValue, at pointer: String, format: Cassette.Format) -> Interaction? {
        guard let object = value.objectValue else {
            parser.error(
                pointer, "an interaction is an object with \"request\" and \"response\", not \(value.typeName)")
            return nil
        }
        var recordedAt: Double?
        if format == .tracksnap, let time = object["recordedAt"] {
            recordedAt = time.stringValue.flatMap(Interaction.seconds)
            if recordedAt == nil {
                parser.warning(
                    JSONPointer.appending(pointer, "recordedAt"),
                    "\"recordedAt\" is an RFC 3339 time (2026-11-24T19:00:00Z); left out")
            }
        }
        if format == .dvr {
            recordedAt = object["recorded_at"]?.doubleValue
            if recordedAt == nil {
                parser.warning(
                    object["recorded_at"] == nil ? pointer : JSONPointer.appending(pointer, "recorded_at"),
                    "no \"recorded_at\" (seconds since 1970): DVR's own writer always writes it, and DVR skips an interaction without it"
                )
            }
        }
        guard let responseValue = object["response"] else {
            parser.error(pointer, "no \"response\": nothing to answer with")
            return nil
        }
        let responsePointer = JSONPointer.appending(pointer, "response")
        guard let response = response(responseValue, at: responsePointer, format: format) else { return nil }
        let request: Interaction.Request?
        if let requestValue = object["request"] {
            request = self.request(requestValue, at: JSONPointer.appending(pointer, "request"), format: format)
        } else if format == .vinyl, let url = response.url {
            // Vinyl's own rule: a track without a request is a GET of its response's URL.
            request = Interaction.Request(method: "GET", url: url)
        } else {
            parser.error(pointer, "no \"request\": nothing to match a request against")
            return nil
        }
        return request.map { Interaction(request: $0, response: response, recordedAt: recordedAt) }
    }

    mutating func request(_ value: JSONValue, at pointer: String, format: Cassette.Format) -> Interaction.Request? {
        guard let object = value.objectValue else {
            parser.error(
                pointer,
                "a request is an object with \"method\", \"url\", \"headers\" and \"body\", not \(value.typeName)")
            return nil
        }
        guard let url = object["url"]?.stringValue, !url.isEmpty else {
            parser.error(
                object["url"] == nil ? pointer : JSONPointer.appending(pointer, "url"),
                "a request needs its \"url\", a string: it is what a request is matched by")
            return nil
        }
        var method = "GET"
        if let given = object["method"] {
            if let text = given.stringValue, !text.isEmpty {
                method = text.uppercased()
            } else {
                parser.warning(JSONPointer.appending(pointer, "method"), "\"method\" is a string; read as GET")
            }
        }
        let headers = headers(object["headers"], at: JSONPointer.appending(pointer, "headers"))
        let body = body(of: object, at: pointer, headers: headers, tool: format)
        return Interaction.Request(method: method, url: url, headers: headers, body: body)
    }

    mutating func response(_ value: JSONValue, at pointer: String, format: Cassette.Format) -> Interaction.Response? {
        guard let object = value.objectValue else {
            parser.error(
                pointer, "a response is an object with \"status\", \"headers\" and \"body\", not \(value.typeName)")
            return nil
        }
        guard let status = object["status"]?.scalarText.flatMap(Int.init), (100...599).contains(status) else {
            parser.error(
                object["status"] == nil ? pointer : JSONPointer.appending(pointer, "status"),
                "a response needs its \"status\", an HTTP status code from 100 to 599")
            return nil
        }
        let url = object["url"]?.stringValue
        if url == nil, format != .tracksnap {
            parser.warning(pointer, "no \"url\" in the response: \(format.rawValue)'s own writer always writes it")
        }
        if object["headers"] == nil, format != .tracksnap {
            parser.warning(
                pointer, "no \"headers\" in the response: \(format.rawValue)'s own writer always writes them")
        }
        let headers = headers(object["headers"], at: JSONPointer.appending(pointer, "headers"))
        let body = body(of: object, at: pointer, headers: headers, tool: format)
        return Interaction.Response(status: status, headers: headers, body: body, url: url)
    }

    /// An object of header names to strings (a repeated header: an array of them); anything else
    /// is a warning, and left out.
    mutating func headers(_ value: JSONValue?, at pointer: String) -> [CapturedRequest.Header] {
        guard let value else { return [] }
        guard let object = value.objectValue else {
            parser.warning(pointer, "\"headers\" is an object of names to strings, not \(value.typeName); read as none")
            return []
        }
        return object.keys.sorted().flatMap { name in
            let given = object[name] ?? .null
            let values = given.arrayValue.map { $0.compactMap(\.scalarText) } ?? given.scalarText.map { [$0] }
            guard let values, values.count == (given.arrayValue?.count ?? 1) else {
                parser.warning(JSONPointer.appending(pointer, name), "a header's value is a string; left out")
                return [CapturedRequest.Header]()
            }
            return values.map { CapturedRequest.Header(name: name, value: $0) }
        }
    }

    /// The body of a request or response object: tracksnap's `json`, `text` or `base64`, or the
    /// `body` of DVR and Vinyl.
    mutating func body(
        of object: [String: JSONValue], at pointer: String, headers: [CapturedRequest.Header], tool: Cassette.Format
    ) -> Interaction.Body? {
        guard tool == .tracksnap else {
            return body(
                object["body"], format: object["body_format"]?.stringValue, headers: headers,
                at: JSONPointer.appending(pointer, "body"), tool: tool)
        }
        let given = ["json", "text", "base64"].filter { object[$0] != nil }
        guard let key = given.first, let value = object[key] else { return nil }
        if given.count > 1 {
            parser.error(pointer, "one body: \(given.map { "\"\($0)\"" }.joined(separator: " or ")), not both")
        }
        return body(value, format: key, headers: headers, at: JSONPointer.appending(pointer, key), tool: tool)
    }

    /// A body as DVR and Vinyl store it: by DVR's old `body_format` when there is one, else by the
    /// `Content-Type` header, spelt exactly so, as both tools look it up: `application/json…`
    /// embedded JSON, `text/…` a string, anything else base64 (and for Vinyl, a string with no
    /// `Content-Type` at all is text).
    mutating func body(
        _ value: JSONValue?, format: String?, headers: [CapturedRequest.Header], at pointer: String,
        tool: Cassette.Format
    ) -> Interaction.Body? {
        guard let value, value != .null else { return nil }
        let contentType = headers.first { $0.name == "Content-Type" }?.value
        let stored: String
        switch format {
        case "json": stored = "json"
        case "plain_text", "text": stored = "text"
        case "base64_string", "base64": stored = "base64"
        default:
            if contentType?.hasPrefix("application/json") == true {
                stored = "json"
            } else if contentType?.hasPrefix("text") == true || (tool == .vinyl && contentType == nil) {
                stored = "text"
            } else {
                stored = "base64"
            }
        }
        switch (stored, value) {
        case ("json", _):
            return .json(value)
        case ("text", .string(let text)):
            return .text(text)
        case ("base64", .string(let text)):
            guard let data = Data(base64Encoded: text) else {
                parser.warning(
                    pointer,
                    "not base64, which \(tool.rawValue) expects for a body whose Content-Type is \(contentType.map { "\"\($0)\"" } ?? "missing"); read as text"
                )
                return .text(text)
            }
            return .binary(Array(data))
        default:
            parser.warning(pointer, "a \(stored) body is a string, not \(value.typeName); read as JSON")
            return .json(value)
        }
    }
}
