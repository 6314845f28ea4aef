import TracksnapJSON

/// A consent choice: what a Consent Mode type or a declared state is.
public enum ConsentState: String, Sendable, Hashable, CaseIterable {
    case granted, denied
}

/// Google Consent Mode as a Google tag's hit carries it: `gcs` (`G1` then ad_storage and
/// analytics_storage, `1` granted, `0` denied, `-` not set), `gcd` (v2: the four types' default
/// and update states), `npa`, `dma` and `dma_cps`.
///
/// ```swift
/// GoogleConsentMode(parameters: ["gcs": "G100"])?.state(of: "ad_storage")  // .denied
/// ```
public struct GoogleConsentMode: Sendable, Hashable {
    /// One consent type's states in `gcd`: set by `gtag('consent', 'default', …)` and by
    /// `gtag('consent', 'update', …)`; nil where not set.
    public struct Setting: Sendable, Hashable {
        public var byDefault: ConsentState?
        public var update: ConsentState?

        public init(byDefault: ConsentState?, update: ConsentState?) {
            self.byDefault = byDefault
            self.update = update
        }
        /// The state in force: the update's, else the default's.
        public var current: ConsentState? { update ?? byDefault }
    }

    /// The types `gcs` carries, in its order.
    public static let gcsTypes = ["ad_storage", "analytics_storage"]
    /// The types `gcd` carries, in its order.
    public static let gcdTypes = ["ad_storage", "analytics_storage", "ad_user_data", "ad_personalization"]

    public var gcs: String?
    /// `gcs`'s states: ad_storage and analytics_storage.
    public var gcsStates: [String: ConsentState] = [:]
    public var gcd: String?
    /// `gcd`'s settings, by consent type.
    public var gcdSettings: [String: Setting] = [:]
    /// `npa=1`: non-personalised ads (ad_personalization denied).
    public var npa: String?
    /// `dma=1`: the request is subject to the EU's Digital Markets Act.
    public var dma: String?
    /// `dma_cps`: the consent purposes granted under the DMA, one letter each
    /// (`s` storage, `y` personalisation, `p` ad user data, `h` analytics, `m` measurement, `o` other).
    public var dmaCPS: String?
    /// What in `gcs` or `gcd` could not be read.
    public var errors: [String] = []

    /// Reads the signals from a request's parameters; nil when it carries none.
    init?(parameters: [(name: String, value: String)]) {
        func value(_ name: String) -> String? { parameters.first { $0.name == name }?.value }
        gcs = value("gcs")
        gcd = value("gcd")
        npa = value("npa")
        dma = value("dma")
        dmaCPS = value("dma_cps")
        guard gcs != nil || gcd != nil || npa != nil || dma != nil || dmaCPS != nil else { return nil }
        if let gcs { readGCS(gcs) }
        if let gcd { readGCD(gcd) }
    }

    /// The state of a consent type (`ad_storage`…) the request declares: `gcd`'s in force,
    /// else `gcs`'s; `npa=1` denies ad_personalization. Nil when it says nothing of it.
    public func state(of type: String) -> ConsentState? {
        if let state = gcdSettings[type]?.current ?? gcsStates[type] { return state }
        if type == "ad_personalization", npa == "1" { return .denied }
        return nil
    }

    private mutating func readGCS(_ text: String) {
        let characters = Array(text)
        guard characters.count == 4, characters[0] == "G", characters[1] == "1" else {
            errors.append("gcs \"\(text)\" is not G1 followed by two of 0, 1 and -")
            return
        }
        for (type, character) in zip(Self.gcsTypes, characters[2...]) {
            switch character {
            case "1": gcsStates[type] = .granted
            case "0": gcsStates[type] = .denied
            case "-": break
            default: errors.append("gcs \"\(text)\": \(type)'s \"\(character)\" is not 0, 1 or -")
            }
        }
    }

    /// `gcd` is a version digit, then for each type a separator digit and a letter whose
    /// base64url value holds the default's state in bits 2–3 and the update's in bits 0–1
    /// (2 denied, 3 granted, else not set): `l` neither, `p` denied by default, `q` denied then
    /// denied, `r` denied then granted, `t` granted by default, `u` granted then denied, `v`
    /// granted then granted, `m` denied by update, `n` granted by update.
    private mutating func readGCD(_ text: String) {
        let characters = Array(text)
        guard characters.count >= 9, characters[0].isNumber else {
            errors.append("gcd \"\(text)\" is not a version digit followed by four separators and letters")
            return
        }
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_")
        func state(_ bits: Int) -> ConsentState? {
            switch bits {
            case 2: .denied
            case 3: .granted
            default: nil
            }
        }
        for (index, type) in Self.gcdTypes.enumerated() {
            let letter = characters[2 + 2 * index]
            guard let value = alphabet.firstIndex(of: letter) else {
                errors.append("gcd \"\(text)\": \(type)'s \"\(letter)\" (character \(3 + 2 * index)) is not base64url")
                continue
            }
            let setting = Setting(byDefault: state(value >> 2 & 3), update: state(value & 3))
            if setting.byDefault != nil || setting.update != nil { gcdSettings[type] = setting }
        }
    }

    var json: [String: JSONValue] {
        var object: [String: JSONValue] = [:]
        if let gcs {
            var view: [String: JSONValue] = ["value": .string(gcs)]
            for (type, state) in gcsStates { view[type] = .string(state.rawValue) }
            object["gcs"] = .object(view)
        }
        if let gcd {
            var view: [String: JSONValue] = ["value": .string(gcd)]
            for (type, setting) in gcdSettings {
                var states: [String: JSONValue] = [:]
                if let state = setting.byDefault { states["default"] = .string(state.rawValue) }
                if let state = setting.update { states["update"] = .string(state.rawValue) }
                view[type] = .object(states)
            }
            object["gcd"] = .object(view)
        }
        if let npa { object["npa"] = .string(npa) }
        if let dma { object["dma"] = .string(dma) }
        if let dmaCPS { object["dma_cps"] = .string(dmaCPS) }
        if !errors.isEmpty { object["errors"] = .array(errors.map(JSONValue.string)) }
        return object
    }
}
