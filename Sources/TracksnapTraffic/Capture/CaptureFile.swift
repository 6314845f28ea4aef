public import Foundation
package import TracksnapJSON

/// Reads and writes capture files: HAR 1.2 and tracksnap's NDJSON.
///
/// ```swift
/// let requests = try CaptureFile.read(path: "checkout.har")
/// for request in requests where request.host == "api.segment.io" { print(request.bodyText ?? "") }
/// ```
///
/// The format is told by content, not by the file's extension: a JSON object whose first
/// member is `log`, or whose first line is a lone `{` (a pretty-printed document), is HAR;
/// anything else is NDJSON.
///
/// **HAR 1.2**, as Chrome, Firefox, Charles and mitmproxy export it: each of
/// `log.entries[]` is one request, its `id` the entry's 0-based index (or its `_id`, which
/// tracksnap's own HAR export writes with `_session`, `_serverOrigin` and `_ingested`), its `time` the entry's
/// `startedDateTime`. Headers keep their order; HTTP/2 pseudo-headers (`:authority`, `:path`…)
/// are dropped. The body is `postData.text` (base64 when `postData.encoding` is `base64`), or,
/// when only `postData.params` are given, a form-encoded body rebuilt from them.
///
/// **NDJSON**, tracksnap's own format (the server's `--journal`): one JSON object per line,
/// blank lines allowed, UTF-8, `\n` or `\r\n` line ends.
///
/// ```json
/// {"body":"{\"batch\":[]}","bodyEncoding":"text","headers":[{"name":"Content-Type","value":"application/json"}],"id":"1","method":"POST","session":"s1","time":"2026-11-21T08:00:00.123Z","url":"https://api.segment.io/v1/batch"}
/// ```
///
/// | member | required | meaning |
/// |---|---|---|
/// | `method` | yes | the HTTP method |
/// | `url` | yes | the absolute URL, query included |
/// | `headers` | no | `[{"name", "value"}]` in the order sent; default none |
/// | `body` | no | the body, content encoding (gzip) already undone |
/// | `bodyEncoding` | no | `text` (default) or `base64` |
/// | `id` | no | a string (or integer) unique in the file; default the 1-based line number |
/// | `time` | no | RFC 3339 timestamp of the capture |
/// | `session` | no | the capture session |
/// | `serverOrigin` | no | the capture server's own origin (`http://127.0.0.1:41589`) when it received the request as a collector or reverse proxy |
/// | `refused` | no | why the capture refused the request (its body inflates beyond the limit); such a request has no body |
/// | `replayMiss` | no | why a cassette had no answer for the request (replayed in record mode `never`): it was answered 599 and not sent on |
/// | `ingested` | no | `true` when the capture server got the request through its control API (an app's own capture reporting it); default false |
///
/// Other members are ignored. `ndjsonLine(_:)` writes the members in this sorted order.
///
/// In both formats a base64 body whose bytes are valid UTF-8 is read as a `.text` body, and a
/// body over `defaultMaximumBodySize` bytes is an error, as is one whose layers (gzip in it,
/// gzip in base64 in its fields) inflate beyond that size together (`BodyDecoder`).
public enum CaptureFile {
    /// The two formats tracksnap reads.
    public enum Format: String, Sendable, Hashable {
        case har
        case ndjson
        /// A JSON array of NDJSON records: what the capture server's control API answers.
        case array
    }

    /// The largest body a capture file may hold: 64 MiB.
    public static let defaultMaximumBodySize = 64 * 1024 * 1024

    /// Reads a capture file, telling HAR from NDJSON by its contents.
    ///
    /// ```swift
    /// let requests = try CaptureFile.read(path: "Tests/Fixtures/chrome.har")
    /// ```
    /// - Parameters:
    ///   - path: the file to read; also the name used in error messages.
    ///   - maximumBodySize: the largest body accepted, in bytes.
    /// A capture may hold no request, in every format alike: an empty file (or one of only
    /// whitespace), `[]`, a HAR with no entries all read as none — what a run that sent nothing
    /// leaves (a consent test's snapshot expects exactly that), and what `ndjson([])` writes.
    /// - Throws: `CaptureFileError` naming the file and, where it applies, the line and the
    ///   place in the document: no such file, a directory, unreadable, malformed JSON,
    ///   a missing or mistyped member, a body over the limit.
    public static func read(path: String, maximumBodySize: Int = defaultMaximumBodySize) throws(CaptureFileError)
        -> [CapturedRequest]
    {
        if path == "-" {
            let data: Data
            do {
                data = try FileHandle.standardInput.readToEnd() ?? Data()
            } catch {
                throw CaptureFileError(
                    file: "-", message: "standard input cannot be read: \(error.localizedDescription)")
            }
            return try read(data: data, file: "-", maximumBodySize: maximumBodySize)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CaptureFileError(file: path, message: "no such file")
        }
        if isDirectory.boolValue {
            throw CaptureFileError(file: path, message: "is a directory, not a capture file")
        }
        // Read to the end rather than by the size the file system reports: a pipe
        // (`--capture <(curl …)`, /dev/fd/N) has none.
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            data = try handle.readToEnd() ?? Data()
        } catch {
            let reason =
                FileManager.default.isReadableFile(atPath: path) ? "\(error.localizedDescription)" : "permission denied"
            throw CaptureFileError(file: path, message: "cannot be read: \(reason)")
        }
        return try read(data: data, file: path, maximumBodySize: maximumBodySize)
    }

    /// Reads a capture held in memory, telling HAR from NDJSON by its contents.
    ///
    /// ```swift
    /// let line = #"{"method":"GET","url":"https://t.example/p?ev=view"}"#
    /// let requests = try CaptureFile.read(data: Data(line.utf8), file: "inline")
    /// ```
    /// - Parameters:
    ///   - data: the file's contents.
    ///   - file: the name used in error messages.
    ///   - maximumBodySize: the largest body accepted, in bytes.
    /// - Throws: `CaptureFileError`, as `read(path:)`.
    public static func read(data: Data, file: String, maximumBodySize: Int = defaultMaximumBodySize)
        throws(CaptureFileError) -> [CapturedRequest]
    {
        try read(bytes: [UInt8](data), file: file, maximumBodySize: maximumBodySize)
    }

    /// Reads a capture held in memory as bytes, as `read(data:)` does, without copying them again.
    package static func read(bytes: [UInt8], file: String, maximumBodySize: Int = defaultMaximumBodySize)
        throws(CaptureFileError) -> [CapturedRequest]
    {
        var bytes = bytes
        // Fiddler and Windows editors write a BOM, which is not JSON.
        if bytes.starts(with: utf8BOM) { bytes.removeFirst(utf8BOM.count) }
        guard let format = format(of: bytes) else { return [] }
        do throws(CaptureFileError) {
            switch format {
            case .har: return try readHAR(bytes, file: file, maximumBodySize: maximumBodySize)
            case .ndjson: return try readNDJSON(bytes, file: file, maximumBodySize: maximumBodySize)
            case .array: return try readArray(bytes, file: file, maximumBodySize: maximumBodySize)
            }
        } catch {
            // A snapshot named where a capture goes (`--capture checkout.json`) is said to be one,
            // rather than reported as a HAR without its `log`.
            if let top = (try? JSONDocument.parse(bytes, file: file))?.value.objectValue, top["log"] == nil,
                top["requests"] != nil || top["events"] != nil
            {
                throw CaptureFileError(
                    file: file,
                    message:
                        "this is a snapshot, not a capture: a capture is the traffic checked against it (tracksnap validate \(file) --capture FILE)"
                )
            }
            throw error
        }
    }

    /// The capture format a JSON document read for something else has, when its shape is a
    /// capture's: HAR's `log`, one NDJSON record (a `method` and a `url`, with neither
    /// `requests` nor `events`), or an array of records (each with an `id`, a `method` and a
    /// `url`). What a snapshot's reader tells a capture named in a snapshot's place by.
    ///
    /// ```swift
    /// CaptureFile.format(ofDocument: ["log": ["entries": []]])  // .har
    /// ```
    package static func format(ofDocument value: JSONValue) -> Format? {
        func isRecord(_ item: JSONValue) -> Bool {
            item["method"]?.stringValue != nil && item["url"]?.stringValue != nil
        }
        switch value {
        case .object(let top) where top["log"]?.objectValue != nil: return .har
        case .object(let top) where isRecord(value) && top["requests"] == nil && top["events"] == nil: return .ndjson
        case .array(let items) where !items.isEmpty && items.allSatisfy({ isRecord($0) && $0["id"] != nil }):
            return .array
        default: return nil
        }
    }

    /// The format a file's extension names (`.har`; `.ndjson`, `.jsonl`), nil for others: how a
    /// capture named in another file's place is told (`tracksnap lint run.har`, `tracksnap
    /// validate checkout.json run.har`), never how one is read.
    package static func format(named path: String) -> Format? {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "har": .har
        case "ndjson", "jsonl": .ndjson
        default: nil
        }
    }

    /// The format of a capture by its contents; nil when it holds only whitespace.
    ///
    /// ```swift
    /// CaptureFile.format(of: Data(#"{"log":{"entries":[]}}"#.utf8))  // .har
    /// ```
    public static func format(of data: Data) -> Format? {
        format(of: [UInt8](data))
    }

    package static func format(of bytes: [UInt8]) -> Format? {
        var index = bytes.starts(with: utf8BOM) ? utf8BOM.count : 0
        skipWhitespace(bytes, &index)
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "[") { return .array }
        guard bytes[index] == UInt8(ascii: "{") else { return .ndjson }
        index += 1
        // A lone `{` on the first line is a pretty-printed document, which NDJSON cannot be.
        var lineEnd = index
        while lineEnd < bytes.count && (bytes[lineEnd] == 0x20 || bytes[lineEnd] == 0x09 || bytes[lineEnd] == 0x0D) {
            lineEnd += 1
        }
        if lineEnd == bytes.count || bytes[lineEnd] == 0x0A { return .har }
        skipWhitespace(bytes, &index)
        return bytes[index...].starts(with: #""log""#.utf8) ? .har : .ndjson
    }

    static let utf8BOM: [UInt8] = [0xEF, 0xBB, 0xBF]

    static func skipWhitespace(_ bytes: [UInt8], _ index: inout Int) {
        while index < bytes.count,
            bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D
        {
            index += 1
        }
    }

    /// Checks a body against the size limit, and what it inflates to (`BodyDecoder`), and turns
    /// base64 that is UTF-8 into text.
    static func checkedBody(
        _ body: CapturedRequest.Body, limit: Int, error: (String) -> CaptureFileError
    ) throws(CaptureFileError) -> CapturedRequest.Body {
        let size = body.byteCount
        if size > limit {
            throw error("\(size) bytes is over the limit of \(describeSize(limit))")
        }
        let bytes: [UInt8]
        switch body {
        case .text(let text): bytes = Array(text.utf8)
        case .base64(let encoded):
            guard let data = Data(base64Encoded: encoded) else { throw error("not valid base64") }
            bytes = Array(data)
        }
        let failure = error
        do throws(BodyDecoder.Refusal) {
            return try BodyDecoder(limit: limit).body(bytes)
        } catch {
            throw failure("inflates beyond the limit of \(describeSize(limit)) (every gzip layer inside it counted)")
        }
    }

    private static func describeSize(_ bytes: Int) -> String {
        bytes % (1024 * 1024) == 0 ? "\(bytes / (1024 * 1024)) MiB" : "\(bytes) bytes"
    }

    /// A `CaptureFileError` pointing at the first character where `bytes` stop being JSON;
    /// nil when they are valid JSON.
    ///
    /// Run on every decoding failure, not only on "not valid JSON": `JSONDecoder` checks
    /// lazily and may report a mistyped member before the malformed text behind it.
    static func syntaxError(_ bytes: [UInt8], file: String, line: Int? = nil, columnOffset: Int = 0)
        -> CaptureFileError?
    {
        do {
            _ = try JSONDocument.parse(bytes, file: file, trackLocations: false)
            return nil
        } catch {
            return CaptureFileError(
                file: file, line: line ?? error.location.line, column: error.location.column + columnOffset,
                message: "malformed JSON: \(error.message)")
        }
    }
}
