import TracksnapJSON

/// The core segment of an IAB TCF v2 TC string (v2.2 and v2.0 share it), read bit by bit as
/// the Transparency and Consent String specification lays it out.
///
/// ```swift
/// let tc = try TCString("CQ…")
/// tc.purposesConsent   // [1, 2, 3]
/// tc.vendorConsents    // [755]
/// ```
public struct TCString: Sendable, Hashable {
    /// 2 for TCF v2.x.
    public var version: Int
    /// When the string was created and last updated, in deciseconds since 1970 as encoded
    /// (the specification rounds them to the day).
    public var created: Int
    public var lastUpdated: Int
    public var cmpID: Int
    public var cmpVersion: Int
    public var consentScreen: Int
    /// Two capitals (`EN`).
    public var consentLanguage: String
    public var vendorListVersion: Int
    public var policyVersion: Int
    public var isServiceSpecific: Bool
    public var useNonStandardTexts: Bool
    /// Special features opted in (1 precise geolocation, 2 device scanning).
    public var specialFeatureOptIns: [Int]
    /// Purposes (1 to 24) with the user's consent.
    public var purposesConsent: [Int]
    /// Purposes (1 to 24) whose legitimate interest was disclosed and not objected to.
    public var purposesLegitimateInterest: [Int]
    public var purposeOneTreatment: Bool
    /// Two capitals (`DE`), `AA` when unknown.
    public var publisherCountryCode: String
    /// Vendors (their Global Vendor List ids) with the user's consent.
    public var vendorConsents: [Int]
    /// Vendors whose legitimate interest was disclosed and not objected to.
    public var vendorLegitimateInterests: [Int]

    /// Reads the core segment (the part before the first `.`); the other segments (disclosed
    /// vendors, publisher TC) are not read.
    ///
    /// - Throws: `ConsentDecodeError` naming the field and bit when the string is cut short,
    ///   holds a character that is not base64url, is not version 2 or is out of its ranges.
    public init(_ text: String) throws(ConsentDecodeError) {
        let core = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard !core.isEmpty else { throw ConsentDecodeError("TC string: empty") }
        var bits = try ConsentBits(base64URL: core, what: "TC string")
        version = try bits.int(6, "Version")
        guard version == 2 else {
            throw ConsentDecodeError("TC string: Version at bit 0 is \(version); only TCF v2 (version 2) is read")
        }
        created = try bits.int(36, "Created")
        lastUpdated = try bits.int(36, "LastUpdated")
        cmpID = try bits.int(12, "CmpId")
        cmpVersion = try bits.int(12, "CmpVersion")
        consentScreen = try bits.int(6, "ConsentScreen")
        consentLanguage = try bits.letters("ConsentLanguage")
        vendorListVersion = try bits.int(12, "VendorListVersion")
        policyVersion = try bits.int(6, "TcfPolicyVersion")
        isServiceSpecific = try bits.bool("IsServiceSpecific")
        useNonStandardTexts = try bits.bool("UseNonStandardTexts")
        specialFeatureOptIns = try bits.ids(12, "SpecialFeatureOptIns")
        purposesConsent = try bits.ids(24, "PurposesConsent")
        purposesLegitimateInterest = try bits.ids(24, "PurposesLITransparency")
        purposeOneTreatment = try bits.bool("PurposeOneTreatment")
        publisherCountryCode = try bits.letters("PublisherCC")
        vendorConsents = try Self.vendors(&bits, "VendorConsents")
        vendorLegitimateInterests = try Self.vendors(&bits, "VendorLegitimateInterests")
    }

    /// A vendor section: MaxVendorId, IsRangeEncoding, then a bitfield or range entries.
    private static func vendors(_ bits: inout ConsentBits, _ section: String) throws(ConsentDecodeError) -> [Int] {
        let maxID = try bits.int(16, "\(section).MaxVendorId")
        guard try bits.bool("\(section).IsRangeEncoding") else {
            return try bits.ids(maxID, "\(section).BitField")
        }
        let entries = try bits.int(12, "\(section).NumEntries")
        var set = [Bool](repeating: false, count: maxID + 1)
        for entry in 0..<entries {
            let field = "\(section).Entry[\(entry)]"
            let isRange = try bits.bool("\(field).IsARange")
            let at = bits.offset
            let start = try bits.int(16, "\(field).StartOrOnlyVendorId")
            let end = isRange ? try bits.int(16, "\(field).EndVendorId") : start
            guard start >= 1, start <= end, end <= maxID else {
                throw ConsentDecodeError(
                    "TC string: \(field) at bit \(at) is vendors \(start)…\(end), outside 1…\(maxID) (MaxVendorId)")
            }
            for id in start...end { set[id] = true }
        }
        return set.indices.filter { set[$0] }
    }

    /// The object `tracksnap events` shows, under `consent.tcf`.
    var json: [String: JSONValue] {
        func ints(_ values: [Int]) -> JSONValue { .array(values.map { .number(String($0)) }) }
        return [
            "version": .number(String(version)), "created": .number(String(created)),
            "last_updated": .number(String(lastUpdated)), "cmp_id": .number(String(cmpID)),
            "cmp_version": .number(String(cmpVersion)), "consent_screen": .number(String(consentScreen)),
            "consent_language": .string(consentLanguage), "vendor_list_version": .number(String(vendorListVersion)),
            "policy_version": .number(String(policyVersion)), "service_specific": .bool(isServiceSpecific),
            "special_features": ints(specialFeatureOptIns), "purposes_consent": ints(purposesConsent),
            "purposes_legitimate_interest": ints(purposesLegitimateInterest),
            "purpose_one_treatment": .bool(purposeOneTreatment), "publisher_cc": .string(publisherCountryCode),
            "vendors_consent": ints(vendorConsents), "vendors_legitimate_interest": ints(vendorLegitimateInterests),
        ]
    }
}
