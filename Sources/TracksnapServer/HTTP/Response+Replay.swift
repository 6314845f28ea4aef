import NIOCore
import NIOHTTP1
import TracksnapModel
import TracksnapReplay

extension Response {
    /// A cassette's answer as the server writes it: status, headers and body as recorded, the
    /// framing made true for what is served (`Content-Length` set by the writer;
    /// `Content-Encoding` and `Transfer-Encoding` dropped, since a cassette holds bodies decoded).
    init(replayed answer: Interaction.Response) {
        var headers = HTTPHeaders()
        for header in answer.headers
        where !["content-length", "content-encoding", "transfer-encoding"].contains(header.name.lowercased()) {
            headers.add(name: header.name, value: header.value)
        }
        self.init(
            status: HTTPResponseStatus(statusCode: answer.status), headers: headers,
            body: ByteBuffer(bytes: answer.body?.bytes ?? []))
    }
}

extension Interaction.Response {
    /// What an upstream answered, as a cassette records it.
    init(_ response: Response) {
        self.init(
            status: Int(response.status.code),
            headers: response.headers.map { CapturedRequest.Header(name: $0.name, value: $0.value) },
            bytes: Array(response.body.readableBytesView))
    }
}
