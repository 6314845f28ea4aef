import Foundation
package import TracksnapJSON
import TracksnapSnapshot
package import TracksnapTraffic

extension CapturedRequest {
    /// Every secret value the request carries: the credentials in its secret headers
    /// (`Authorization`, `Cookie`…), the values under secret keys in its URL, parameters
    /// and body at any depth of any encoding (`Secrets.values(in:)`), and the values of the
    /// fields that are secrets in a URL's query only (an OAuth `code`: `Secrets.queryNames`).
    package var carriedSecrets: Set<String> { carriedSecrets(view: validationView) }

    /// The same, from the request's `validationView` when it is already at hand.
    package func carriedSecrets(view: JSONValue) -> Set<String> {
        CarriedSearches.searched(self, secrets: true)
        var found = Secrets.values(in: view)
        for header in headers where Secrets.isSecretHeader(header.name) {
            found.formUnion(Secrets.credentials(inHeaderValue: header.value))
        }
        for item in queryItems where !item.value.isEmpty && Secrets.isSecretQueryField(item.name) {
            found.insert(item.value)
        }
        return found
    }

    /// The personal data the request carries in fields that say what it is, or by its shape
    /// (`PersonalData.hits`): each value as sent, with its mask (`a***@example.com`).
    package func carriedPersonalData(view: JSONValue) -> [String: String] {
        CarriedSearches.searched(self, secrets: false)
        var found: [String: String] = [:]
        for hit in PersonalData.hits(in: view) { found[hit.value] = hit.masked }
        return found
    }
}

/// Hides captured secrets in a validation result before it reaches a report: values under secret
/// keys, text that carries a secret inside an encoding, and every copy of a captured secret
/// (a token the app also put in a URL path or a body field), in findings, messages and URLs;
/// and in captured requests themselves before the control API answers them (`redact(_:)` on a
/// `CapturedRequest`, in `Redactor+Requests.swift`).
///
/// ```swift
/// let result = Redactor(requests: captured).redact(SnapshotValidator().validate(snapshot, requests: captured, profile: profile))
/// ```
package struct Redactor {
    /// The secret values the requests carry.
    package let secrets: Set<String>
    /// Whether personal data is masked too (`a***@example.com`): everywhere but in what a
    /// cassette keeps, which must match the app's next request (`keepingPersonalData`).
    package var masksPersonalData = true
    /// The personal data the requests carry in fields that say what it is (an advertising id
    /// in `idfa`), by value, masked: its copies elsewhere are masked too.
    package var personalData: [String: String] = [:]

    package init(requests: some Sequence<CapturedRequest>) {
        var secrets: Set<String> = []
        var personalData: [String: String] = [:]
        // Each request's view is made once, for both searches.
        for request in requests {
            let view = request.validationView
            secrets.formUnion(request.carriedSecrets(view: view))
            personalData.merge(request.carriedPersonalData(view: view)) { $1 }
        }
        self.init(secrets: secrets)
        self.personalData = personalData
    }

    /// A value that holds the placeholder (`[redacted]`, as a journal or the control API wrote
    /// a request that is read back, ingested or imported) is no secret: taken for one, it made
    /// every request redacted beside it fall back to cutting text, not values, which hid a live
    /// request's body whole or left its personal data in clear.
    package init(secrets: Set<String>) {
        self.secrets = secrets.filter { !$0.contains(Secrets.placeholderText) }
        secretLengths = Set(self.secrets.map(\.utf8.count))
    }

    /// The byte counts of `secrets`: a plain text's pieces of other lengths are not looked up
    /// (`holdsKnownSecret(plain:)`).
    private let secretLengths: Set<Int>

    /// A redactor that knows these secrets and this personal data (each value as sent, with its
    /// mask), already searched for (`CapturedRequest.carriedSecrets`, `carriedPersonalData`).
    package init(secrets: Set<String>, personalData: [String: String]) {
        self.init(secrets: secrets)
        self.personalData = personalData
    }

    /// The same, leaving personal data as it is: for what a cassette keeps.
    package var keepingPersonalData: Redactor {
        var redactor = self
        redactor.masksPersonalData = false
        return redactor
    }

    func redact(_ result: SnapshotResult) -> SnapshotResult {
        var result = result
        result.findings = result.findings.map(redact)
        result.entries = result.entries.map { entry in
            var entry = entry
            entry.request = entry.request.map(redact)
            return entry
        }
        return result
    }

    /// A finding with the values it shows redacted, the snapshot's expected one as the captured
    /// one: a snapshot may hold a secret or personal data in clear (written by hand, or before
    /// recording hid them), and a report is read where the snapshot is not. Under a secret key,
    /// both are the placeholder, but an expected matcher (`{"$type": "string"}`), which says
    /// what was asked.
    private func redact(_ finding: Finding) -> Finding {
        var finding = finding
        let tokens = JSONPointer.tokens(finding.path)
        let header = tokens.firstIndex(of: "headers").map { $0 + 1 }.flatMap { $0 < tokens.count ? tokens[$0] : nil }
        let underSecret = tokens.contains(where: Secrets.isSecret) || header.map(Secrets.isSecretHeader) == true
        if underSecret {
            finding.actual = finding.actual.map { _ in Secrets.placeholder }
            finding.expected = finding.expected.map { Self.isMatcher($0) ? redact($0) : Secrets.placeholder }
        } else {
            let differed = finding.expected != nil && finding.actual != nil && finding.expected != finding.actual
            finding.actual = finding.actual.map(redact)
            finding.expected = finding.expected.map(redact)
            // Two emails of one domain mask alike: say that what is hidden differs.
            if differed, finding.expected == finding.actual {
                finding.message += " (they differ where they are masked)"
            }
        }
        finding.message = redact(text: finding.message)
        finding.request = finding.request.map(redact)
        return finding
    }

    /// Whether an expected value is a matcher (`{"$regex": …}`), not a literal.
    private static func isMatcher(_ value: JSONValue) -> Bool {
        guard case .object(let members) = value, let key = members.keys.first else { return false }
        return members.count == 1 && key.hasPrefix("$")
    }

    private func redact(_ reference: RequestReference) -> RequestReference {
        var reference = reference
        reference.url = redact(text: reference.url)
        return reference
    }

    /// The value with secret keys' values replaced by the placeholder and secrets cut out of
    /// text, keys included (an email used as a key, a form field named by a token).
    package func redact(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            .object(
                members.reduce(into: [:]) {
                    let key = Secrets.isPlain($1.key) ? $1.key : redact(text: $1.key)
                    $0[key] =
                        Secrets.isSecret($1.key)
                        ? Secrets.placeholder : masked(member: $1.key, $1.value) ?? redact($1.value)
                })
        case .array(let items):
            .array(items.map(redact))
        case .string(let text):
            .string(redact(text: text))
        default:
            value
        }
    }

    package func redact(text: String) -> String {
        if isPlainAndUnknown(text) { return text }
        guard let cuts = Secrets.cuts(in: text, known: secrets) else { return Secrets.placeholderText }
        return masked(text: cuts.reduce(text) { $0.replacingOccurrences(of: $1, with: Secrets.placeholderText) })
    }

    /// Whether a text is left as it is without being searched: it is too plain to carry a
    /// secret or personal data (`Secrets.isPlain`, the rule `Secrets.values(in:)` and
    /// `PersonalData.hits` start with), no known secret is it or is in it, and no known personal
    /// data is to be masked. `redact(text:)` and `redact(encoded:)` would give it back unchanged;
    /// this spares them the search and the copies (what keeps the log line of a request that
    /// carries no secret cheap).
    func isPlainAndUnknown(_ text: String) -> Bool {
        guard Secrets.isPlain(text), !masksPersonalData || personalData.isEmpty else { return false }
        return secrets.isEmpty || !holdsKnownSecret(plain: text)
    }

    /// Whether a plain text (under 12 ASCII bytes) is a known secret of at least
    /// `shortestHiddenSecret` bytes or holds one of at least `shortestSearchedSecret`, as
    /// `Secrets.cuts` cuts them: its few pieces looked up in the set, not every secret searched for.
    private func holdsKnownSecret(plain text: String) -> Bool {
        let bytes = Array(text.utf8)
        if bytes.count >= Secrets.shortestHiddenSecret, secrets.contains(text) { return true }
        guard bytes.count >= Secrets.shortestSearchedSecret else { return false }
        for length in Secrets.shortestSearchedSecret...bytes.count where secretLengths.contains(length) {
            for start in 0...(bytes.count - length)
            where secrets.contains(String(decoding: bytes[start..<(start + length)], as: UTF8.self)) {
                return true
            }
        }
        return false
    }

    /// A text with the personal data it carries masked: the known values and those its shape
    /// gives away; hidden whole when it carries some inside an encoding (base64 of an email).
    func masked(text: String) -> String {
        guard masksPersonalData else { return text }
        var out = text
        for (raw, mask) in personalData where raw.utf8.count >= 4 {
            for written in Self.writtenForms(of: raw) where out.contains(written) {
                out = out.replacingOccurrences(of: written, with: mask)
            }
        }
        let hits = PersonalData.hits(in: .string(out))
        for hit in hits.sorted(by: { $0.value.count > $1.value.count }) {
            let forms = Self.writtenForms(of: hit.value).filter { out.contains($0) }
            guard !forms.isEmpty else { return Secrets.placeholderText }
            for written in forms { out = out.replacingOccurrences(of: written, with: hit.masked) }
        }
        return out
    }

    /// How a value may stand in text: as it is, percent-encoded as a URL's query encodes it
    /// (`ada%40example.com`), and so with spaces as `+`, as a form encodes them
    /// (`%2B44+20+7946+0958`): a miss's or a log's text quotes a query or a form as sent.
    static func writtenForms(of value: String) -> [String] {
        let unreserved = CharacterSet(charactersIn: "-._~").union(.alphanumerics)
        guard let encoded = value.addingPercentEncoding(withAllowedCharacters: unreserved), encoded != value else {
            return [value]
        }
        let form = encoded.replacingOccurrences(of: "%20", with: "+")
        return form == encoded ? [value, encoded] : [value, encoded, form]
    }

    /// A member's value masked when its field says it is personal data (an advertising id in
    /// `idfa`, a precise `latitude`) or it is an IP address; nil otherwise.
    func masked(member key: String, _ value: JSONValue) -> JSONValue? {
        guard masksPersonalData else { return nil }
        if let hit = PersonalData.fieldHit(key: key, value: value, vendor: nil) {
            return .string(PersonalData.mask(hit.value, as: hit.kind))
        }
        if let text = value.stringValue, !PersonalData.isVersionName(key),
            PersonalData.ipAddresses(in: text) == [text.trimmingCharacters(in: .whitespaces)]
        {
            return .string(PersonalData.mask(text, as: .ipAddress))
        }
        return nil
    }
}
