public import TracksnapJSON
public import TracksnapTraffic

/// Every consent signal one captured request carries, decoded: Google Consent Mode (`gcs`,
/// `gcd`, `npa`, `dma`, `dma_cps`), the IAB TCF v2 TC string (`gdpr`, `gdpr_consent`,
/// `euconsent-v2`…), the US Privacy string (`us_privacy`) and the GPP string (`gpp`, `gpp_sid`),
/// from the query, a form body, a JSON body's top level and the cookies.
///
/// ```swift
/// let signals = ConsentSignals.read(request)
/// signals?.google?.state(of: "analytics_storage")  // .denied
/// signals?.tcf?.purposesConsent                     // [1, 2, 7]
/// ```
public struct ConsentSignals: Sendable, Hashable {
    public var google: GoogleConsentMode?
    /// `gdpr=1` or `0`: whether the sender says the GDPR applies.
    public var gdprApplies: Bool?
    /// The TC string, from `gdpr_consent`, `euconsent-v2`, `tcf`, `tc_string`, `tcString`, or
    /// the TCF section of the GPP string.
    public var tcf: TCString?
    public var usPrivacy: USPrivacy?
    public var gpp: GPPString?
    /// `gpp_sid`: the GPP sections that apply to the request.
    public var gppSectionIDs: [Int]?
    /// Each signal that could not be read: where it was and why (`gdpr_consent: TC string: …`).
    public var errors: [String] = []

    /// Where a TC string travels: the names the IAB's specifications and the vendors' tags use.
    static let tcfNames = ["gdpr_consent", "euconsent-v2", "euconsent", "tcf", "tc_string", "tcString"]
    static let usPrivacyNames = ["us_privacy", "usprivacy"]
    static let gppNames = ["gpp", "__gpp"]
    /// Every name a signal is read under, which a JSON body must hold for it to be parsed again.
    static let jsonNames =
        tcfNames + usPrivacyNames + gppNames + ["gdpr", "gpp_sid", "gcs", "gcd", "npa", "dma", "dma_cps"]

    /// The request's consent signals; nil when it carries none.
    public static func read(_ request: CapturedRequest) -> ConsentSignals? {
        var items = request.parameters
        // A cookie carries the CMP's own copy: `euconsent-v2`, `usprivacy`, `__gpp`.
        for header in request.headers where header.name.lowercased() == "cookie" {
            for pair in header.value.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { continue }
                items.append((String(parts[0].trimmingPrefix(" ")), String(parts[1])))
            }
        }
        // A JSON body's top-level members (an SDK that posts its consent with its events).
        // Parsed only when the text names a signal: most JSON bodies are event batches without one.
        if request.hasJSONMediaType, let text = request.bodyText,
            Self.jsonNames.contains(where: { text.contains("\"\($0)\"") }),
            let object = request.bodyJSON?.objectValue
        {
            for (name, value) in object {
                if let text = value.boolValue.map({ $0 ? "1" : "0" }) ?? value.scalarText {
                    items.append((name, text))
                }
            }
        }
        return ConsentSignals(items: items)
    }

    /// The signals among these named values; nil when there are none.
    init?(items: [(name: String, value: String)]) {
        func value(_ names: [String]) -> (name: String, value: String)? {
            for name in names { if let item = items.first(where: { $0.name == name }) { return item } }
            return nil
        }
        google = GoogleConsentMode(parameters: items)
        if let flag = value(["gdpr"])?.value { gdprApplies = flag == "1" ? true : flag == "0" ? false : nil }
        if let (name, text) = value(Self.tcfNames), !text.isEmpty {
            do throws(ConsentDecodeError) { tcf = try TCString(text) } catch { errors.append("\(name): \(error)") }
        }
        if let (name, text) = value(Self.usPrivacyNames) {
            do throws(ConsentDecodeError) { usPrivacy = try USPrivacy(text) } catch {
                errors.append("\(name): \(error)")
            }
        }
        if let (name, text) = value(Self.gppNames), !text.isEmpty {
            do throws(ConsentDecodeError) {
                let gpp = try GPPString(text)
                self.gpp = gpp
                if tcf == nil, let section = gpp.tcfSection { tcf = try TCString(section) }
            } catch { errors.append("\(name): \(error)") }
        }
        if let (name, text) = value(["gpp_sid"]) {
            let ids = text.split(separator: ",").map { Int($0.trimmingPrefix(" ")) }
            if ids.contains(nil) || ids.isEmpty {
                errors.append("\(name) \"\(text)\" is not a comma-separated list of section ids")
            } else {
                gppSectionIDs = ids.compactMap { $0 }
            }
        }
        guard
            google != nil || gdprApplies != nil || tcf != nil || usPrivacy != nil || gpp != nil
                || gppSectionIDs != nil || !errors.isEmpty
        else { return nil }
    }

    /// What `tracksnap events` shows as an event's `consent`:
    /// `{"google": {"gcs": {"value": "G100", "ad_storage": "denied", …}, …}, "tcf": {…}, …}`.
    public var json: JSONValue {
        var object: [String: JSONValue] = [:]
        if let google { object["google"] = .object(google.json) }
        if let gdprApplies { object["gdpr"] = .bool(gdprApplies) }
        if let tcf { object["tcf"] = .object(tcf.json) }
        if let usPrivacy { object["us_privacy"] = .object(usPrivacy.json) }
        if var gpp = gpp?.json {
            if let gppSectionIDs { gpp["gpp_sid"] = .array(gppSectionIDs.map { .number(String($0)) }) }
            object["gpp"] = .object(gpp)
        } else if let gppSectionIDs {
            object["gpp"] = .object(["gpp_sid": .array(gppSectionIDs.map { .number(String($0)) })])
        }
        let all = errors + (google?.errors ?? [])
        if !all.isEmpty { object["errors"] = .array(all.map(JSONValue.string)) }
        return .object(object)
    }
}
