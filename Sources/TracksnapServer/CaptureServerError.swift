/// Why the capture server could not start or go on: a journal that cannot be opened, an
/// address that cannot be bound, a bad upstream URL.
///
/// ```swift
/// do { _ = try await server.start() } catch let error as CaptureServerError { print(error.message) }
/// ```
public struct CaptureServerError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
