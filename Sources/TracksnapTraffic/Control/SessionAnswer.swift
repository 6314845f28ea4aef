/// An open capture session: a test's own slice of the traffic (Szimpla's start and stop), as
/// `server.store.sessions` lists it and the control API answers it (`Session` in
/// `Schemas/control-api.openapi.json`): `POST /__tracksnap/sessions` answers one, `GET
/// /__tracksnap/sessions` an array of them, oldest first.
///
/// ```json
/// {"id": "s1", "name": "checkout", "recordMode": "missing"}
/// ```
public struct SessionAnswer: Sendable, Hashable, Codable {
    /// The id the server gave the session.
    public var id: String
    /// The name it was started with, if any.
    public var name: String?
    /// How its cassette records (`missing`, `never`, `all`, `failed`), when it has one: the
    /// start's `recordMode`, else the server's rule (`RecordMode.resolve`, which `serve` applies
    /// to its own `--cassette` too), so that a client need not decide it again.
    public var recordMode: String?

    package init(id: String, name: String? = nil, recordMode: String? = nil) {
        self.id = id
        self.name = name
        self.recordMode = recordMode
    }
}
