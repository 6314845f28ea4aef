import Foundation
import Testing
import TracksnapTestSupport

/// Another tool's cassette (vcrpy's here) keeps what it recorded: `lint` says where it holds
/// what tracksnap's recording would have hidden, never the value itself.
@Suite("tracksnap lint warns about credentials in a cassette", .tags(.process), .leftToMakeTest)
struct LintCredentialTests {
    static let cassette = """
        interactions:
        - request:
            body: null
            headers: {}
            method: GET
            uri: https://maps.example/v1/geocode?address=Main+St&key=AIzaSyBplantedGoogleMapsKey-0123456789_
          response:
            body:
              string: '{"place": "Main St"}'
            headers:
              Content-Type:
              - application/json
              X-Session-Id:
              - sess-8f3a9c1e2b7d
            status:
              code: 200
              message: OK
        - request:
            body: null
            headers: {}
            method: GET
            uri: https://maps.example/v1/health
          response:
            body:
              string: ok
            headers: {}
            status:
              code: 200
              message: OK
        version: 1
        """

    @Test("a Google key in a URL and a session id in an answer: one warning naming both places, no value")
    func warns() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appending(path: "Cassettes/maps.yaml")
            try write(Self.cassette, to: file)
            let run = try tracksnap("lint", file.path)
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            #expect(
                run.stdout.contains(
                    "\(file.path): warning: interaction 1: the request's URL, the answer's header X-Session-Id hold what looks like a credential"
                ), "\(run.stdout)")
            #expect(!run.stdout.contains("interaction 2"), "\(run.stdout)")
            #expect(!run.stdout.contains("AIzaSy") && !run.stdout.contains("sess-8f3a"), "\(run.stdout)")
            #expect(try tracksnap("lint", "--strict", file.path).status == 1)
        }
    }
}
