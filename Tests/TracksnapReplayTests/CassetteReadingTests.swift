import Foundation
import Testing
import TracksnapJSON
import TracksnapReplay
import TracksnapSnapshot
import TracksnapTraffic

/// Cassettes written here from each tool's documented format and its writer's rules (DVR's
/// `Interaction.dictionary`, Vinyl's `Track.encodedTrack`), not copied from their repositories.
@Suite("Cassettes are read as the tools that wrote them read them")
struct CassetteReadingTests {
    @Test("a DVR cassette: JSON bodies embedded, text as text, anything else base64, by the Content-Type header")
    func dvr() throws {
        let text = #"""
            {
              "name" : "checkout",
              "interactions" : [
                {
                  "recorded_at" : 1700000000.5,
                  "request" : {
                    "method" : "POST",
                    "url" : "https://api.shop.example/v1/cart?currency=EUR",
                    "headers" : {"Content-Type" : "application/json; charset=utf-8", "Accept" : "*/*"},
                    "body" : {"sku" : "A-1", "quantity" : 2}
                  },
                  "response" : {
                    "url" : "https://api.shop.example/v1/cart?currency=EUR",
                    "status" : 201,
                    "headers" : {"Content-Type" : "application/json", "Content-Length" : "24"},
                    "body" : {"cart" : "c-42", "items" : 2}
                  }
                },
                {
                  "recorded_at" : 1700000001,
                  "request" : {"method" : "GET", "url" : "https://api.shop.example/robots.txt", "headers" : {}},
                  "response" : {
                    "url" : "https://api.shop.example/robots.txt", "status" : 200,
                    "headers" : {"Content-Type" : "text/plain"}, "body" : "User-agent: *"
                  }
                },
                {
                  "recorded_at" : 1700000002,
                  "request" : {"method" : "GET", "url" : "https://cdn.shop.example/logo.png"},
                  "response" : {
                    "url" : "https://cdn.shop.example/logo.png", "status" : 200,
                    "headers" : {"Content-Type" : "image/png"}, "body" : "iVBORw0KGgo="
                  }
                }
              ]
            }
            """#
        let (cassette, warnings) = try Cassette.read(Array(text.utf8), file: "Cassettes/checkout.json")
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(cassette.format == .dvr && cassette.name == "checkout")
        #expect(cassette.interactions.count == 3)

        let cart = cassette.interactions[0]
        #expect(cart.recordedAt == 1_700_000_000.5)
        #expect(cart.request.method == "POST" && cart.request.url == "https://api.shop.example/v1/cart?currency=EUR")
        #expect(cart.request.headers.map(\.name) == ["Accept", "Content-Type"])
        #expect(cart.request.body == .json(.object(["sku": .string("A-1"), "quantity": .number("2")])))
        #expect(cart.response.status == 201)
        #expect(
            String(decoding: try #require(cart.response.body).bytes, as: UTF8.self) == #"{"cart":"c-42","items":2}"#)

        #expect(cassette.interactions[1].response.body == .text("User-agent: *"))
        #expect(cassette.interactions[2].request.body == nil)
        #expect(cassette.interactions[2].response.body == .binary([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    }

    @Test("DVR's older cassettes say how each request body is stored in body_format")
    func dvrBodyFormat() throws {
        let text = #"""
            {"name": "old", "interactions": [{"recorded_at": 1, "request": {"method": "PUT", "url": "https://a.example/x",
              "headers": {"Content-Type": "application/octet-stream"}, "body": "{\"a\":1}", "body_format": "plain_text"},
              "response": {"url": "https://a.example/x", "status": 204, "headers": {}}}]}
            """#
        let (cassette, _) = try Cassette.read(Array(text.utf8), file: "old.json")
        #expect(cassette.interactions[0].request.body == .text(#"{"a":1}"#))
        #expect(cassette.interactions[0].response.body == nil)
    }

    @Test("a Vinyl cassette: an array of tracks; no method is a GET, no request is a GET of the response's URL")
    func vinyl() throws {
        let text = #"""
            [
              {
                "request": {"url": "https://api.shop.example/v1/products", "headers": {}},
                "response": {"url": "https://api.shop.example/v1/products", "status": 200,
                             "headers": {"Content-Type": "application/json"}, "body": [{"sku": "A-1"}]}
              },
              {
                "response": {"url": "https://api.shop.example/v1/banner", "status": 200, "headers": {},
                             "body": "Winter sale"}
              }
            ]
            """#
        let (cassette, warnings) = try Cassette.read(Array(text.utf8), file: "Vinyl/shop.json")
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(cassette.format == .vinyl && cassette.name == nil)
        #expect(cassette.interactions.map(\.request.method) == ["GET", "GET"])
        #expect(cassette.interactions[1].request.url == "https://api.shop.example/v1/banner")
        // Vinyl reads a string body with no Content-Type as text; DVR would read it as base64.
        #expect(cassette.interactions[1].response.body == .text("Winter sale"))
        #expect(cassette.interactions[0].response.body == .json(.array([.object(["sku": .string("A-1")])])))
    }

    @Test(
        "what a tool's own writer always writes but a hand-made file lacks is a warning at its line, and the file is read"
    )
    func looser() throws {
        let text = #"""
            {"interactions": [
              {"request": {"url": "https://a.example/"},
               "response": {"status": 200, "headers": {"Content-Type": "image/gif"}, "body": "not base64!"}}
            ]}
            """#
        let (cassette, warnings) = try Cassette.read(Array(text.utf8), file: "hand.json")
        #expect(cassette.interactions.count == 1)
        let lines = warnings.map(\.description)
        #expect(lines.contains { $0.hasPrefix("hand.json:1:1: warning: no \"name\"") })
        #expect(lines.contains { $0.hasPrefix("hand.json:2:3: warning: no \"recorded_at\"") })
        #expect(lines.contains { $0.hasPrefix("hand.json:3:16: warning: no \"url\" in the response") })
        #expect(lines.contains { $0.hasPrefix("hand.json:3:82: warning: not base64") })
        #expect(cassette.interactions[0].response.body == .text("not base64!"))
    }

    @Test(
        "what leaves nothing to replay is an error at its line and column, every one of them, and nothing is returned")
    func errors() throws {
        let text = #"""
            {"name": "bad", "interactions": [
              {"recorded_at": 1, "request": {"method": "GET"}, "response": {"status": 200}},
              {"recorded_at": 1, "request": {"url": "https://a.example/"}, "response": {"status": 700}},
              "GET /",
              {"recorded_at": 1, "request": {"url": "https://a.example/"}}
            ]}
            """#
        let error = try #require(throws: InputError.self) { try Cassette.read(Array(text.utf8), file: "bad.json") }
        #expect(
            error.diagnostics.map { "\($0.location.map { "\($0.line):\($0.column)" } ?? "-") \($0.message.prefix(24))" }
                == [
                    "2:33 a request needs its \"url", "3:87 a response needs its \"st",
                    "4:3 an interaction is an obj", "5:3 no \"response\": nothing t",
                ])

        for (file, bytes, message) in [
            ("unclosed.json", #"{"interactions": [}"#, "unclosed.json:1:19:"),
            ("scalar.json", "42", "scalar.json:1:1: error: not a cassette"),
            ("object.json", #"{"log": {}}"#, "object.json:1:1: error: not a cassette"),
            ("list.json", #"{"interactions": {}}"#, "list.json:1:18: error: \"interactions\" is an array"),
        ] {
            let error = try #require(throws: InputError.self) { try Cassette.read(Array(bytes.utf8), file: file) }
            #expect(error.description.hasPrefix(message), "\(error)")
        }
    }
}
