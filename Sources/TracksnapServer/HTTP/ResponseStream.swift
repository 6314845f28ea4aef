import NIOCore
import NIOHTTP1

/// Where a streamed answer (`Response.stream`) writes its body, a piece at a time.
///
/// ```swift
/// response.stream = { stream in
///     guard await stream.send("data: 1\n\n") else { return }   // false: the client went away
/// }
/// ```
///
/// Each `send` returns once the piece is handed to the socket, so a client that reads slowly
/// holds the writer back rather than piling pieces up in the server's memory.
struct ResponseStream: Sendable {
    let channel: any Channel

    /// Writes one piece of the body; false when the connection is gone.
    func send(_ text: String) async -> Bool {
        guard !Task.isCancelled else { return false }
        do {
            try await channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(string: text)))).get()
            return true
        } catch {
            return false
        }
    }
}
