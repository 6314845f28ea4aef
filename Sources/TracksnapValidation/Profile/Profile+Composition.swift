import TracksnapDecoders
import TracksnapSnapshot

extension Profile {
    /// Several profiles as one (`"validator": ["segment", "ga4"]`, `--validator segment,ga4`).
    ///
    /// ```swift
    /// let both = Profile.combining([segment, ga4])
    /// both.filter.accepts(segmentBatch)  // true: either profile selects it
    /// both.name                          // "segment,ga4"
    /// ```
    /// The rule: traffic any of them selects is selected (their filters joined by `any`); the
    /// lists — `ignore`, `environment`, `redact`, `decoders`, `plan`, `protobuf`, `record.headers`, `record.context`,
    /// `record.literal` — are unions (`decoders` is every decoder when one of them says `"all"`);
    /// every other setting — `order`, `delivery`, `unexpected`, `strict`, `validator`, `record.generalize`, each
    /// code's `severity`, each of the `rules` and `personalData`'s `check`, `traits` and each of its `kinds` (its `allow` lists add up) — comes from the first profile in the list whose file sets it, else
    /// takes its default. A list of one is that profile.
    package static func combining(_ profiles: [Profile]) -> Profile {
        guard var combined = profiles.first else { return builtInDefault }
        guard profiles.count > 1 else { return combined }
        combined = profiles.dropFirst().reduce(combined) { $0.merging(scalarsAndListsOf: $1) }
        combined.name = profiles.map(\.name).joined(separator: ",")
        combined.description = nil
        combined.filter = AnyFilter(profiles.map(\.filter))
        combined.extends = []
        return combined
    }

    /// This profile as the base of one that `extends` it.
    ///
    /// ```swift
    /// let shop = Profile.builtIn("segment")!.extended(by: own)  // own's settings win, lists add up
    /// ```
    /// The rule: a setting the extending profile's file sets wins over the base's; the lists add
    /// to the base's (as in `combining(_:)`); its `filter`, when it has one, replaces the base's.
    /// Its name, file and description are its own.
    package func extended(by own: Profile) -> Profile {
        var extended = own.merging(scalarsAndListsOf: self)
        if !own.explicitKeys.contains("filter") { extended.filter = filter }
        if !own.explicitKeys.contains("description") { extended.description = description }
        return extended
    }

    /// Self first: its explicit settings win, the other's fill in what it left unset; lists are unions.
    private func merging(scalarsAndListsOf other: Profile) -> Profile {
        var merged = self
        func fill<Value>(_ key: String, _ keyPath: WritableKeyPath<Profile, Value>) {
            if !explicitKeys.contains(key), other.explicitKeys.contains(key) {
                merged[keyPath: keyPath] = other[keyPath: keyPath]
            }
        }
        fill("order", \.order)
        fill("unexpected", \.unexpected)
        fill("delivery", \.delivery)
        fill("strict", \.strict)
        fill("swiftValidator", \.validator)
        fill("record.generalize", \.generalizes)
        merged.severities = severities.merging(other.severities) { mine, _ in mine }
        merged.ownDecoders =
            ownDecoders + other.ownDecoders.filter { theirs in !ownDecoders.contains { $0.vendor == theirs.vendor } }
        merged.rules = rules.merging(other.rules) { mine, _ in mine }
        merged.personalData = personalData.merging(
            other.personalData, explicit: explicitKeys.contains("personalData"),
            otherExplicit: other.explicitKeys.contains("personalData"))
        merged.consent = consent ?? other.consent
        merged.ignore = ignore.union(other.ignore)
        merged.redact = redact.union(other.redact)
        merged.literal = literal.union(other.literal)
        merged.environment = environment.union(other.environment)
        merged.recordedHeaders = Self.union(recordedHeaders, other.recordedHeaders)
        merged.recordedContext = Self.union(recordedContext, other.recordedContext)
        merged.decoders = decoders.union(other.decoders)
        merged.plans = Self.union(plans, other.plans)
        merged.messageDecoders = messageDecoders + other.messageDecoders
        merged.explicitKeys = explicitKeys.union(other.explicitKeys)
        return merged
    }

    private static func union(_ first: [String], _ second: [String]) -> [String] {
        first + second.filter { !first.contains($0) }
    }
}
