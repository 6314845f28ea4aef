import Foundation
import TracksnapTraffic

/// The server's `--token`, and the one way it is checked: `Authorization: Bearer TOKEN` on the
/// control API, `Proxy-Authorization` (`Bearer TOKEN`, or `Basic` with the token as the
/// password and any user name) on the proxy, each compared in constant time.
///
/// ```swift
/// let token = AccessToken("s3cret")
/// token.authorizesControl("Bearer s3cret")            // true
/// token.authorizesProxy("Basic dTpzM2NyZXQ=")         // true: u:s3cret
/// ```
///
/// These are the proxy's own credentials, never the app's traffic: `ownCredentialsRemoved`
/// takes them out of every request before it is recorded.
struct AccessToken: Sendable {
    let value: String

    init(_ value: String) {
        self.value = value
    }

    /// A token no one can guess: 32 bytes from the system's secure generator, as hex.
    static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }
            .joined()
    }

    /// Whether an `Authorization` header lets a control call through: `Bearer TOKEN`.
    func authorizesControl(_ header: String?) -> Bool {
        guard let (scheme, credential) = Self.split(header), scheme == "bearer" else { return false }
        return Self.constantTimeEqual(credential, value)
    }

    /// Whether a `Proxy-Authorization` header lets a proxy request through: `Bearer TOKEN`, or
    /// `Basic` with the token as the password.
    func authorizesProxy(_ header: String?) -> Bool {
        guard let (scheme, credential) = Self.split(header) else { return false }
        if scheme == "bearer" { return Self.constantTimeEqual(credential, value) }
        guard scheme == "basic", let data = Data(base64Encoded: credential),
            let decoded = String(data: data, encoding: .utf8),
            let colon = decoded.firstIndex(of: ":")
        else { return false }
        return Self.constantTimeEqual(String(decoded[decoded.index(after: colon)...]), value)
    }

    /// The headers without the proxy's own credentials: every `Proxy-Authorization` (addressed
    /// to this proxy, whatever it holds, and never passed on), and an `Authorization` that
    /// carries the control token (a control call made through the proxy). Recording mode does
    /// not matter: these are not the app's traffic.
    static func ownCredentialsRemoved(
        from headers: [CapturedRequest.Header], token: AccessToken?
    ) -> [CapturedRequest.Header] {
        headers.filter { header in
            switch header.name.lowercased() {
            case "proxy-authorization": return false
            case "authorization": return !(token?.authorizesControl(header.value) ?? false)
            default: return true
            }
        }
    }

    /// The scheme, lowercased, and the credential of an authorization header.
    private static func split(_ header: String?) -> (scheme: String, credential: String)? {
        guard let parts = header?.split(separator: " ", maxSplits: 1), parts.count == 2 else { return nil }
        return (parts[0].lowercased(), parts[1].trimmingCharacters(in: .whitespaces))
    }

    /// Compares without stopping at the first difference, so the time taken tells nothing
    /// about how much of a guess was right.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let left = Array(a.utf8)
        let right = Array(b.utf8)
        var difference = UInt8(left.count == right.count ? 0 : 1)
        for index in 0..<max(left.count, right.count) {
            let x = index < left.count ? left[index] : 0
            let y = index < right.count ? right[index] : 0
            difference |= x ^ y
        }
        return difference == 0
    }
}
