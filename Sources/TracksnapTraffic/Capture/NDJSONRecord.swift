/// One line of a tracksnap NDJSON capture file; the format is described on `CaptureFile`.
struct NDJSONRecord: Codable {
    struct Header: Codable {
        var name: String
        var value: String
    }

    /// A string that a hand-written file may also give as an integer (`"id": 7`).
    struct LenientString: Codable {
        var value: String
        init(_ value: String) { self.value = value }
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let integer = try? container.decode(Int.self) {
                value = String(integer)
            } else {
                value = try container.decode(String.self)
            }
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }

    var id: LenientString?
    var time: String?
    var session: String?
    var serverOrigin: String?
    var method: String
    var url: String
    var headers: [Header]?
    var body: String?
    var bodyEncoding: String?
    var refused: String?
    var replayMiss: String?
    /// Written only when true: absent reads as false.
    var ingested: Bool?
}
