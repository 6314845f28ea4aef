import Foundation
import Testing
import TracksnapJSON
import TracksnapReplay
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

@Suite("VCR's and vcrpy's YAML cassettes", .tags(.process), .leftToMakeTest)
struct VCRCassetteTests {
    @Test(
        "a cassette vcrpy itself recorded from a backend on loopback: text as text, !!binary as bytes, headers repeated"
    )
    func vcrpy() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appending(path: "shop.yaml").path
            let script = PackagePaths.root.appending(path: "Tests/TracksnapReplayTests/Scripts/vcrpy_record.py")
            let run = try await runProcess(PackagePaths.python, [script.path, path])
            try #require(run.status == 0, "\(run.stderr)")
            let port = run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)

            let (cassette, warnings) = try Cassette.read(path: path)
            #expect(warnings.isEmpty, "\(warnings)")
            #expect(cassette.format == .vcr)
            #expect(
                cassette.interactions.map { "\($0.request.method) \($0.request.url) \($0.response.status)" } == [
                    "GET http://127.0.0.1:\(port)/v1/products?currency=EUR 200",
                    "GET http://127.0.0.1:\(port)/logo.png 200", "POST http://127.0.0.1:\(port)/v1/cart 201",
                ])
            let products = try #require(cassette.interactions[0].response.body?.bytes)
            let decoded = try JSONSerialization.jsonObject(with: Data(products)) as? [String: Any]
            #expect((decoded?["products"] as? [[String: Any]])?.first?["sku"] as? String == "A-1")
            #expect(cassette.interactions[1].response.body == .binary([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF]))
            #expect(cassette.interactions[1].request.body == nil)
            #expect(cassette.interactions[2].request.body == .text(#"{"sku": "A-1"}"#))
            #expect(cassette.interactions[2].response.headers.contains { $0.name == "Set-Cookie" })
            #expect(
                cassette.interactions[2].response.headers.first { $0.name == "Content-Length" }?.value == "44")
        }
    }

    @Test(
        "a Ruby VCR cassette as its documentation shows it: encoding and base64_string bodies, a lower-case method, an HTTP date"
    )
    func ruby() throws {
        let text = """
            ---
            http_interactions:
            - request:
                method: post
                uri: https://api.shop.example/v1/cart
                body:
                  encoding: UTF-8
                  string: '{"sku":"A-1"}'
                headers:
                  Content-Type:
                  - application/json
              response:
                status:
                  code: 201
                  message: Created
                headers:
                  Content-Type:
                  - application/octet-stream
                body:
                  encoding: ASCII-8BIT
                  base64_string: |
                    AAEC
                http_version:
              recorded_at: Tue, 01 Nov 2011 04:58:44 GMT
            - request:
                method: get
                uri: https://api.shop.example/health
                body:
                  encoding: US-ASCII
                  string: ''
                headers: {}
              response:
                status:
                  code: 204
                  message: No Content
                headers: {}
                body:
                  encoding: UTF-8
                  string: ''
              recorded_at: Tue, 01 Nov 2011 04:58:45 GMT
            recorded_with: VCR 6.2.0
            """
        let (cassette, warnings) = try Cassette.read(Array(text.utf8), file: "cassettes/cart.yml")
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(cassette.format == .vcr)
        let cart = cassette.interactions[0]
        #expect(cart.request.method == "POST" && cart.request.body == .text(#"{"sku":"A-1"}"#))
        #expect(cart.response.body == .binary([0, 1, 2]))
        #expect(cart.recordedAt == 1_320_123_524)
        #expect(cassette.interactions[1].request.body == nil && cassette.interactions[1].response.body == nil)
    }

    @Test("broken YAML is an error at libyaml's line and column; an alias bomb is refused, not expanded")
    func refused() throws {
        let broken = "interactions:\n- request:\n    uri: 'https://a.example/\n  response: {}\n"
        let error = try #require(throws: InputError.self) { try Cassette.read(Array(broken.utf8), file: "b.yml") }
        #expect(error.description.hasPrefix("b.yml:5:1: error: YAML: "), "\(error)")

        // Ten levels of ten aliases each: 10^10 values if expanded.
        var bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...10 {
            bomb +=
                "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
                + "]\n"
        }
        // Refused at the bound, which the error names: expanding the aliases would not end.
        let bombError = try #require(throws: InputError.self) { try Cassette.read(Array(bomb.utf8), file: "bomb.yml") }
        #expect(bombError.description.contains("more than 1000000 values"), "\(bombError)")

        let missing =
            "interactions:\n- request: {uri: 'https://a.example/'}\n  response: {status: {code: 0}}\nversion: 1\n"
        let statusError = try #require(throws: InputError.self) {
            try Cassette.read(Array(missing.utf8), file: "s.yml")
        }
        #expect(
            statusError.description.hasPrefix("s.yml:3:29: error: a response needs its \"status\""), "\(statusError)")
    }
}
