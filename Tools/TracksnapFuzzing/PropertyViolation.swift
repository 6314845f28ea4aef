/// A property a parser broke on an input it accepted.
///
/// ```swift
/// throw PropertyViolation(target: "json", "re-parsing the serialised value gave another value")
/// ```
package struct PropertyViolation: Error, Sendable, CustomStringConvertible {
    package let target: String
    package let message: String

    package init(target: String, _ message: String) {
        self.target = target
        self.message = message
    }

    package var description: String { "\(target): \(message)" }
}
