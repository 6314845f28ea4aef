import NIOCore
import NIOHTTP1
import TracksnapModel
import TracksnapReplay

extension Response {
    /// A cassette's answer as the server writes it: status, `servedHeaders` and body as
    /// recorded (`Content-Length` set by the writer).
    init(replayed answer: Interaction.Response) {
        self.init(
            status: HTTPResponseStatus(statusCode: answer.status),
            headers: HTTPHeaders(answer.servedHeaders.map { ($0.name, $0.value) }),
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
