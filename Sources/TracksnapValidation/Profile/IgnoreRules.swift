import TracksnapCore

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
    public func ignores(dataKeys tokens: [String]) -> Bool {
        ignores(tokens.map { $0.hasPrefix("$") ? "$" + $0 : $0 })
    }

    /// A rule's token in the snapshot's spelling: a single leading `$` can only be a data key's,
    /// so it gets a second one; a token beginning with `$$` is already spelt so.
    static func snapshotSpelling(_ token: String) -> String {
        token.hasPrefix("$") && !token.hasPrefix("$$") ? "$" + token : token
    }
}
