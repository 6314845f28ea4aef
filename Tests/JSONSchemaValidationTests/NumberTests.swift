import JSONSchemaValidation
import Testing
import TracksnapJSON

/// Numbers read without their exact value where that is enough: a decimal against an integer
/// bound, and integers in an `enum`; each at and around its edges.
@Suite("numbers compared by value")
struct NumberTests {
    @Test(
        "a decimal or an integer against an integer bound, at and around the bound, and past Int",
        arguments: [
            ("minimum", "3", "2.9999", false), ("minimum", "3", "3.0", true), ("minimum", "3", "3.0001", true),
            ("exclusiveMinimum", "3", "3.00", false), ("exclusiveMinimum", "3", "3.5", true),
            ("maximum", "0", "-0.0", true), ("maximum", "0", "0.5", false), ("maximum", "0", "-0.5", true),
            ("minimum", "0", "-0.5", false), ("minimum", "-1", "-0.5", true), ("minimum", "-1", "-1.5", false),
            ("maximum", "-2", "-2.0", true), ("maximum", "-2", "-1.9", false), ("exclusiveMaximum", "-2", "-2.1", true),
            ("maximum", "100000", "99999.99", true), ("minimum", "2", "1.5e1", true), ("maximum", "2", "2.5E-1", true),
            ("minimum", "0", "-0", true), ("minimum", "-3", "-4", false), ("maximum", "5", "12", false),
            ("exclusiveMaximum", "9223372036854775807", "9223372036854775808", false),
            ("minimum", "-9223372036854775807", "-9223372036854775808.5", false),
        ])
    func decimalBound(keyword: String, bound: String, instance: String, valid: Bool) throws {
        let schema = try JSONSchema(.object([keyword: .number(bound)]))
        #expect(schema.isValid(.number(instance)) == valid, "\(instance) against \(keyword) \(bound)")
        #expect(schema.validate(.number(instance)).isEmpty == valid)
    }

    @Test(
        "an enum of numbers holds a value however it is written, and no other",
        arguments: [("3", true), ("3.0", true), ("30e-1", true), ("-0", true), ("4", false), ("0.3", false)])
    func enumeration(instance: String, valid: Bool) throws {
        let schema = try JSONSchema(.object(["enum": .array([.number("0"), .number("1"), .number("3")])]))
        #expect(schema.isValid(.number(instance)) == valid, "\(instance) in [0, 1, 3]")
    }
}
