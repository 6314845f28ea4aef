/// The part of a HAR 1.2 document that tracksnap reads; every other member is ignored.
///
/// Members HAR requires and tracksnap needs (`log`, `entries`, `request`, `method`, `url`)
/// are required; the rest are optional, because Chrome, Firefox, Charles and mitmproxy each
/// leave different ones out.
struct HARDocument: Decodable {
    struct Log: Decodable {
        var entries: [Entry]
    }

    struct Entry: Decodable {
        var startedDateTime: String?
        var request: Request
        /// tracksnap's own members (`CaptureFile.har`): the request's id, session, server origin,
        /// and whether it was ingested.
        var _id: String?
        var _session: String?
        var _serverOrigin: String?
        var _ingested: Bool?
    }

    struct Request: Decodable {
        var method: String
        var url: String
        var headers: [NameValue]?
        var postData: PostData?
    }

    struct NameValue: Decodable {
        var name: String
        var value: String
    }

    struct PostData: Decodable {
        var mimeType: String?
        var text: String?
        var params: [Param]?
        /// Not in HAR 1.2 for requests, but mitmproxy and others write `base64` for binary bodies.
        var encoding: String?
    }

    struct Param: Decodable {
        var name: String
        var value: String?
        var fileName: String?
        var contentType: String?
    }

    var log: Log
}
