import NIOCore
import NIOHTTP1
import TracksnapReplay
import TracksnapTraffic

extension Response {
    /// A cassette's answer as the server writes it for a request that accepts
    /// `acceptEncoding`: its status, and its headers and body as `Interaction.Response.served`
    /// gives them (`Content-Length` set by the writer).
    init(replayed answer: Interaction.Response, acceptEncoding: String?) {
        let (headers, body) = answer.served(acceptEncoding: acceptEncoding)
        self.init(
            status: HTTPResponseStatus(statusCode: answer.status),
            headers: HTTPHeaders(
                headers.filter { $0.name.lowercased() != "content-length" }.map { ($0.name, $0.value) }),
            body: ByteBuffer(bytes: body))
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
