/// Why the local certificate authority could not be created or loaded: a folder or file that
/// cannot be read or written, or that another user owns or may write, a malformed PEM file, a key
/// that others can read, a certificate the key did not make or that is no CA, or out of date.
///
/// ```swift
/// do { _ = try CertificateAuthority.load(from: dir) } catch { print(error.message) }
/// ```
public struct CertificateAuthorityError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
