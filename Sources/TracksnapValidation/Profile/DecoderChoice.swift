public import TracksnapDecoders
package import TracksnapJSON

/// Which vendor decoders turn a profile's traffic into events: its `"decoders"` key.
///
/// ```json
/// "decoders": ["segment", "ga4"]     // .named(["segment", "ga4"])
/// "decoders": "all"                   // .all
/// ```
/// With either, `tracksnap record` writes the decoded events rather than the requests that
/// carried them. Without the key (`.unspecified`) it writes requests, and a snapshot that lists
/// `events` has them decoded by every built-in decoder.
public enum DecoderChoice: Sendable, Hashable, ExpressibleByArrayLiteral {
    /// The profile has no `decoders` key.
    case unspecified
    /// `"decoders": "all"`: every built-in decoder.
    case all
    /// `"decoders": ["segment", "ga4"]`: these vendors' decoders.
    case named([String])

    public init(arrayLiteral names: String...) { self = .named(names) }

    /// Whether `tracksnap record` writes decoded events rather than the requests that carried them.
    package var recordsEvents: Bool { self != .unspecified }

    /// The decoders that decode a snapshot's `events`: the named ones, else every built-in one.
    /// Names no decoder answers to are left out here; reading the profile reports them.
    public var resolved: [VendorDecoder] {
        guard case .named(let names) = self else { return VendorDecoder.all }
        return names.compactMap(VendorDecoder.named)
    }

    /// The decoders it names, a decoder of one's own (`Extensions.decoders`) before a built-in one
    /// of the same vendor; with `all` (or none named), one's own, then every built-in one.
    package func resolved(with own: [VendorDecoder]) -> [VendorDecoder] {
        guard case .named(let names) = self else { return own + VendorDecoder.all }
        return names.compactMap { name in own.last { $0.vendor == name } ?? VendorDecoder.named(name) }
    }

    /// The names no decoder answers to.
    package var unknownNames: [String] { unknownNames(with: []) }

    /// The names neither a built-in decoder nor one of these answers to.
    package func unknownNames(with own: [VendorDecoder]) -> [String] {
        guard case .named(let names) = self else { return [] }
        return names.filter { name in VendorDecoder.named(name) == nil && !own.contains { $0.vendor == name } }
    }

    /// Two profiles' choices as one, as composition joins them: every decoder when either says
    /// `all`, the union of the names when both name some, else whichever was given.
    func union(_ other: DecoderChoice) -> DecoderChoice {
        switch (self, other) {
        case (.unspecified, _): other
        case (_, .unspecified): self
        case (.all, _), (_, .all): .all
        case (.named(let mine), .named(let theirs)): .named(mine + theirs.filter { !mine.contains($0) })
        }
    }

    /// How an unknown name is reported.
    static func unknownMessage(_ name: String, own: [VendorDecoder] = []) -> String {
        let names = (VendorDecoder.all + own).map(\.vendor)
        return "no decoder \"\(name)\"; decoders: \(names.joined(separator: ", "))"
            + (own.isEmpty ? " (to add one of your own: \(Extensions.howToAdd(with: "DecoderRegistry")))" : "")
    }
}

extension Profile {
    /// Throws when `decoders` names a decoder neither built in nor of one's own: what a check of
    /// the profile (`PreparedCheck`) and the inspector's reading with it refuse alike.
    ///
    /// - Parameter file: how the error names the profile when it has no file of its own.
    package func requireKnownDecoders(file: String) throws(InputError) {
        guard let unknown = decoders.unknownNames(with: ownDecoders).first else { return }
        throw InputError(file: self.file ?? file, message: DecoderChoice.unknownMessage(unknown, own: ownDecoders))
    }
}
