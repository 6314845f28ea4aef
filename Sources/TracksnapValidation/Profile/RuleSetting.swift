/// How a profile sets a check: a vendor rule, all of a vendor's (`"rules": {"ga4": "on",
/// "ga4.purchase_items": "off"}`), or a kind of personal data (`"personalData": {"kinds": {"email": "warning"}}`).
public enum RuleSetting: String, Sendable, Hashable, CaseIterable {
    /// Checked, at the rule's own severity: a limit is an error, a recommendation a warning.
    case on
    case off
    case warning
    /// Checked as an error; a recommendation stays a warning.
    case error
}
