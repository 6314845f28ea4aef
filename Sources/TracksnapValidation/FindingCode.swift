/// What kind of difference a finding is; the raw value is the code reports print.
public enum FindingCode: String, Sendable, Hashable, CaseIterable {
    /// An expected entry that nothing captured matched.
    case missingEvent = "missing_event"
    /// Captured traffic that passed the filter and matched no expected entry.
    case unexpectedEvent = "unexpected_event"
    /// A literal that differs from the captured value.
    case valueMismatch = "value_mismatch"
    /// A `$regex` the captured value does not match.
    case patternMismatch = "pattern_mismatch"
    /// A value a `$jsonSchema` matcher's schema refuses (the message names the keyword and the
    /// value's JSON Pointer; the finding stands at the keyword in the snapshot).
    case schemaMismatch = "schema_mismatch"
    /// A value of another JSON type than expected (or than `$type` asks for).
    case typeMismatch = "type_mismatch"
    /// An expected key that the captured value lacks.
    case missingKey = "missing_key"
    /// A key the captured value has that a strict object or `$absent` forbids.
    case unexpectedKey = "unexpected_key"
    /// An entry captured, but not where `order: strict` expects it.
    case orderMismatch = "order_mismatch"
    /// An entry captured more (or fewer) times than expected, or an array of another length.
    case countMismatch = "count_mismatch"
    /// Analytics traffic a decoder recognised but could not decode (the message says why).
    case decodeError = "decode_error"
    /// A request a cassette had no answer for while replaying (the message says which
    /// recorded requests were nearest, and how to record it).
    case replayMiss = "replay_miss"
    /// An event or request that breaks a rule its vendor documents (`ga4.event_name_length`:
    /// the message names the rule), checked where the profile turns the vendor's rules on.
    case vendorRule = "vendor_rule"
    /// An event a tracking plan has no definition of (`--plan`, a profile's `"plan"`).
    case unplannedEvent = "unplanned_event"
    /// An event that fails its definition in a tracking plan: the message names the event and
    /// the schema keyword, the path is the property's JSON Pointer in the call.
    case planViolation = "plan_violation"
    /// Personal data in an event or request (an email address, a phone number, a card number,
    /// an IBAN, an advertising id, an IP address, precise coordinates): the message names the
    /// kind, the event and the JSON Pointer, the value is masked (`a***@example.com`).
    case personalData = "personal_data"
    /// A request against the consent the test declared (`--consent denied`, `"consent"`): its
    /// own Consent Mode contradicts it, a Google tag sends no Consent Mode under a denial, an
    /// advertising or cross-site identifier is sent while ad consent is denied, or its TC string
    /// refuses its vendor purpose 1 while it reads or sets an identifier.
    case consent
}

extension FindingCode {
    /// A report section of its own that some codes are shown in, apart from the snapshot's
    /// differences; its raw value is the section's key in the JSON report.
    public enum Category: String, Sendable, Hashable, CaseIterable {
        /// What the traffic gives away about a person: personal data (and consent), values masked.
        case privacy
    }

    /// The report section this code is shown in; nil for a difference shown with its snapshot's
    /// entries. A new code joins the privacy section by one line here.
    ///
    /// ```swift
    /// FindingCode.personalData.category  // .privacy
    /// ```
    public var category: Category? {
        switch self {
        case .personalData, .consent: .privacy
        default: nil
        }
    }
}
