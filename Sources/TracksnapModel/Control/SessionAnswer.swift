/// An open capture session: a test's own slice of the traffic (Szimpla's start and stop), as
/// `server.store.sessions` lists it and the control API answers it (`Session` in
/// `Schemas/control-api.openapi.json`): `POST /__tracksnap/sessions` answers one, `GET
/// /__tracksnap/sessions` an array of them, oldest first.
///
/// ```json
/// {"id": "s1", "name": "checkout"}
/// ```
public struct SessionAnswer: Sendable, Hashable, Codable {
    /// The id the server gave the session.
    public var id: String
    /// The name it was started with, if any.
    public var name: String?

    package init(id: String, name: String? = nil) {
        self.id = id
        self.name = name
    }
}
