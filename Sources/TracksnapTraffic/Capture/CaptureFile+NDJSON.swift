import Foundation
import TracksnapJSON

extension CaptureFile {
    /// One request as a line of tracksnap's NDJSON: members in sorted order, no newline.
    ///
    /// ```swift
    /// CaptureFile.ndjsonLine(CapturedRequest(id: "1", method: "GET", url: "https://t.example/p?a=1"))
    /// // {"headers":[],"id":"1","method":"GET","url":"https://t.example/p?a=1"}
    /// ```
    /// - Parameter request: the request to write.
    public static func ndjsonLine(_ request: CapturedRequest) -> String {
        let record = NDJSONRecord(request)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A record holds only strings and arrays of strings, which JSONEncoder cannot fail to
        // encode; the fallback exists only because the API is throwing.
        guard let data = try? encoder.encode(record) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Requests as a whole NDJSON file: one line each, every line ended by `\n`.
    ///
    /// ```swift
    /// try CaptureFile.ndjson(requests).write(toFile: "capture.ndjson", atomically: true, encoding: .utf8)
    /// ```
    /// - Parameter requests: the requests to write, in order.
    public static func ndjson(_ requests: some Sequence<CapturedRequest>) -> String {
        var out = ""
        for request in requests {
            out += ndjsonLine(request)
            out += "\n"
        }
        return out
    }

    /// Reads tracksnap's NDJSON; the format is described on `CaptureFile`.
    /// - Throws: `CaptureFileError` naming the line (and column for malformed JSON).
    static func readNDJSON(_ bytes: [UInt8], file: String, maximumBodySize: Int) throws(CaptureFileError)
        -> [CapturedRequest]
    {
        let decoder = JSONDecoder()
        var requests: [CapturedRequest] = []
        var lineNumber = 0
        var start = bytes.starts(with: utf8BOM) ? utf8BOM.count : 0
        while start < bytes.count {
            lineNumber += 1
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
            let next = end + 1
            while end > start && (bytes[end - 1] == 0x0D || bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) {
                end -= 1
            }
            var first = start
            while first < end && (bytes[first] == 0x20 || bytes[first] == 0x09) { first += 1 }
            if first < end {
                let line = Array(bytes[first..<end])
                requests.append(
                    try ndjsonRequest(
                        line, decoder: decoder, file: file, lineNumber: lineNumber,
                        columnOffset: first - start, maximumBodySize: maximumBodySize))
            }
            start = next
        }
        return requests
    }

    /// A JSON array of NDJSON records (the control API's answer, saved): each element read as a
    /// line is; errors name the element as a place (`capture.json: [2].url: missing`).
    ///
    /// Each element is decoded from its own bytes (`topLevelElements`), never the whole array
    /// as one document, whose values would cost many times the text's size at once. When an
    /// element fails, the whole is read as a document after all, for the error's exact place.
    static func readArray(_ bytes: [UInt8], file: String, maximumBodySize: Int) throws(CaptureFileError)
        -> [CapturedRequest]
    {
        if let elements = topLevelElements(bytes) {
            let decoder = JSONDecoder()
            var requests: [CapturedRequest] = []
            requests.reserveCapacity(elements.count)
            do throws(CaptureFileError) {
                for (index, range) in elements.enumerated() {
                    requests.append(
                        try ndjsonRequest(
                            Array(bytes[range]), decoder: decoder, file: file, lineNumber: index + 1, columnOffset: 0,
                            maximumBodySize: maximumBodySize))
                }
                return requests
            } catch {
                // A record that parsed but says something wrong is named by its place at once: read
                // again as one document, a large array would cost many times its size to say so.
                if let place = error.place, !place.isEmpty, let element = error.line {
                    throw CaptureFileError(file: file, place: "[\(element - 1)].\(place)", message: error.message)
                }
                // Malformed JSON: read again below, as one document, for the error's line and column.
            }
        }
        let document: JSONDocument
        do {
            document = try JSONDocument.parse(bytes, file: file, trackLocations: false)
        } catch {
            throw CaptureFileError(
                file: file, line: error.location.line, column: error.location.column,
                message: "malformed JSON: \(error.message)")
        }
        guard let items = document.value.arrayValue else {
            throw CaptureFileError(file: file, message: "a capture that starts with [ is an array of NDJSON records")
        }
        let decoder = JSONDecoder()
        var requests: [CapturedRequest] = []
        for (index, item) in items.enumerated() {
            do throws(CaptureFileError) {
                requests.append(
                    try ndjsonRequest(
                        Array(item.serialized().utf8), decoder: decoder, file: file, lineNumber: index + 1,
                        columnOffset: 0,
                        maximumBodySize: maximumBodySize))
            } catch {
                throw CaptureFileError(
                    file: file, place: "[\(index)]" + (error.place.flatMap { $0.isEmpty ? nil : "." + $0 } ?? ""),
                    message: error.message)
            }
        }
        return requests
    }

    private static func ndjsonRequest(
        _ line: [UInt8], decoder: JSONDecoder, file: String, lineNumber: Int, columnOffset: Int, maximumBodySize: Int
    ) throws(CaptureFileError) -> CapturedRequest {
        let record: NDJSONRecord
        do {
            record = try decoder.decode(NDJSONRecord.self, from: Data(line))
        } catch let error as DecodingError {
            if let syntaxError = syntaxError(line, file: file, line: lineNumber, columnOffset: columnOffset) {
                throw syntaxError
            }
            let (place, message) = error.placeAndMessage
            if case .dataCorrupted = error, place.isEmpty {
                throw CaptureFileError(file: file, line: lineNumber, message: "malformed JSON: \(message)")
            }
            if place.isEmpty {
                throw CaptureFileError(
                    file: file, line: lineNumber, message: "a request must be a JSON object; \(message)")
            }
            throw CaptureFileError(file: file, line: lineNumber, place: place, message: message)
        } catch {
            throw CaptureFileError(file: file, line: lineNumber, message: "cannot be decoded: \(error)")
        }

        // Checked with or without a body: a record that names an unknown encoding is wrong either way.
        guard let isBase64 = NDJSONRecord.isBase64(record.bodyEncoding) else {
            throw CaptureFileError(
                file: file, line: lineNumber, place: "bodyEncoding",
                message: NDJSONRecord.unknownEncoding(record.bodyEncoding))
        }
        var body: CapturedRequest.Body?
        if let text = record.body {
            body = try checkedBody(isBase64 ? .base64(text) : .text(text), limit: maximumBodySize) { message in
                CaptureFileError(file: file, line: lineNumber, place: "body", message: message)
            }
        }
        return record.request(id: record.id?.value ?? String(lineNumber), body: body)
    }
}

extension NDJSONRecord {
    init(_ request: CapturedRequest) {
        id = LenientString(request.id)
        time = request.time
        session = request.session
        serverOrigin = request.serverOrigin
        refused = request.refused
        replayMiss = request.replayMiss
        ingested = request.ingested ? true : nil
        method = request.method
        url = request.url
        headers = request.headers.map(Header.init)
        (body, bodyEncoding) = Self.written(request.body)
    }

    /// The request the record describes, with its id and its body as read (`body` and
    /// `bodyEncoding`, checked by the reader).
    func request(id: String, body: CapturedRequest.Body?) -> CapturedRequest {
        CapturedRequest(
            id: id, time: time, method: method, url: url,
            headers: (headers ?? []).map { CapturedRequest.Header(name: $0.name, value: $0.value) },
            body: body, session: session, serverOrigin: serverOrigin, refused: refused, replayMiss: replayMiss,
            ingested: ingested ?? false)
    }

    /// A body as a record writes it: its text and `bodyEncoding`, both nil when there is none.
    static func written(_ body: CapturedRequest.Body?) -> (text: String?, encoding: String?) {
        switch body {
        case .text(let text): (text, "text")
        case .base64(let encoded): (encoded, "base64")
        case nil: (nil, nil)
        }
    }

    /// Whether a record's `bodyEncoding` says base64 (absent means text); nil when it names an
    /// unknown encoding.
    static func isBase64(_ encoding: String?) -> Bool? {
        switch encoding {
        case nil, "text": false
        case "base64": true
        case .some: nil
        }
    }

    /// What is wrong with a `bodyEncoding` `isBase64` does not know.
    static func unknownEncoding(_ encoding: String?) -> String {
        "unknown encoding \"\(encoding ?? "")\"; expected \"text\" or \"base64\""
    }
}

extension NDJSONRecord.Header {
    init(_ header: CapturedRequest.Header) {
        self.init(name: header.name, value: header.value)
    }
}
