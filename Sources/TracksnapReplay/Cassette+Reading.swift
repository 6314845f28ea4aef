import Foundation
public import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic
package import TracksnapYAML

extension Cassette {
    /// Reads a cassette file as the tool that wrote it reads it, telling the format by its shape:
    /// tracksnap's own (`{"cassette": 1, …}`), DVR's (`{"name", "interactions"}`), Vinyl's (an
    /// array of tracks), VCR's (`http_interactions`) or vcrpy's (`interactions`, `version`), the
    /// last two in YAML or JSON.
    ///
    /// ```swift
    /// let (cassette, warnings) = try Cassette.read(path: "Cassettes/login.yml")
    /// for warning in warnings { print(warning) }  // Cassettes/login.yml:4:5: warning: no "recorded_at"; …
    /// ```
    /// What the tool's own writer always writes but the file lacks (DVR's `name` and
    /// `recorded_at`, a response's `url` or headers) is a warning at its place; what leaves an
    /// interaction nothing to replay (no URL, no status a response can have) is an error.
    /// - Returns: the cassette, and the warnings found in it.
    /// - Throws: `InputError` with every error, each at its file, line and column.
    public static func read(path: String) throws(InputError) -> (cassette: Cassette, warnings: [Diagnostic]) {
        guard let bytes = FileManager.default.contents(atPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            throw InputError(file: path, message: exists ? "cannot be read (check its permissions)" : "no such file")
        }
        return try read(bytes, file: path)
    }

    /// The same, from a file the questions before this one parsed (`isCassette(_:)`), as JSON
    /// or YAML, which it reads without parsing it again.
    package static func read(_ file: SourceFile) throws(InputError) -> (cassette: Cassette, warnings: [Diagnostic]) {
        guard let bytes = file.bytes else { return try read(path: file.path) }
        if startsJSON(bytes) { return try read(json: file.json()) }
        let yaml = try file.document()
        return try read(CassetteReader(document: yaml.document, binary: yaml.binary), commas: [])
    }

    /// Whether text starts with `{` or `[`, after white space and a byte order mark: JSON.
    private static func startsJSON(_ bytes: some Collection<UInt8>) -> Bool {
        let start = bytes.drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }.first
        return start == UInt8(ascii: "{") || start == UInt8(ascii: "[")
    }

    /// Reads a cassette from the bytes of a file; see `read(path:)`. Text that starts with `{`
    /// or `[` is read as JSON, anything else as YAML.
    public static func read(_ bytes: some Collection<UInt8>, file: String) throws(InputError) -> (
        cassette: Cassette, warnings: [Diagnostic]
    ) {
        guard startsJSON(bytes) else {
            let yaml = try YAMLDocument.parse(bytes, file: file)
            return try read(CassetteReader(document: yaml.document, binary: yaml.binary), commas: [])
        }
        let document: JSONDocument
        do throws(JSONParseError) {
            document = try JSONDocument.parse(bytes, file: file, allowsTrailingCommas: true)
        } catch {
            throw InputError(error)
        }
        return try read(json: document)
    }

    /// The cassette a JSON document holds, each of its trailing commas a warning.
    private static func read(json document: JSONDocument) throws(InputError) -> (
        cassette: Cassette, warnings: [Diagnostic]
    ) {
        let commas = document.trailingCommas.map {
            Diagnostic(
                .warning, file: document.file, location: $0,
                message:
                    "a trailing comma, which JSON does not allow: Vinyl reads it, and so does tracksnap, but other tools may not"
            )
        }
        return try read(CassetteReader(document: document, binary: []), commas: commas)
    }

    /// The cassette a reader makes, with its warnings (a JSON file's trailing `commas` among
    /// them), sorted by place.
    private static func read(_ reader: CassetteReader, commas: [Diagnostic]) throws(InputError) -> (
        cassette: Cassette, warnings: [Diagnostic]
    ) {
        var reader = reader
        let cassette = reader.cassette()
        let errors = reader.parser.diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty, let cassette else { throw InputError(errors) }
        let warnings = commas + reader.parser.diagnostics.filter { $0.severity != .error }
        return (
            cassette,
            warnings.sorted { ($0.location ?? .init(line: 0, column: 0)) < ($1.location ?? .init(line: 0, column: 0)) }
        )
    }
}

/// Reads one cassette document, collecting every problem at its JSON Pointer (and so at its
/// line and column).
private struct CassetteReader {
    let document: JSONDocument
    /// The pointers of YAML `!!binary` values.
    let binary: Set<String>
    var parser: MatcherParser

    init(document: JSONDocument, binary: Set<String>) {
        self.document = document
        self.binary = binary
        parser = MatcherParser(document: document)
    }

    mutating func cassette() -> Cassette? {
        let root = document.value
        if let tracks = root.arrayValue {
            return Cassette(format: .vinyl, interactions: interactions(tracks, at: "", format: .vinyl))
        }
        let top = root.objectValue ?? [:]
        if let log = top["log"]?.objectValue, let entries = log["entries"] {
            guard let items = entries.arrayValue else {
                parser.error("/log/entries", "\"entries\" is an array, not \(entries.typeName)")
                return nil
            }
            return Cassette(
                format: .har,
                interactions: items.enumerated().compactMap {
                    harEntry($1, at: JSONPointer.appending("/log/entries", $0))
                })
        }
        let key = top["http_interactions"] == nil ? "interactions" : "http_interactions"
        guard let list = top[key] else {
            parser.error(
                "",
                "not a cassette: expected tracksnap's or DVR's {\"name\", \"interactions\": […]}, VCR's \"http_interactions\", vcrpy's \"interactions\", HAR's {\"log\": {\"entries\": […]}}, or Vinyl's array of tracks; found \(root.objectValue == nil ? root.typeName : "an object without them")"
            )
            return nil
        }
        let format: Cassette.Format =
            if top["cassette"] != nil {
                .tracksnap
            } else if key == "http_interactions"
                || top["version"] != nil
                    && top["name"] == nil
            { .vcr } else { .dvr }
        if let version = top["cassette"], version != .number("1") {
            parser.error("/cassette", "cassette format \(version.serialized()): this tracksnap reads format 1")
            return nil
        }
        guard let items = list.arrayValue else {
            parser.error("/\(key)", "\"\(key)\" is an array, not \(list.typeName)")
            return nil
        }
        let name = top["name"]?.stringValue
        if name == nil, format == .dvr {
            parser.warning("", "no \"name\": DVR's own writer always writes one, and DVR refuses a cassette without it")
        }
        return Cassette(name: name, format: format, interactions: interactions(items, at: "/\(key)", format: format))
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
        let recordedAt = recordedAt(object, at: pointer, format: format)
        guard let responseValue = object["response"] else {
            parser.error(pointer, "no \"response\": nothing to answer with")
            return nil
        }
        guard let response = response(responseValue, at: JSONPointer.appending(pointer, "response"), format: format)
        else { return nil }
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

    /// tracksnap's `recordedAt` (RFC 3339), DVR's `recorded_at` (seconds since 1970), VCR's
    /// `recorded_at` (an HTTP date); Vinyl and vcrpy record no time.
    mutating func recordedAt(_ object: [String: JSONValue], at pointer: String, format: Cassette.Format) -> Double? {
        let key = format == .tracksnap ? "recordedAt" : format == .har ? "startedDateTime" : "recorded_at"
        guard let value = object[key] else {
            if format == .dvr {
                parser.warning(
                    pointer,
                    "no \"recorded_at\" (seconds since 1970): DVR's own writer always writes it, and DVR skips an interaction without it"
                )
            }
            return nil
        }
        let seconds: Double? =
            switch format {
            case .tracksnap, .har: value.stringValue.flatMap(Interaction.seconds)
            case .vcr: value.stringValue.flatMap(Self.httpDate)
            case .dvr, .vinyl: value.doubleValue
            }
        if seconds == nil {
            let expected =
                switch format {
                case .tracksnap, .har: "an RFC 3339 time (2026-11-24T19:00:00Z)"
                case .vcr: "an HTTP date (Tue, 24 Nov 2026 19:00:00 GMT)"
                case .dvr, .vinyl: "seconds since 1970"
                }
            parser.warning(JSONPointer.appending(pointer, key), "\"\(key)\" is \(expected); left out")
        }
        return seconds
    }

    /// A HAR entry: its `request`, and its `response` unless the browser got none (status 0:
    /// blocked, aborted), which is skipped with a warning.
    mutating func harEntry(_ value: JSONValue, at pointer: String) -> Interaction? {
        guard let object = value.objectValue, object["request"] != nil, let response = object["response"] else {
            parser.error(pointer, "a HAR entry is an object with \"request\" and \"response\"")
            return nil
        }
        if response["status"] == .number("0") {
            parser.warning(
                JSONPointer.appending(JSONPointer.appending(pointer, "response"), "status"),
                "status 0: the browser got no answer (blocked or aborted); nothing to replay, skipped")
            return nil
        }
        return interaction(value, at: pointer, format: .har)
    }

    mutating func request(_ value: JSONValue, at pointer: String, format: Cassette.Format) -> Interaction.Request? {
        let urlKey = format == .vcr ? "uri" : "url"
        guard let object = value.objectValue else {
            parser.error(
                pointer,
                "a request is an object with \"method\", \"\(urlKey)\", \"headers\" and \"body\", not \(value.typeName)"
            )
            return nil
        }
        guard let url = object[urlKey]?.stringValue, !url.isEmpty else {
            parser.error(
                object[urlKey] == nil ? pointer : JSONPointer.appending(pointer, urlKey),
                "a request needs its \"\(urlKey)\", a string: it is what a request is matched by")
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
        var patterns = RequestPatterns.none
        if format == .tracksnap {
            // Matchers, as a snapshot writes them: a `query` object, and in a JSON body.
            if let query = object["query"] {
                let at = JSONPointer.appending(pointer, "query")
                if query.objectValue == nil {
                    parser.error(at, "\"query\" is an object of parameter names to values or matchers")
                } else {
                    patterns.query = parser.matcher(query, at: at)
                }
            }
            if case .json(let value) = body {
                let matcher = parser.matcher(value, at: JSONPointer.appending(pointer, "json"))
                if matcher.hasOperators { patterns.body = matcher }
            }
        }
        return Interaction.Request(method: method, url: url, headers: headers, body: body, patterns: patterns)
    }

    mutating func response(_ value: JSONValue, at pointer: String, format: Cassette.Format) -> Interaction.Response? {
        guard let object = value.objectValue else {
            parser.error(
                pointer, "a response is an object with \"status\", \"headers\" and \"body\", not \(value.typeName)")
            return nil
        }
        // VCR and vcrpy: {"code": 200, "message": "OK"}.
        let statusPointer =
            object["status"]?.objectValue == nil
            ? JSONPointer.appending(pointer, "status")
            : JSONPointer.appending(JSONPointer.appending(pointer, "status"), "code")
        let statusValue = object["status"]?.objectValue?["code"] ?? object["status"]
        guard let status = statusValue?.scalarText.flatMap(Int.init), (200...599).contains(status) else {
            // A 1xx is no final answer: served, its client would wait for the real one, or take
            // what follows (a body) as the next answer on the connection.
            parser.error(
                statusValue == nil ? pointer : statusPointer,
                "a response needs its \"status\", a final HTTP status code from 200 to 599")
            return nil
        }
        let url = object["url"]?.stringValue
        if url == nil, format == .dvr || format == .vinyl {
            parser.warning(pointer, "no \"url\" in the response: \(format.tool)'s own writer always writes it")
        }
        if object["headers"] == nil, format != .tracksnap {
            parser.warning(
                pointer, "no \"headers\" in the response: \(format.tool)'s own writer always writes them")
        }
        let headers = headers(object["headers"], at: JSONPointer.appending(pointer, "headers"))
        guard servable(headers, at: JSONPointer.appending(pointer, "headers")) else { return nil }
        let body = body(of: object, at: pointer, headers: headers, tool: format)
        return Interaction.Response(status: status, headers: headers, body: body, url: url)
    }

    /// Whether an answer's headers can be served as they are: each name an HTTP token, each
    /// value without CR, LF or NUL. A line break in a value would end the header block where
    /// the cassette chose and start a second answer on a kept-alive connection (response
    /// splitting); each one that is not is an error at its place.
    mutating func servable(_ headers: [CapturedRequest.Header], at pointer: String) -> Bool {
        var servable = true
        for header in headers {
            // An object's member has a place of its own; a HAR list's item is found by its index.
            let member = JSONPointer.appending(pointer, header.name)
            let place = document.locations[member] == nil ? pointer : member
            if !HTTPToken.isToken(header.name) {
                parser.error(
                    place,
                    "the header name \(JSONValue.string(header.name).serialized()) is not an HTTP token (letters, digits and !#$%&'*+-.^_`|~): it cannot be served"
                )
                servable = false
            } else if header.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) {
                parser.error(
                    place,
                    "the value of \(header.name) holds a line break or NUL, which would split the answer in two when served"
                )
                servable = false
            }
        }
        return servable
    }

    /// An object of header names to strings (a repeated header: an array of them); anything else
    /// is a warning, and left out.
    mutating func headers(_ value: JSONValue?, at pointer: String) -> [CapturedRequest.Header] {
        guard let value, value != .null else { return [] }
        if let list = value.arrayValue {
            // HAR: [{"name", "value"}]; HTTP/2's pseudo-headers repeat the method and URL.
            return list.enumerated().compactMap { index, item in
                guard let name = item["name"]?.stringValue, let text = item["value"]?.scalarText else {
                    parser.warning(JSONPointer.appending(pointer, index), "a header is {\"name\", \"value\"}; left out")
                    return nil
                }
                return name.hasPrefix(":") ? nil : CapturedRequest.Header(name: name, value: text)
            }
        }
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

    /// The body of a request or response object, where each format keeps it.
    mutating func body(
        of object: [String: JSONValue], at pointer: String, headers: [CapturedRequest.Header], tool: Cassette.Format
    ) -> Interaction.Body? {
        switch tool {
        case .tracksnap:
            // One of "json", "text", "base64".
            let given = ["json", "text", "base64"].filter { object[$0] != nil }
            guard let key = given.first, let value = object[key] else { return nil }
            if given.count > 1 {
                parser.error(pointer, "one body: \(given.map { "\"\($0)\"" }.joined(separator: " or ")), not both")
            }
            return body(value, stored: key, at: JSONPointer.appending(pointer, key), tool: tool, contentType: nil)
        case .vcr:
            // VCR: {"encoding": …, "string" | "base64_string": …}; vcrpy: {"string": …} in a
            // response, the string itself in a request; YAML's !!binary for bytes.
            var bodyPointer = JSONPointer.appending(pointer, "body")
            var value = object["body"]
            var stored = "text"
            if let members = value?.objectValue {
                let key = members["base64_string"] == nil ? "string" : "base64_string"
                (value, stored, bodyPointer) = (
                    members[key], key == "string" ? "text" : "base64", bodyPointer + "/" + key
                )
            }
            if binary.contains(bodyPointer) { stored = "base64" }
            if value == .string("") { return nil }
            return body(value, stored: stored, at: bodyPointer, tool: tool, contentType: nil)
        case .har:
            // A request's postData or a response's content: {"mimeType", "text", "encoding"}.
            let key = object["postData"] == nil ? "content" : "postData"
            guard let members = object[key]?.objectValue, let value = members["text"] else { return nil }
            let stored = members["encoding"]?.stringValue?.lowercased() == "base64" ? "base64" : "text"
            let bodyPointer = JSONPointer.appending(JSONPointer.appending(pointer, key), "text")
            if value == .string("") { return nil }
            return body(value, stored: stored, at: bodyPointer, tool: tool, contentType: nil)
        case .dvr, .vinyl:
            // DVR's old `body_format` when there is one, else the `Content-Type` header, spelt
            // exactly so, as both tools look it up: `application/json…` embedded JSON, `text…`
            // a string, anything else base64 (for Vinyl, a string with no `Content-Type` is text).
            let contentType = headers.first { $0.name == "Content-Type" }?.value
            let stored: String =
                switch object["body_format"]?.stringValue {
                case "json": "json"
                case "plain_text": "text"
                case "base64_string": "base64"
                default:
                    if contentType?.hasPrefix("application/json") == true {
                        "json"
                    } else if contentType?.hasPrefix("text") == true || (tool == .vinyl && contentType == nil) {
                        "text"
                    } else {
                        "base64"
                    }
                }
            return body(
                object["body"], stored: stored, at: JSONPointer.appending(pointer, "body"), tool: tool,
                contentType: contentType)
        }
    }

    /// A body stored as `json`, `text` or `base64`.
    mutating func body(
        _ value: JSONValue?, stored: String, at pointer: String, tool: Cassette.Format, contentType: String?
    ) -> Interaction.Body? {
        guard let value, value != .null else { return nil }
        switch (stored, value) {
        case ("json", _):
            return .json(value)
        case ("text", .string(let text)):
            return .text(text)
        case ("base64", .string(let text)):
            // Ruby's Base64.encode64 breaks lines every 60 characters, and decode64 skips them.
            guard let data = Data(base64Encoded: text, options: tool == .vcr ? .ignoreUnknownCharacters : []) else {
                let reason = contentType.map { "a body whose Content-Type is \"\($0)\"" } ?? "this body"
                parser.warning(pointer, "not base64, which \(tool.tool) expects for \(reason); read as text")
                return .text(text)
            }
            return .binary(Array(data))
        default:
            parser.warning(pointer, "a \(stored) body is a string, not \(value.typeName); read as JSON")
            return .json(value)
        }
    }

    /// Seconds since 1970 from an HTTP date (`Tue, 01 Nov 2011 04:58:44 GMT`), as Ruby's VCR writes it.
    static func httpDate(_ text: String) -> Double? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)?.timeIntervalSince1970
    }
}

extension Matcher {
    /// Whether anything in it is more than a literal: a pattern, a type, `$any`, `$absent`, `$unordered`.
    fileprivate var hasOperators: Bool {
        switch self {
        case .literal, .exact: false
        case .regex, .type, .any, .absent, .szimpla, .jsonSchema, .unordered: true
        case .object(let members, _): members.contains { $0.matcher.hasOperators }
        case .array(let items): items.contains(where: \.hasOperators)
        }
    }
}
