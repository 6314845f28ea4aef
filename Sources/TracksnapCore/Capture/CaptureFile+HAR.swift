import Foundation

extension CaptureFile {
    /// Reads a HAR 1.2 document; the rules are on `CaptureFile`.
    ///
    /// ```swift
    /// let requests = try CaptureFile.readHAR(Array(data), file: "chrome.har", maximumBodySize: 1 << 26)
    /// ```
    /// - Throws: `CaptureFileError` with the line and column of malformed JSON, or the place
    ///   in the document (`log.entries[3].request.url: missing`).
    static func readHAR(_ bytes: [UInt8], file: String, maximumBodySize: Int) throws(CaptureFileError) -> [CapturedRequest] {
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
            requests.append(CapturedRequest(
                id: String(index), time: entry.startedDateTime, method: request.method, url: request.url,
                headers: headers, body: body))
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
            raw = .text(params.map { FormEncoding.encode($0.name) + "=" + FormEncoding.encode($0.value ?? "") }.joined(separator: "&"))
        } else {
            return nil
        }
        return try checkedBody(raw, limit: maximumBodySize) { message in
            CaptureFileError(file: file, place: bodyPlace, message: message)
        }
    }
}
