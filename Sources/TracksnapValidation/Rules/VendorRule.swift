package import TracksnapDecoders
import TracksnapJSON
package import TracksnapTraffic

/// A rule a vendor documents for what it collects: a limit beyond which it drops or refuses
/// data (GA4's 40-character event names, Segment's 32 KB per call), or a recommendation (GA4's
/// `items` on a purchase). Checked offline on the decoded events of every run whose profile
/// turns the vendor's rules on (`"rules": {"ga4": "on"}`, as the built-in vendor profiles do).
///
/// ```swift
/// let rule = VendorRule.named("ga4.event_name_length")!
/// rule.check(request, events)  // [Violation(event: 0, path: "/name", message: "41 characters; …")]
/// ```
package struct VendorRule: Sendable {
    /// A limit the vendor enforces (an error by default), or a recommendation (never more than
    /// a warning).
    package enum Kind: String, Sendable { case limit, recommendation }

    /// What one request breaks: in one of its events (`event`, the index among the request's
    /// events) or in the request as a whole (`event` nil); `path` is a JSON Pointer into the
    /// event (`/name`, `/properties/value`) or, for the request, empty.
    package struct Violation: Sendable, Hashable {
        package var event: Int?
        package var path: String
        package var message: String

        package init(event: Int?, path: String = "", message: String) {
            self.event = event
            self.path = path
            self.message = message
        }
    }

    /// `vendor.rule` (`ga4.event_name_length`).
    package var id: String
    package var vendor: String
    package var kind: Kind
    /// The rule in a sentence, and where the vendor states it.
    package var summary: String
    /// The rule's check of one request and the events decoded from it.
    package var check: @Sendable (_ request: CapturedRequest, _ events: [AnalyticsEvent]) -> [Violation]

    package init(
        id: String, kind: Kind = .limit, summary: String,
        check: @escaping @Sendable (_ request: CapturedRequest, _ events: [AnalyticsEvent]) -> [Violation]
    ) {
        self.id = id
        self.vendor = String(id.prefix { $0 != "." })
        self.kind = kind
        self.summary = summary
        self.check = check
    }

    /// Every built-in rule, vendor by vendor.
    package static let all: [VendorRule] = ga4 + segment + amplitude + mixpanel + posthog

    /// The built-in rule with this id.
    package static func named(_ id: String) -> VendorRule? { all.first { $0.id == id } }

    /// The vendors that have rules.
    package static let vendors: [String] = all.reduce(into: []) { if !$0.contains($1.vendor) { $0.append($1.vendor) } }
}

extension VendorRule {
    /// The severity a profile's settings give this rule; nil when it is not checked. A rule's
    /// own setting wins over its vendor's.
    func severity(in settings: [String: RuleSetting]) -> Severity? {
        switch settings[id] ?? settings[vendor] {
        case nil, .off: nil
        case .warning: .warning
        case .on: kind == .limit ? .error : .warning
        case .error: kind == .limit ? .error : .warning
        }
    }
}

extension Profile {
    /// The findings of the vendor rules this profile turns on, over the events it selects and
    /// decodes (`selection`, asked only when a rule is on): a `vendor_rule` each, naming the
    /// rule, the request and the event.
    package func ruleFindings(_ requests: [CapturedRequest], selection: () -> Selection) -> [Finding] {
        let checkedRules = checkedRules
        guard !checkedRules.isEmpty else { return [] }
        let checked = checkedRules.map(\.rule)
        let severity = Dictionary(checkedRules.map { ($0.rule.id, $0.severity) }) { first, _ in first }
        let selection = selection()
        var findings: [Finding] = []
        for (index, decoded) in zip(selection.selected, selection.decoded) {
            guard case .events(let events) = decoded else { continue }
            let request = requests[index]
            for broken in VendorRule.violations(of: checked, request, events) {
                findings.append(
                    Finding(
                        code: .vendorRule, severity: severity[broken.rule.id] ?? .error, path: broken.violation.path,
                        message: broken.message,
                        request: RequestReference(
                            id: request.id, index: index, method: request.method, url: request.urlWithoutQuery,
                            event: broken.event?.index)))
            }
        }
        return findings
    }

    /// The vendor rules this profile checks, each with the severity its findings get: a rule's
    /// own setting wins over its vendor's, and `"severity": {"vendor_rule": "warning"}` makes
    /// every rule a warning.
    var checkedRules: [(rule: VendorRule, severity: Severity)] {
        let ceiling = severities[.vendorRule] ?? .error
        return VendorRule.all.compactMap { rule in
            rule.severity(in: rules).map { (rule, ceiling == .warning ? .warning : $0) }
        }
    }

    /// What the rules this profile checks find in a request and the events decoded from it (the
    /// inspector's reading with a profile), each told as the profile checks it: a limit it checks
    /// as a warning is told as a recommendation is (`VendorRule.Kind`).
    package func brokenRules(_ request: CapturedRequest, _ events: [AnalyticsEvent]) -> [VendorRule.Broken] {
        let checkedRules = checkedRules
        return VendorRule.violations(of: checkedRules.map(\.rule), request, events).map { broken in
            var told = broken
            if checkedRules.first(where: { $0.rule.id == broken.rule.id })?.severity == .warning {
                told.rule.kind = .recommendation
            }
            return told
        }
    }
}

extension VendorRule {
    /// A rule one request breaks, and the event it breaks it in (nil: the request as a whole).
    package struct Broken: Sendable {
        package var rule: VendorRule
        package var violation: Violation
        package var event: AnalyticsEvent?

        /// `ga4.event_name_length: track "…" (event 2) at /name: 41 characters; …`
        package var message: String {
            let subject = event.map { event in
                "\(event.type)\(event.name.map { " \"\($0)\"" } ?? "") (event \(event.index + 1))"
                    + (violation.path.isEmpty ? "" : " at \(violation.path)") + ": "
            }
            return "\(rule.id): \(subject ?? "")\(violation.message)"
        }
    }

    /// What these rules find in a request and the events decoded from it, each rule checked on
    /// its own vendor's events.
    package static func violations(of rules: [VendorRule], _ request: CapturedRequest, _ events: [AnalyticsEvent])
        -> [Broken]
    {
        let vendors = Set(events.map(\.vendor))
        var broken: [Broken] = []
        for rule in rules where vendors.contains(rule.vendor) {
            let own = events.filter { $0.vendor == rule.vendor }
            broken += rule.check(request, own).map {
                Broken(rule: rule, violation: $0, event: $0.event.map { own[$0] })
            }
        }
        return broken
    }
}

/// Helpers the rule sets share.
enum RuleText {
    /// A value as a finding quotes it: at most 40 characters of it.
    static func quoted(_ text: String) -> String {
        let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
        return "\"\(shown)\""
    }

    /// The size of a JSON value as compact JSON, in bytes.
    static func size(_ value: JSONValue) -> Int { value.serialized().utf8.count }
}
