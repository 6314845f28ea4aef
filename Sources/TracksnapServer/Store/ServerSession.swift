/// An open capture session: a test's own slice of the traffic (Szimpla's start and stop).
///
/// ```swift
/// let id = server.store.startSession(name: "checkout")
/// server.store.sessions.first?.name  // "checkout"
/// ```
public struct ServerSession: Sendable, Hashable {
    public var id: String
    public var name: String?

    public init(id: String, name: String? = nil) {
        self.id = id
        self.name = name
    }
}
