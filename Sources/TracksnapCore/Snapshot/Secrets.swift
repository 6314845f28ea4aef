/// Which keys hold secrets, so that they are never written to a snapshot or a report.
public enum Secrets {
    /// Header names that always hold credentials.
    public static let headers: Set<String> = ["authorization", "cookie", "set-cookie", "proxy-authorization", "x-api-key"]

    /// Parts of a key name that mark a secret (`writeKey`, `api_key`, `access_token`, `password`).
    static let markers = ["token", "secret", "password", "passwd", "apikey", "api_key", "writekey", "write_key", "authorization", "cookie", "credential", "api-key"]

    /// Whether a header, parameter or JSON key holds a secret.
    public static func isSecret(_ key: String) -> Bool {
        let lowered = key.lowercased()
        return headers.contains(lowered) || markers.contains { lowered.contains($0) }
    }

    /// The value secrets are replaced with.
    public static let placeholder: JSONValue = "[redacted]"

    /// The value with every secret key's value replaced, at any depth.
    public static func redacted(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            .object(Dictionary(uniqueKeysWithValues: members.map { key, member in
                (key, isSecret(key) ? placeholder : redacted(member))
            }))
        case .array(let items): .array(items.map(redacted))
        default: value
        }
    }
}
