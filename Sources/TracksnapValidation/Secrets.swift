import Foundation
public import TracksnapJSON

/// Which keys hold secrets, so that they are never written to a snapshot or a report.
public enum Secrets {
    /// Header names that always hold credentials.
    public static let headers: Set<String> = [
        "authorization", "cookie", "set-cookie", "proxy-authorization", "x-api-key", "x-auth-key", "x-access-key",
        "x-session-id", "x-signature", "x-amz-security-token", "x-amz-signature",
    ]

    /// Parts of a key name that mark a secret (`writeKey`, `api_key`, `access_token`, `password`,
    /// `X-Amz-Signature`, `license_key`, `mfa_code`).
    static let markers = [
        "token", "secret", "password", "passwd", "apikey", "api_key", "writekey", "write_key", "authorization",
        "cookie", "credential", "api-key", "branch_key", "signature", "accesskey", "access_key", "access-key",
        "privatekey", "private_key", "private-key", "passcode", "passphrase", "app_key", "appkey", "license_key",
        "licensekey", "client_key", "clientkey", "auth_key", "authkey", "session_key", "sessionkey",
        "publishable_key", "authcode", "auth_code", "auth-code", "mfa_code", "recovery_code",
    ]

    /// Keys that hold a marker but name no secret: Adjust's `event_token` is the event's name on
    /// the wire (the only one an Adjust event has), which reports and snapshots must show.
    static let notSecrets: Set<String> = ["event_token"]

    /// Whole key names that mark a secret: too short to look for inside other names (`key` is in
    /// `monkey`, `pin` in `shipping`), so only the name itself, any case. Not `sid`: GA4's and
    /// Snowplow's session id on every hit, data a snapshot compares (a server's session id
    /// travels in a cookie or an `X-Sid` header, both hidden).
    static let names: Set<String> = [
        "key", "sig", "session", "jwt", "pass", "pwd", "pin", "otp", "cvc", "cvv", "bearer", "jsessionid",
        "phpsessid", "csrf", "xsrf", "authentication",
    ]

    /// Names that hold a secret in a URL's query only: OAuth's authorization `code`
    /// (`/callback?code=…`, also in a `Location` header); elsewhere a `code` is a coupon's, a
    /// country's or an error's.
    static let queryNames: Set<String> = ["code"]

    /// The last words of header names that hold credentials, whatever comes before them
    /// (`X-Partner-Key`, `X-Client-Secret`, `X-Upload-Signature`, `X-App-Session`).
    static let headerLastWords: Set<String> = [
        "key", "secret", "signature", "sig", "session", "sid", "sessionid", "token", "auth", "authentication",
        "bearer", "jwt", "password", "pass", "passcode", "pin", "credential", "credentials", "csrf", "xsrf", "appcheck",
    ]

    /// Whether a header holds a credential, so that its value is hidden whole: one of `headers`,
    /// a secret key name (`isSecret`), or a name whose last word is one of `headerLastWords`.
    ///
    /// ```swift
    /// Secrets.isSecretHeader("X-Partner-Key")  // true
    /// Secrets.isSecretHeader("X-Request-Id")   // false
    /// ```
    public static func isSecretHeader(_ name: String) -> Bool {
        let lowered = name.lowercased()
        // tracksnap's own header, which names a capture session (`SessionRouting.headerName`), not a login's.
        if lowered == "x-tracksnap-session" { return false }
        if headers.contains(lowered) || isSecret(lowered) { return true }
        let last = lowered.split { $0 == "-" || $0 == "_" }.last.map(String.init) ?? lowered
        return headerLastWords.contains(last)
    }

    /// Whether a URL query's field holds a secret: any secret key (`isSecret`), or one of
    /// `queryNames`.
    static func isSecretQueryField(_ name: String) -> Bool {
        isSecret(name) || queryNames.contains(name.lowercased())
    }

    /// Whether a header, parameter or JSON key holds a secret.
    ///
    /// Asked of every key of every captured request when a report hides secrets, so it compares
    /// ASCII-lowered bytes: Foundation's `contains` took a fifth of a validation with findings.
    public static func isSecret(_ key: String) -> Bool {
        // Most keys are lower-case ASCII already, and are their own lowered form: nothing is copied.
        var lowered =
            key.utf8.contains { $0 >= 0x41 && $0 <= 0x5A }
            ? String(decoding: key.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self) : key
        let named = lowered.utf8.count <= longestWholeName ? wholeNames[lowered] : nil
        if named == false { return false }
        let marked = lowered.withUTF8 { bytes in markerBytes.contains { contains($0, in: bytes) } }
        return marked || named == true
    }

    /// What a whole key name says by itself, looked up once for `isSecret`: a secret for
    /// `headers` and `names`, none for `notSecrets` (which holds a marker).
    private static let wholeNames: [String: Bool] = {
        var whole = Dictionary(uniqueKeysWithValues: headers.union(names).map { ($0, true) })
        for name in notSecrets { whole[name] = false }
        return whole
    }()

    /// `markers` as bytes, for searches of lowered bytes.
    static let markerBytes = markers.map { Array($0.utf8) }

    /// Whether `needle` (not empty) occurs in `haystack`.
    static func contains(_ needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        firstIndex(of: needle, in: haystack, from: 0) != nil
    }

    /// Where `needle` (not empty) first occurs in `haystack` at `start` or after.
    static func firstIndex(of needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start >= 0, needle.count <= haystack.count - start else { return nil }
        let first = needle[0]
        for index in start...(haystack.count - needle.count) where haystack[index] == first {
            var offset = 1
            while offset < needle.count, haystack[index + offset] == needle[offset] { offset += 1 }
            if offset == needle.count { return index }
        }
        return nil
    }

    private static let longestWholeName = wholeNames.keys.map(\.utf8.count).max() ?? 0

    /// The text secrets are replaced with in reports.
    public static let placeholderText = "[redacted]"
    /// The value secrets are replaced with in reports.
    public static let placeholder: JSONValue = .string(placeholderText)

    /// The credentials a secret header's value carries, each of which must stay out of files:
    /// the whole value, a Bearer token, a Basic header's decoded user and password, each cookie's value.
    ///
    /// ```swift
    /// Secrets.credentials(inHeaderValue: "Basic d2s6")  // ["Basic d2s6", "d2s6", "wk"]
    /// ```
    public static func credentials(inHeaderValue value: String) -> [String] {
        var found = [value]
        let parts = value.split(separator: " ", maxSplits: 1).map(String.init)
        if parts.count == 2 {
            let scheme = parts[0].lowercased()
            let argument = parts[1].trimmingCharacters(in: .whitespaces)
            found.append(argument)
            if scheme == "basic", let data = Data(base64Encoded: argument),
                let decoded = String(data: data, encoding: .utf8)
            {
                found.append(decoded)
                found += decoded.split(separator: ":", maxSplits: 1).map(String.init)
            }
        }
        for cookie in value.split(separator: ";") {
            let pair = cookie.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { found.append(pair[1].trimmingCharacters(in: .whitespaces)) }
        }
        return found.filter { !$0.isEmpty }
    }
}
