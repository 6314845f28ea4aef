import Foundation
import TracksnapJSON

extension CaptureFile {
    /// Reads a HAR 1.2 document; the rules are on `CaptureFile`.
    ///
    /// ```swift
    /// let requests = try CaptureFile.readHAR(Array(data), file: "chrome.har", maximumBodySize: 1 << 26)
    /// ```
    /// - Throws: `CaptureFileError` with the line and column of malformed JSON, or the place
    ///   in the document (`log.entries[3].request.url: missing`).
    static func readHAR(_ bytes: [UInt8], file: String, maximumBodySize: Int) throws(CaptureFileError)
        -> [CapturedRequest]
    {
        let document: HARDocument
        do {
            document = try JSONDecoder().decode(HARDocument.self, from: Data(bytes))
        } catch let error as DecodingError {
            if let syntaxError = syntaxError(bytes, file: file) { throw syntaxError }
            let (place, message) = error.placeAndMessage
            if case .dataCorrupted = error, place.isEmpty {
                throw CaptureFileError(file: file, message: "malformed JSON: \(message)")
            }
            if place.isEmpty {
                throw CaptureFileError(file: file, message: "not a HAR document: \(message)")
            }
            throw CaptureFileError(file: file, place: place, message: message)
        } catch {
            throw CaptureFileError(file: file, message: "cannot be decoded as HAR: \(error)")
        }

        var requests: [CapturedRequest] = []
        requests.reserveCapacity(document.log.entries.count)
        for (index, entry) in document.log.entries.enumerated() {
            let place = "log.entries[\(index)].request"
            let request = entry.request
            let headers = (request.headers ?? []).compactMap { header in
                // HTTP/2 pseudo-headers repeat the method and URL; they were never real headers.
                header.name.hasPrefix(":") ? nil : CapturedRequest.Header(name: header.name, value: header.value)
            }
            var body: CapturedRequest.Body?
            if let postData = request.postData {
                body = try harBody(postData, file: file, place: place + ".postData", maximumBodySize: maximumBodySize)
            }
            requests.append(
                CapturedRequest(
                    id: entry._id ?? String(index), time: entry.startedDateTime, method: request.method,
                    url: request.url,
                    headers: headers, body: body, session: entry._session, serverOrigin: entry._serverOrigin,
                    ingested: entry._ingested ?? false))
        }
        return requests
    }

    private static func harBody(
        _ postData: HARDocument.PostData, file: String, place: String, maximumBodySize: Int
    ) throws(CaptureFileError) -> CapturedRequest.Body? {
        let raw: CapturedRequest.Body
        var bodyPlace = place + ".text"
        if let text = postData.text {
            switch postData.encoding?.lowercased() {
            case nil, "": raw = .text(text)
            case "base64": raw = .base64(text)
            case let other?:
                throw CaptureFileError(
                    file: file, place: place + ".encoding",
                    message: "unsupported encoding \"\(other)\"; expected \"base64\" or none")
            }
        } else if let params = postData.params, !params.isEmpty {
            bodyPlace = place + ".params"
            raw = .text(
                params.map { FormEncoding.encode($0.name) + "=" + FormEncoding.encode($0.value ?? "") }.joined(
                    separator: "&"))
        } else {
            return nil
        }
        return try checkedBody(raw, limit: maximumBodySize) { message in
            CaptureFileError(file: file, place: bodyPlace, message: message)
        }
    }
}

extension CaptureFile {
    /// Requests as a HAR 1.2 document that `readHAR` (and browsers' HAR viewers) read back.
    ///
    /// ```swift
    /// try CaptureFile.har(requests).write(toFile: "session.har", atomically: true, encoding: .utf8)
    /// ```
    /// HAR requires a response for every entry; a capture has none, so each entry's response is
    /// HAR's "no response" (`status` 0, as browsers write a request that got no answer). The
    /// request's `id`, `session` and `serverOrigin` are kept in the custom members `_id`,
    /// `_session` and `_serverOrigin`, and an ingested one is marked `"_ingested": true`. A binary body is `postData.text` in base64 with
    /// `"encoding": "base64"`, as mitmproxy writes it.
    /// - Parameter requests: the requests to write, in order.
    public static func har(_ requests: some Sequence<CapturedRequest>) -> String {
        let entries = requests.map { request -> JSONValue in
            var harRequest: [String: JSONValue] = [
                "method": .string(request.method),
                "url": .string(request.url),
                "httpVersion": "HTTP/1.1",
                "cookies": [],
                "headers": .array(
                    request.headers.map { .object(["name": .string($0.name), "value": .string($0.value)]) }),
                "queryString": .array(
                    request.queryItems.map { .object(["name": .string($0.name), "value": .string($0.value)]) }),
                "headersSize": -1,
                "bodySize": .number(request.body?.byteCount ?? 0),
            ]
            if let body = request.body {
                var postData: [String: JSONValue] = ["mimeType": .string(request.header("Content-Type") ?? "")]
                switch body {
                case .text(let text): postData["text"] = .string(text)
                case .base64(let encoded):
                    postData["text"] = .string(encoded)
                    postData["encoding"] = "base64"
                }
                harRequest["postData"] = .object(postData)
            }
            var entry: [String: JSONValue] = [
                "startedDateTime": .string(request.time ?? "1970-01-01T00:00:00.000Z"),
                "time": 0,
                "request": .object(harRequest),
                "response": [
                    "status": 0, "statusText": "", "httpVersion": "HTTP/1.1", "cookies": [], "headers": [],
                    "content": ["size": 0, "mimeType": ""], "redirectURL": "", "headersSize": -1, "bodySize": -1,
                ],
                "cache": [:],
                "timings": ["send": 0, "wait": 0, "receive": 0],
                "_id": .string(request.id),
            ]
            if let session = request.session { entry["_session"] = .string(session) }
            if let origin = request.serverOrigin { entry["_serverOrigin"] = .string(origin) }
            if request.ingested { entry["_ingested"] = true }
            return .object(entry)
        }
        let log: JSONValue = [
            "log": ["version": "1.2", "creator": ["name": "tracksnap", "version": "1"], "entries": .array(entries)]
        ]
        return log.serialized()
    }
}
