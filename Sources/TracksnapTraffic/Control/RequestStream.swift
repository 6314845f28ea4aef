/// The inspector's stream, `GET /__tracksnap/requests/stream`: the names of its Server-Sent
/// Events and, beside them, the data each carries (`RequestStream.Server`, `.Live`, `.Request`,
/// `.Answer`; `overflow` carries an `ErrorAnswer`, `reset` an empty object), encoded as every
/// other control API answer is (`JSONValueCoder`, keys sorted, one line). Their schemas are in
/// `Schemas/control-api.openapi.json` (`StreamServer`, `StreamLive`, `StreamRequest`,
/// `StreamAnswer`, named by the stream's `x-events`).
///
/// ```text
/// event: live
/// data: {"held":2}
/// ```
package enum RequestStream {
    /// What a frame's `event:` line names.
    package enum EventName: String, Sendable, CaseIterable {
        /// What the server keeps (`Server`): first, and again once it forgets answers.
        case server
        /// A captured request (`Request`), its frame's `id:` the request's.
        case request
        /// What the server answered a request (`Answer`).
        case answer
        /// What the server held is all sent (`Live`).
        case live
        /// The server was reset: what was shown is gone (`{}`).
        case reset
        /// The reader fell behind and is cut off; the stream ends (`ErrorAnswer`).
        case overflow
    }
}
