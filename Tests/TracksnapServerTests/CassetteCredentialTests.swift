import Foundation
import Testing
import TracksnapJSON
import TracksnapTestSupport

/// A cassette is made to be committed and reviewed: whatever credential the app sent or the
/// backend answered must not be in it, whether its name says so or only its shape does.
@Suite("A recorded cassette holds none of the common credentials, in clear", .tags(.process), .leftToMakeTest)
struct CassetteCredentialTests {
    static let backend = PackagePaths.root.appending(path: "Tests/TracksnapServerTests/Fixtures/credential_backend.py")

    /// Named in the query the app sends.
    static let query: [(String, String)] = [
        ("key", "PlantQueryKey4471"), ("sig", "PlantQuerySig8812"), ("signature", "PlantQuerySignature3390"),
        ("X-Amz-Signature", "PlantAmzSignature0f9e8d7c"), ("code", "PlantOAuthCode6620"),
        ("session", "PlantQuerySession2281"), ("jwt", "PlantQueryJwt9914"),
    ]
    /// Named in the form the app posts.
    static let form: [(String, String)] = [
        ("pass", "PlantFormPass1177"), ("pwd", "PlantFormPwd2288"), ("pin", "pin-739158"), ("otp", "otp-604211"),
        ("cvc", "cvc-9327"), ("number", "4111111111111111"),
    ]
    /// Headers the app sends.
    static let requestHeaders: [(String, String)] = [
        ("X-Amz-Security-Token", "PlantRequestAmzToken7731"), ("X-Auth-Key", "PlantRequestAuthKey1029"),
    ]
    /// Headers the backend answers.
    static let answerHeaders: [(String, String)] = [
        ("X-Auth-Key", "PlantAnswerAuthKey5150"), ("X-Access-Key", "PlantAnswerAccessKey6261"),
        ("X-Session-Id", "PlantAnswerSessionId7372"), ("X-Signature", "PlantAnswerSignature8483"),
        ("X-Amz-Security-Token", "PlantAnswerAmzToken9594"),
        ("Location", "https://app.example/callback?code=PlantLocationCode3141&state=xyz"),
        ("X-Partner-Key", "H0lHbIg9D0IPBf4rTHvlzy7L3AqcsVZUwtqh7f3s"),
    ]
    /// Credentials in the answer's JSON: by name, and by shape under names that say nothing.
    static let answerBody: [String: JSONValue] = [
        "session": "PlantBodySession4242", "jwt": "PlantBodyJwt6464",
        "user": ["note": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJwbGFudGVkIn0.c2lnbmF0dXJlLXBsYW50ZWQ"],
        "aws": ["id": "AKIAIOSFODNN7PLANTED"], "maps": "AIzaSyBplantedGoogleMapsKey-0123456789_",
        "billing": ["number": "4242 4242 4242 4242"], "welcome": "your card 5555555555554444 is saved",
    ]

    /// Every value planted, and the parts a check may find on their own.
    static var planted: [String] {
        query.map(\.1) + form.map(\.1) + requestHeaders.map(\.1) + answerHeaders.map(\.1)
            + [
                "PlantLocationCode3141", "PlantBodySession4242", "PlantBodyJwt6464",
                "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJwbGFudGVkIn0.c2lnbmF0dXJlLXBsYW50ZWQ", "c2lnbmF0dXJlLXBsYW50ZWQ",
                "AKIAIOSFODNN7PLANTED", "AIzaSyBplantedGoogleMapsKey-0123456789_", "4242 4242 4242 4242",
                "5555555555554444",
            ]
    }

    @Test(
        "serve --cassette records a backend that answers every listed form: none of the planted values is in the file")
    func noPlantedValue() async throws {
        try await withTemporaryDirectory { directory in
            let cassette = directory.appending(path: "Cassettes/login.json").path
            let plants: JSONValue = [
                "headers": .array(Self.answerHeaders.map { .array([.string($0.0), .string($0.1)]) }),
                "body": .object(Self.answerBody),
            ]
            let backend = try await ChildProcess.launch(PackagePaths.python, [Self.backend.path, plants.serialized()])
            defer { backend.stop() }
            let recording = try await ServeChild.launch([
                "--upstream", "http://127.0.0.1:\(backend.firstLine)", "--cassette", cassette, "--record-mode", "all",
                "--quiet",
            ])
            let query = Self.query.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
            let form = Self.form.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
            var arguments = ["curl", "--silent", "--show-error", "--max-time", "30", "-o", "/dev/null", "-d", form]
            for (name, value) in Self.requestHeaders { arguments += ["-H", "\(name): \(value)"] }
            let sent = try await run("/usr/bin/env", arguments + ["\(recording.base)/v1/login?\(query)"])
            #expect(sent.status == 0, "\(sent.stderr)")
            recording.stop()
            #expect(try await recording.waitForExit() == 0)
            let text = try String(contentsOfFile: cassette, encoding: .utf8)
            #expect(text.contains("/v1/login"), "the interaction is recorded: \(text)")
            let found = Self.planted.filter { text.contains($0) }
            #expect(found.isEmpty, "in the cassette: \(found)\n\(text)")
        }
    }
}
