import TracksnapJSON
import TracksnapTraffic
import TracksnapValidation

extension FuzzTarget {
    /// The JSON parser: with and without locations it gives the same answer, and a value it
    /// accepts re-serialises (compact and pretty) to text that parses to the same value.
    static let json = FuzzTarget(
        "json", "JSONDocument.parse, then serialized() and parse again",
        seeds: [
            "Snapshots", "Validators", "Sources/TracksnapValidation/Profile/BuiltIn",
            "Tests/TracksnapJSONTests/Fixtures/json",
        ]
    ) { bytes throws(PropertyViolation) in
        let located = Result { () throws(JSONParseError) in try JSONDocument.parse(bytes, file: "fuzz.json") }
        let plain = Result { () throws(JSONParseError) in
            try JSONDocument.parse(bytes, file: "fuzz.json", trackLocations: false)
        }
        switch (located, plain) {
        case (.failure, .failure):
            return
        case (.success(let document), .success(let other)):
            guard document.value == other.value else {
                throw PropertyViolation(target: "json", "parsing with and without locations gave different values")
            }
            for pretty in [false, true] {
                let text = document.value.serialized(pretty: pretty)
                guard let again = try? JSONDocument.parse(Array(text.utf8), file: "fuzz.json") else {
                    throw PropertyViolation(target: "json", "the serialised value does not parse: \(text.prefix(200))")
                }
                guard again.value == document.value else {
                    throw PropertyViolation(
                        target: "json", "the serialised value parses to another value: \(text.prefix(200))")
                }
            }
        default:
            throw PropertyViolation(
                target: "json", "parsing with and without locations disagree on whether the input is JSON")
        }
    }

    /// Secret values at any depth of any encoding: never crashes nor hangs, in JSON or in text.
    static let secrets = FuzzTarget(
        "secrets", "Secrets.values and Secrets.cuts over the input as JSON, else as one string",
        seeds: ["Tests/TracksnapDecodersTests/Fixtures", "Tests/TracksnapCLITests/Fixtures/captures"]
    ) { bytes throws(PropertyViolation) in
        let text = Input.text(bytes)
        let value = (try? JSONDocument.parse(bytes, file: "fuzz.json", trackLocations: false).value) ?? .string(text)
        let found = Secrets.values(in: value)
        if let cuts = Secrets.cuts(in: text, known: found), cuts.contains(where: \.isEmpty) {
            throw PropertyViolation(target: "secrets", "an empty string was listed as a secret to cut")
        }
    }
}
