import Testing

@testable import TracksnapJSON

@Suite("JSONValue writes numbers a JSON reader accepts")
struct JSONValueTests {
    @Test(
        "a Double is written as JSON number text",
        arguments: [
            (3.0, "3"), (-2.0, "-2"), (12.5, "12.5"), (0.1, "0.1"), (1e20, "1e+20"),
        ])
    func doubleText(value: Double, text: String) throws {
        #expect(JSONValue.number(value) == .number(text))
        #expect(try JSONDocument.parse(JSONValue.number(value).serialized().utf8, file: "t").value == .number(text))
    }

    @Test(
        "NaN and infinities become null, as JSON has no such numbers",
        arguments: [
            Double.nan, .infinity, -.infinity,
        ])
    func nonFinite(value: Double) throws {
        #expect(JSONValue.number(value) == .null)
        #expect(try JSONDocument.parse(JSONValue.array([.number(value)]).serialized().utf8, file: "t").value == [nil])
    }
}
