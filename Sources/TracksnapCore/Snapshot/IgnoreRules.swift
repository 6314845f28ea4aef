/// Fields never compared (nor recorded): volatile timestamps, message ids, cache-busters.
///
/// A rule is a JSON Pointer relative to an entry, where `*` stands for any one token
/// (`/parameters/_`, `/body/batch/*/messageId`), or a bare key ignored at any depth (`sentAt`).
public struct IgnoreRules: Sendable, Hashable {
    private var pointers: [[String]] = []
    private var keys: Set<String> = []

    public init(_ rules: [String] = []) {
        for rule in rules {
            if rule.hasPrefix("/") { pointers.append(JSONPointer.tokens(rule)) } else { keys.insert(rule) }
        }
    }

    public var isEmpty: Bool { pointers.isEmpty && keys.isEmpty }

    /// Whether the value at these tokens (relative to the entry) is ignored.
    public func ignores(_ tokens: [String]) -> Bool {
        guard let last = tokens.last else { return false }
        if keys.contains(last) { return true }
        return pointers.contains { rule in
            rule.count == tokens.count && zip(rule, tokens).allSatisfy { $0 == "*" || $0 == $1 }
        }
    }
}
