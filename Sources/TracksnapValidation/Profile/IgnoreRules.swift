package import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

/// Fields never compared (nor recorded): volatile timestamps, message ids, cache-busters.
///
/// A rule is a JSON Pointer relative to an entry, where `*` stands for any one token
/// (`/parameters/_`, `/body/batch/*/messageId`), or a bare key ignored at any depth (`sentAt`).
///
/// Tokens are compared in the snapshot's spelling, where a data key beginning with `$` is
/// written `$$` (`/properties/$$insert_id`); a rule may spell it either way, since a single `$`
/// can only mean the data key there.
///
/// ```swift
/// let rules = IgnoreRules(["/properties/$insert_id", "sentAt"])
/// rules.ignores(["properties", "$$insert_id"])  // true
/// rules.ignores(dataKeys: ["properties", "$insert_id"])  // true
/// ```
public struct IgnoreRules: Sendable, Hashable {
    private var pointers: [[String]] = []
    private var keys: Set<String> = []

    /// - Parameter rules: JSON Pointers relative to an entry, or bare key names.
    public init(_ rules: [String] = []) {
        for rule in rules {
            if rule.hasPrefix("/") {
                pointers.append(JSONPointer.tokens(rule).map(Self.snapshotSpelling))
            } else {
                keys.insert(Self.snapshotSpelling(rule))
            }
        }
    }

    public var isEmpty: Bool { pointers.isEmpty && keys.isEmpty }

    /// The bare key names among the rules, as the captured data spells them (`$os`, `sentAt`).
    package var bareKeys: Set<String> {
        Set(keys.map { $0.hasPrefix("$$") ? String($0.dropFirst()) : $0 })
    }

    /// The query and form parameters that only defeat caches, ignored by every profile (each
    /// `Profile` starts with them): `_`, `_cb`, `cb`, `cachebust`, `cachebuster`, `cacheBuster`,
    /// `cache_buster`, `nocache`, `ord`, `rand`, `rnd`, `z`.
    ///
    /// Names that carry data for some vendor are left out: `t` (Universal Analytics' hit type),
    /// `r` (the Meta pixel's release), `v` (protocol versions), `random`, `ts`; vendor profiles
    /// ignore their own volatile parameters.
    package static let cacheBusters = IgnoreRules(
        [
            "_", "_cb", "cb", "cachebust", "cachebuster", "cacheBuster", "cache_buster", "nocache", "ord", "rand",
            "rnd", "z",
        ].map { "/parameters/" + $0 })

    /// The fields either set of rules ignores.
    ///
    /// ```swift
    /// IgnoreRules(["sentAt"]).union(IgnoreRules(["/parameters/cb"])).ignores(["parameters", "cb"])  // true
    /// ```
    package func union(_ other: IgnoreRules) -> IgnoreRules {
        var union = self
        union.pointers += other.pointers.filter { !pointers.contains($0) }
        union.keys.formUnion(other.keys)
        return union
    }

    /// Whether the value at these tokens (relative to the entry, keys spelt as the snapshot
    /// writes them: `$$os` for the data key `$os`) is ignored.
    public func ignores(_ tokens: [String]) -> Bool {
        guard let last = tokens.last else { return false }
        if keys.contains(last) { return true }
        return pointers.contains { rule in
            rule.count == tokens.count && zip(rule, tokens).allSatisfy { $0 == "*" || $0 == $1 }
        }
    }

    /// Whether the value at these tokens, keys spelt as the captured data has them (`$os`), is ignored.
    package func ignores(dataKeys tokens: [String]) -> Bool {
        ignores(tokens.map { $0.hasPrefix("$") ? "$" + $0 : $0 })
    }

    /// Every string under a field these rules name in a request's view (below its top-level
    /// keys: `/body/customer_ref`, `client_id` at any depth): what a profile's `redact` makes a
    /// secret of the request, hidden wherever a snapshot, a report or a log would show it.
    ///
    /// ```swift
    /// IgnoreRules(["/body/customer_ref"]).strings(in: ["body": ["customer_ref": "c-42"]])  // ["c-42"]
    /// ```
    package func strings(in view: JSONValue) -> Set<String> {
        guard !isEmpty else { return [] }
        var found: Set<String> = []
        func collect(_ value: JSONValue) {
            switch value {
            case .string(let text): if !text.isEmpty { found.insert(text) }
            case .object(let members): for member in members.values { collect(member) }
            case .array(let items): for item in items { collect(item) }
            default: break
            }
        }
        func walk(_ value: JSONValue, _ tokens: [String]) {
            if tokens.count >= 2, ignores(tokens) { return collect(value) }
            switch value {
            case .object(let members):
                for (key, member) in members { walk(member, tokens + [Matcher.Member.token(for: key)]) }
            case .array(let items):
                for (index, item) in items.enumerated() { walk(item, tokens + [String(index)]) }
            default: break
            }
        }
        walk(view, [])
        return found
    }

    /// A rule's token in the snapshot's spelling: a single leading `$` can only be a data key's,
    /// so it gets a second one; a token beginning with `$$` is already spelt so.
    static func snapshotSpelling(_ token: String) -> String {
        token.hasPrefix("$") && !token.hasPrefix("$$") ? "$" + token : token
    }
}
