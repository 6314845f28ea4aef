/// A consent string that cannot be read: which signal, which field, at which bit or character.
///
/// ```swift
/// print(error)  // TC string: PurposesConsent at bit 152 needs 24 bits, the core segment has 160
/// ```
public struct ConsentDecodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, for a person.
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
