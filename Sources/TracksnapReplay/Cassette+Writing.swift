import Foundation
public import TracksnapJSON
import TracksnapRecording
import TracksnapSnapshot
import TracksnapTraffic

extension Cassette {
    /// The cassette in tracksnap's own format, whatever format it was read from: each body as
    /// what it is (`json`, `text`, or only when it is neither, `base64`), headers as an object
    /// (a repeated header as an array of its values), `recordedAt` as an RFC 3339 time.
    ///
    /// ```json
    /// {"cassette": 1, "name": "checkout", "interactions": [
    ///   {"recordedAt": "2026-11-24T19:00:00.500Z",
    ///    "request": {"method": "POST", "url": "https://api.shop.example/v1/cart", "headers": {"Content-Type": "application/json"}, "json": {"sku": "A-1"}},
    ///    "response": {"status": 201, "headers": {"Content-Type": "application/json"}, "json": {"cart": "c-42"}}}]}
    /// ```
    public var json: JSONValue {
        var top: [String: JSONValue] = ["cassette": .number("1"), "interactions": .array(interactions.map(\.json))]
        if let name { top["name"] = .string(name) }
        return .object(top)
    }

    /// Writes `json` to a file, sorted and indented for review, whole or not at all.
    /// - Throws: `InputError` naming the file and the system's reason.
    public func write(to path: String) throws(InputError) {
        try AtomicFile.write(SnapshotFormatter.text(json), to: path)
    }
}

extension Interaction {
    var json: JSONValue {
        var request: [String: JSONValue] = ["method": .string(self.request.method), "url": .string(self.request.url)]
        var response: [String: JSONValue] = ["status": .number(String(self.response.status))]
        if let url = self.response.url { response["url"] = .string(url) }
        Self.add(self.request.headers, self.request.body, to: &request)
        if let query = self.request.patterns.query { request["query"] = query.json }
        Self.add(self.response.headers, self.response.body, to: &response)
        var object: [String: JSONValue] = ["request": .object(request), "response": .object(response)]
        if let recordedAt { object["recordedAt"] = .string(Self.time(recordedAt)) }
        return .object(object)
    }

    private static func add(_ headers: [CapturedRequest.Header], _ body: Body?, to members: inout [String: JSONValue]) {
        if !headers.isEmpty {
            let grouped = Dictionary(grouping: headers, by: \.name)
            members["headers"] = .object(
                grouped.mapValues { $0.count == 1 ? .string($0[0].value) : .array($0.map { .string($0.value) }) })
        }
        switch body {
        case .json(let value): members["json"] = value
        case .text(let text): members["text"] = .string(text)
        case .binary(let bytes): members["base64"] = .string(Data(bytes).base64EncodedString())
        case nil: break
        }
    }

    /// RFC 3339 in UTC with milliseconds: `2026-11-24T19:00:00.500Z`.
    static func time(_ seconds: Double) -> String {
        Date(timeIntervalSince1970: seconds).formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// Seconds since 1970 from an RFC 3339 time, with or without fractional seconds. Parsed by
    /// `Date.ISO8601FormatStyle`, not by an `ISO8601DateFormatter` made for each time: making
    /// those (ICU formatters) took two thirds of the time to load a cassette of 10,000
    /// interactions.
    static func seconds(_ time: String) -> Double? {
        (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(time))?.timeIntervalSince1970
    }
}
