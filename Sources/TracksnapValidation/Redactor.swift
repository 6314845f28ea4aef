import Foundation
import TracksnapCore
package import TracksnapJSON
package import TracksnapModel

extension CapturedRequest {
    /// Every secret value the request carries: the credentials in its secret headers
    /// (`Authorization`, `Cookie`…), and the values under secret keys in its URL, parameters
    /// and body at any depth of any encoding (`Secrets.values(in:)`).
    package var carriedSecrets: Set<String> { carriedSecrets(view: validationView) }

    /// The same, from the request's `validationView` when it is already at hand.
    package func carriedSecrets(view: JSONValue) -> Set<String> {
        var found = Secrets.values(in: view)
        for header in headers where Secrets.isSecretHeader(header.name) {
            found.formUnion(Secrets.credentials(inHeaderValue: header.value))
        }
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

    package init(requests: some Sequence<CapturedRequest>) {
        self.init(secrets: requests.reduce(into: []) { $0.formUnion($1.carriedSecrets) })
    }

    package init(secrets: Set<String>) {
        self.secrets = secrets
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

    private func redact(_ finding: Finding) -> Finding {
        var finding = finding
        if JSONPointer.tokens(finding.path).contains(where: Secrets.isSecret) {
            finding.actual = finding.actual.map { _ in Secrets.placeholder }
        } else {
            finding.actual = finding.actual.map(redact)
        }
        finding.message = redact(text: finding.message)
        finding.request = finding.request.map(redact)
        return finding
    }

    private func redact(_ reference: RequestReference) -> RequestReference {
        var reference = reference
        reference.url = redact(text: reference.url)
        return reference
    }

    /// The value with secret keys' values replaced by the placeholder and secrets cut out of text.
    package func redact(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            .object(
                members.reduce(into: [:]) {
                    $0[$1.key] = Secrets.isSecret($1.key) ? Secrets.placeholder : redact($1.value)
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
        guard let cuts = Secrets.cuts(in: text, known: secrets) else { return Secrets.placeholderText }
        return cuts.reduce(text) { $0.replacingOccurrences(of: $1, with: Secrets.placeholderText) }
    }
}
